import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { RealmContext } from '../../realm/application/realm-context.js';
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
    private readonly realm: RealmContext,
    private readonly config: ServerConfig,
    private readonly ds: DataSource,
  ) {}

  @Get('api/v1/server_settings')
  async serverSettings(@Headers('user-agent') userAgent = '') {
    return serverSettings(await this.realms.get(this.realm.id), this.config, userAgent);
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
