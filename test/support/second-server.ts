import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { pino } from 'pino';
import { AppModule } from '../../src/app/app.module.js';
import { Clock } from '../../src/shared/application/clock.js';
import { ServerConfig } from '../../src/shared/config/server-config.js';
import { ApiKeyBasicStrategy } from '../../src/users/http/basic-auth.strategy.js';
import type { TestApp } from './test-app.js';

/**
 * Another server process's app on the test's database (and clock), without HTTP. Its Basic
 * auth strategy is left out: passport keeps strategies process-wide, so it would replace the
 * test app's one (and die with this app's pool).
 */
export async function startSecondServer(t: TestApp, env: Record<string, string>): Promise<NestExpressApplication> {
  const config = ServerConfig.fromEnv({
    DATABASE_URL: t.databaseUrl,
    EXTERNAL_URL: 'http://chat.example.com',
    RATE_LIMITING: 'false',
    STRICT_POOL_CHECKS: 'true',
    ...env,
  });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(config, pino({ level: 'silent' }))] })
    .overrideProvider(Clock)
    .useValue(t.clock)
    .overrideProvider(ApiKeyBasicStrategy)
    .useValue({})
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  await app.init();
  return app;
}
