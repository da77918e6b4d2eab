import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DomainError } from '@app/domain/shared';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { ServerConfig } from './shared/config/server-config.js';

/** Body-parser and multer failures become Zulip errors before Nest turns them into plain 400s. */
function translateBodyErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const e = err as { type?: string; name?: string; message?: string };
  if (e?.type === 'entity.parse.failed') return next(new DomainError('Malformed JSON'));
  if (e?.type === 'entity.too.large') return next(new DomainError('Request entity too large'));
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return next(new DomainError('Malformed payload'));
  if (e?.name === 'MulterError') return next(new DomainError(`Malformed payload: ${e.message}`));
  next(err);
}

/**
 * Body parsing for every method: form-encoded and multipart bodies are read alike (zulip-js
 * sends multipart for every POST), JSON bodies are accepted too. Nest must be created with
 * `bodyParser: false` for these options to apply.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  app.disable('x-powered-by');
  // req.ip follows X-Forwarded-For only through the configured proxies (the rightmost untrusted hop).
  const { trustedProxies } = app.get(ServerConfig);
  app.set('trust proxy', trustedProxies.length > 0 ? trustedProxies : false);
  // On every response, errors included: no MIME sniffing, and no full URLs (with their
  // narrows and upload paths) leaked to other sites in Referer.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    next();
  });
  app.useBodyParser('json', { limit: '5mb' });
  app.useBodyParser('urlencoded', { extended: false, limit: '5mb', parameterLimit: 10_000 });
  const fieldsOnly = multer({ limits: { fieldSize: 5 << 20, fields: 10_000 } }).none();
  // Uploads read their file after authentication (UploadInterceptor, EmojiUploadInterceptor);
  // every other multipart body is fields only.
  const readsFiles = (req: Request) =>
    req.method === 'POST' && (req.path === '/api/v1/user_uploads' || req.path.startsWith('/api/v1/realm/emoji/'));
  // Every failure of the multipart parser is the body's fault: multer's own errors (limits) say
  // what, busboy's (no boundary, a broken part header, a body that ends early) are malformed.
  app.use((req: Request, res: Response, next: NextFunction) =>
    readsFiles(req)
      ? next()
      : fieldsOnly(req, res, (err?: unknown) =>
          next(err === undefined || (err as { name?: string }).name === 'MulterError' ? err : new DomainError('Malformed payload')),
        ),
  );
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
