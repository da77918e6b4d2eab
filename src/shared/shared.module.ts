import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AccountRules } from './application/account-rules.js';
import { Clock, SystemClock } from './application/clock.js';
import { PasswordHasher } from './application/password-hasher.js';
import { CryptoSecrets, Secrets } from './application/secrets.js';
import { UnitOfWork } from './application/unit-of-work.js';
import { Argon2PasswordHasher } from './auth/argon2-password-hasher.js';
import { LibraryAccountRules } from './auth/library-account-rules.js';
import { SlidingWindowRateLimiter } from './auth/rate-limiter.js';
import { ServerConfig } from './config/server-config.js';
import { AppLogger } from './logging/logger.js';
import { dataSourceProvider, DataSourceCloser, statementCounterProvider } from './persistence/database.providers.js';
import { TypeOrmUnitOfWork } from './persistence/typeorm-unit-of-work.js';

/** Ports and adapters every context uses: configuration, time, secrets, the database. */
@Global()
@Module({})
export class SharedModule {
  static register(config: ServerConfig, logger: Logger): DynamicModule {
    const providers = [
      { provide: ServerConfig, useValue: config },
      { provide: AppLogger, useValue: logger },
      { provide: Clock, useClass: SystemClock },
      { provide: Secrets, useClass: CryptoSecrets },
      { provide: PasswordHasher, useValue: new Argon2PasswordHasher() },
      { provide: AccountRules, useValue: new LibraryAccountRules() },
      { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
      { provide: SlidingWindowRateLimiter, useValue: new SlidingWindowRateLimiter() },
      statementCounterProvider,
      dataSourceProvider,
      DataSourceCloser,
    ];
    return {
      module: SharedModule,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
