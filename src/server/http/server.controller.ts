import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { RealmResolver } from '../../realm/application/realm-resolver.js';
import { RealmQueries } from '../../realm/application/realm.ports.js';
import { Public } from '../../shared/auth/decorators.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { serverSettings } from '../application/server-info.js';

@Controller()
@Public()
export class ServerController {
  constructor(
    private readonly realms: RealmQueries,
    private readonly realmResolver: RealmResolver,
    private readonly config: ServerConfig,
    private readonly ds: DataSource,
  ) {}

  @Get('api/v1/server_settings')
  async serverSettings(@Headers('host') host: string | undefined, @Headers('user-agent') userAgent = '') {
    const realm = await this.realms.get(await this.realmResolver.resolve(host));
    return serverSettings(realm, this.config, userAgent);
  }

  /** Readiness: 200 once the database answers, 503 otherwise. */
  @Get('health')
  @RawResponse()
  async health(@Res({ passthrough: true }) res: Response) {
    try {
      await this.ds.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      res.status(503);
      return { status: 'unavailable' };
    }
  }
}
