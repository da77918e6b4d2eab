import { DomainError } from '@app/domain/shared';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, NotFoundException } from '@nestjs/common';
import type { Application, Request, Response } from 'express';
import { DatabaseHealth } from '../application/database-health.js';
import { AppLogger, redactUrl } from '../logging/logger.js';
import { wwwAuthenticateFor } from './browser-requests.js';
import { errorBody, STATUS_OF } from './error-body.js';
import { INTEGER_SEGMENT } from './path-params.js';
import { type RouterLayer, routeLayers } from './routes.js';

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * The one place where errors become responses: DomainErrors (rules, parameters, auth) with
 * their status; unknown routes as JSON 404, or 405 with `allowed_methods` when the path exists
 * for other methods; malformed bodies as 400; a lost or refused database connection as 503
 * (nothing was acknowledged, the client may retry); anything else is logged and becomes a 500.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly logger: AppLogger,
    private readonly database: DatabaseHealth,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    if (res.headersSent) return;
    // A refusal before the body was read (authentication, an unknown route, a body past its
    // limit) closes the connection instead of reading the rest of the body to keep it alive.
    if (!req.complete) res.setHeader('Connection', 'close');

    if (exception instanceof DomainError) {
      if (exception.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', wwwAuthenticateFor(req));
      if (exception.kind === 'rate_limited') res.setHeader('Retry-After', String(exception.data['retry-after']));
      res.status(STATUS_OF[exception.kind]).json(errorBody(exception));
      return;
    }
    if (exception instanceof NotFoundException && isRouteMiss(exception)) {
      const allowed = allowedMethods(req);
      if (allowed.length > 0) {
        res.setHeader('Allow', allowed.join(', '));
        res.status(405).json({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed });
      } else {
        res.status(404).json({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
      }
      return;
    }
    const clientError = asClientError(exception);
    if (clientError !== null) {
      res.status(clientError.status).json({ result: 'error', msg: clientError.msg, code: 'BAD_REQUEST' });
      return;
    }
    if (this.database.isOutage(exception)) {
      this.logger.warn({ err: exception, method: req.method, url: redactUrl(req.originalUrl) }, 'database unavailable');
      res.setHeader('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      res.status(503).json({ result: 'error', msg: 'Service temporarily unavailable; try again later.', code: 'SERVICE_UNAVAILABLE' });
      return;
    }
    // Through the logger's error serializer: the statement and code of a database error, never its parameters.
    this.logger.error({ err: exception, method: req.method, url: redactUrl(req.originalUrl) }, 'unhandled error');
    res.status(500).json({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  }
}

function isRouteMiss(e: NotFoundException): boolean {
  const r = e.getResponse();
  const message = typeof r === 'object' && r !== null ? (r as { message?: unknown }).message : r;
  return typeof message === 'string' && message.startsWith('Cannot ');
}

/** Whether the `…_id` segments a route matched are integers, as its Zulip route requires. */
const integerIds = (params: Record<string, string> = {}) =>
  Object.entries(params).every(([name, value]) => !name.endsWith('_id') || INTEGER_SEGMENT.test(value));

/** Methods under which some route matches this path (Express's router has no 405 of its own). */
function allowedMethods(req: Request): string[] {
  const app = req.app as Application & { router?: { stack: RouterLayer[] } };
  const methods: string[] = [];
  for (const layer of routeLayers(app.router?.stack ?? [])) {
    const matched = layer.route ? layer.match(req.path) : false;
    if (!layer.route || matched === false || !integerIds(matched.params)) continue;
    for (const [m, on] of Object.entries(layer.route.methods)) {
      const name = m.toUpperCase();
      if (on && name !== '_ALL' && !methods.includes(name)) methods.push(name);
    }
  }
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return methods;
}

/** Nest's own 4xx HttpExceptions and other client errors that carry a 4xx status. */
function asClientError(e: unknown): { status: number; msg: string } | null {
  if (e instanceof HttpException && e.getStatus() < 500) {
    return { status: e.getStatus(), msg: e.message };
  }
  const err = e as { status?: number; statusCode?: number; message?: string };
  const status = err?.status ?? err?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, msg: err.message ?? 'Bad request' };
  return null;
}
