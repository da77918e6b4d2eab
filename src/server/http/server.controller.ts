import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RealmQueries, RealmResolver } from '../../realm/index.js';
import { DatabaseHealth } from '../../shared/application/database-health.js';
import { RateLimiter } from '../../shared/application/rate-limiter.js';
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
    private readonly database: DatabaseHealth,
    private readonly limiter: RateLimiter,
  ) {}

  @Get('api/v1/server_settings')
  async serverSettings(@Headers('host') host: string | undefined, @Headers('user-agent') userAgent = '') {
    const realm = await this.realms.getForVisitor(await this.realmResolver.resolve(host));
    return serverSettings(realm, this.config, userAgent);
  }

  /**
   * Readiness: 200 once the database answers, 503 otherwise; `details` tells what is not set up
   * (email without SMTP_URL: emails stay in the outbox) and, with REDIS_URL, whether the shared
   * rate-limit store answers (`down` does not make the node unready: it then counts in process).
   */
  @Get('health')
  @RawResponse()
  async health(@Res({ passthrough: true }) res: Response) {
    const store = this.limiter.storeState();
    const details = { email: this.config.emailConfigured ? 'configured' : 'not configured', ...(store === 'local' ? {} : { redis: store }) };
    if (await this.database.isReachable()) return { status: 'ok', details };
    res.status(503);
    return { status: 'unavailable', details };
  }
}
