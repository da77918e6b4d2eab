import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DomainError } from '@app/domain/shared';
import type { NextFunction, Request, Response } from 'express';
import { BODY_LIMITS, requestTooLarge, tooManyParameters } from './shared/http/multipart.js';
import { ServerConfig } from './shared/config/server-config.js';
import { configureBrowserSessions } from './shared/auth/browser-cookies.js';
import { AppLogger } from './shared/logging/logger.js';
import { observeRequests } from './app/metrics/request-observer.js';
import { serveEventPolls } from './app/event-poll-route.js';
import { ServerMetrics } from './app/metrics/server-metrics.js';

/** Body-parser failures become Zulip errors before Nest turns them into plain 400s. */
function translateBodyErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const e = err as { type?: string; name?: string; message?: string };
  if (e?.type === 'entity.parse.failed') return next(new DomainError('Malformed JSON'));
  if (e?.type === 'entity.too.large') return next(requestTooLarge());
  if (e?.type === 'parameters.too.many') return next(tooManyParameters());
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return next(new DomainError('Malformed payload'));
  next(err);
}

/**
 * A form-encoded or JSON body declared larger than the limit is refused before a byte of it is
 * read (the body parsers would read it all to the end before answering).
 */
function refuseDeclaredOversizedBody(req: Request, res: Response, next: NextFunction): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > BODY_LIMITS.maxBodyBytes && req.is(['urlencoded', 'json'])) {
    res.setHeader('Connection', 'close');
    return next(requestTooLarge());
  }
  next();
}

/**
 * Body parsing for every method: form-encoded and JSON bodies here, within BODY_LIMITS;
 * multipart bodies (zulip-js sends multipart for every POST) after authentication, by
 * MultipartBodyInterceptor, within the same limits. Nest must be created with
 * `bodyParser: false` for these options to apply.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  app.disable('x-powered-by');
  // First, in one middleware (one router layer fewer on every request): every request is
  // counted and logged once answered, whatever answers it; and on every response, errors
  // included: no MIME sniffing, and no full URLs (with their narrows and upload paths) leaked
  // to other sites in Referer.
  const observe = observeRequests(app.get(ServerMetrics), app.get(AppLogger));
  const everyRequest = (req: Request, res: Response) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    observe(req, res);
  };
  app.use((req: Request, res: Response, next: NextFunction) => {
    everyRequest(req, res);
    next();
  });
  // No ETag on API answers (Zulip sends none): Express would hash every JSON body for it (the
  // hashing step of every answer in the server_settings profile). Uploads are streamed and never
  // had one.
  app.set('etag', false);
  // req.ip follows X-Forwarded-For only through the configured proxies (the rightmost untrusted hop).
  const config = app.get(ServerConfig);
  app.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  // The web app's /json routes (session cookie, CSRF): rewritten to /api/v1 before the router.
  configureBrowserSessions(app, config);
  // GET /api/v1/events long-polls, before Express (what it does not handle goes on to Express).
  serveEventPolls(app, everyRequest);
  app.use(refuseDeclaredOversizedBody);
  app.useBodyParser('json', { limit: BODY_LIMITS.maxBodyBytes });
  app.useBodyParser('urlencoded', { extended: false, limit: BODY_LIMITS.maxBodyBytes, parameterLimit: BODY_LIMITS.maxFields });
  app.use(translateBodyErrors);
  answerParserErrorsWithEnvelope(app.getHttpServer() as Server);
  return app;
}

/**
 * Requests that Node's HTTP parser refuses before Express sees them (a head over the size
 * limit, a malformed request line) get Zulip's error envelope instead of an empty answer.
 */
function answerParserErrorsWithEnvelope(server: Server): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, msg] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request header fields too large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request timeout']
          : [400, 'Bad request'];
    const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
