import { badRequest } from '@app/domain/shared';
import { Controller, Headers } from '@nestjs/common';
import { ApiKeyOnly, Public } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RealmResolver } from '../../realm/index.js';
import { JwtFetchApiKeyDto } from './jwt-fetch-api-key.dto.js';

@Controller('api/v1')
export class JwtFetchApiKeyController {
  constructor(private readonly realms: RealmResolver) {}

  /**
   * POST /jwt/fetch_api_key (Zulip's jwt_fetch_api_key): this server has no JWT_AUTH_KEYS, so
   * every organization it hosts answers that JWT authentication is not enabled (an unknown
   * host: "Invalid subdomain"), before the token is looked at.
   */
  @ApiPost('jwt/fetch_api_key')
  @Public()
  @ApiKeyOnly()
  async fetch(@ZulipParams() _p: JwtFetchApiKeyDto, @Headers('host') host: string | undefined) {
    await this.realms.resolve(host);
    throw badRequest('JWT authentication is not enabled for this organization');
  }
}
