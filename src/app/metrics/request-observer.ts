import type { Actor } from '@app/domain/users';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { AppLogger } from '../../shared/logging/logger.js';
import { clientRoute } from '../../shared/http/browser-requests.js';
import { type ServerMetrics, UNMATCHED_ROUTE } from './server-metrics.js';

/** The route pattern a request matched (`/api/v1/messages/:message_id`, `/json/messages/:message_id`), never its URL. */
export function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? clientRoute(req, path) : UNMATCHED_ROUTE;
}

/** Watches one request (once: a request handed on from the event-poll path to Express is observed by the first). */
export type RequestObserver = (req: Request, res: Response) => void;

const OBSERVED = Symbol('observed');

/**
 * Called first for every request: when its answer ends (or its connection closes first), it is
 * counted in the request metrics and logged in one `info` line: method, route pattern, status,
 * duration in ms and the caller's user id when authenticated. Never the URL (its query string),
 * the body or any header: nothing secret can reach this line.
 */
export function observeRequests(metrics: ServerMetrics, logger: AppLogger): RequestObserver {
  const levels = logger as Partial<Pick<Logger, 'isLevelEnabled'>>;
  // pino answers whether `info` is on (its level may change at run time, so asked per request);
  // another logger is assumed to want every line.
  const logging = typeof levels.isLevelEnabled === 'function' ? () => levels.isLevelEnabled!('info') : () => true;
  return (req: Request, res: Response): void => {
    const marked = req as Request & { [OBSERVED]?: true };
    if (marked[OBSERVED]) return;
    marked[OBSERVED] = true;
    const start = process.hrtime.bigint();
    // 'close' ends every answer: after 'finish' when it was sent, alone when the connection went first.
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const route = routeOf(req);
      // A connection closed before the answer ended: 499, as nginx logs it.
      const status = res.writableFinished ? res.statusCode : 499;
      metrics.answered(req.method, route, status, seconds);
      // The line is built only when it will be written (pino's disabled levels are no-ops).
      if (!logging()) return;
      const userId = (req.user as Actor | undefined)?.userId;
      logger.info({ method: req.method, route, status, ms: Math.round(seconds * 10_000) / 10, ...(userId === undefined ? {} : { userId }) }, 'request');
    });
  };
}
