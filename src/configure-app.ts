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
  app.use((req: Request, res: Response, next: NextFunction) => (readsFiles(req) ? next() : fieldsOnly(req, res, next)));
  app.use(translateBodyErrors);
  return app;
}
