import { ApiPost } from '../../shared/http/routes.js';
import { Controller, Headers, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiKeyOnly, Public } from '../../shared/auth/decorators.js';
import { applyRateLimitHeaders, clientAddress } from '../../shared/auth/guards.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { RealmResolver } from '../../realm/index.js';
import { ApiKeysService } from '../application/api-keys.service.js';
import { FetchApiKeyDto } from './users.dto.js';

@Controller('api/v1')
export class FetchApiKeyController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly realms: RealmResolver,
  ) {}

  @ApiPost('fetch_api_key')
  @Public()
  @ApiKeyOnly()
  async fetch(
    @ZulipParams() p: FetchApiKeyDto,
    @Headers('host') host: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const realmId = await this.realms.resolve(host);
    const client = { userAgent: req.get('user-agent') ?? '', ip: clientAddress(req) };
    const r = await this.apiKeys.fetchApiKey(realmId, p.username, p.password, (d) => applyRateLimitHeaders(res, d), client);
    return { api_key: r.apiKey, email: r.email, user_id: r.userId };
  }
}
