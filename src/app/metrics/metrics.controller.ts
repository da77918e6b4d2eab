import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Res } from '@nestjs/common';
import { DomainError } from '@app/domain/shared';
import type { Response } from 'express';
import { Public } from '../../shared/auth/decorators.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { ServerMetrics } from './server-metrics.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `given` is the token, in time independent of where they differ (both hashed to one length). */
export function tokenMatches(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics, Prometheus text format, only with METRICS_TOKEN set (else 404, as an unknown
 * route): `Authorization: Bearer <METRICS_TOKEN>`; no or another kind of credentials → 401,
 * a wrong token → 403. Not an API route: no Zulip credentials, no rate limit.
 */
@Controller()
@Public()
export class MetricsController {
  constructor(
    private readonly config: ServerConfig,
    private readonly metrics: ServerMetrics,
  ) {}

  @Get('metrics')
  @RawResponse()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    const token = this.config.metricsToken;
    if (token === undefined) throw new DomainError('Not Found', 'NOT_FOUND', 'not_found');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (m === null) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new DomainError('Metrics token required: Authorization: Bearer <METRICS_TOKEN>', 'METRICS_TOKEN_REQUIRED', 'unauthorized');
    }
    if (!tokenMatches(m[1], token)) throw new DomainError('Invalid metrics token', 'INVALID_METRICS_TOKEN', 'forbidden');
    const body = await this.metrics.exposition().catch(() => {
      throw new DomainError('The metrics of the other server processes are not available; try again later.', 'METRICS_UNAVAILABLE', 'bad_gateway');
    });
    res.type(this.metrics.registry.contentType);
    return body;
  }
}
