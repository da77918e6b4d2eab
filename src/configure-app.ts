import type { NestExpressApplication } from '@nestjs/platform-express';
import multer from 'multer';

/**
 * Body parsing for every method: form-encoded and multipart bodies are read alike (zulip-js
 * sends multipart for every POST), JSON bodies are accepted too. Nest must be created with
 * `bodyParser: false` for these options to apply.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  app.disable('x-powered-by');
  app.useBodyParser('json', { limit: '5mb' });
  app.useBodyParser('urlencoded', { extended: false, limit: '5mb', parameterLimit: 10_000 });
  app.use(multer({ limits: { fieldSize: 5 << 20, fields: 10_000 } }).none());
  return app;
}
