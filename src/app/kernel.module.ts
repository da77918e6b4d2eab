import { join } from 'node:path';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AccountRules } from '../shared/application/account-rules.js';
import { Clock, SystemClock } from '../shared/application/clock.js';
import { DatabaseHealth } from '../shared/application/database-health.js';
import { BoundedPasswordHasher } from '../shared/application/bounded-password-hasher.js';
import { PasswordHasher } from '../shared/application/password-hasher.js';
import { Scheduler, SystemScheduler } from '../shared/application/scheduler.js';
import { CryptoSecrets, Secrets } from '../shared/application/secrets.js';
import { OrganizationSettingsCache } from '../shared/application/settings-cache.js';
import { SettingsInvalidation } from '../shared/application/settings-invalidation.js';
import { SettingsInvalidationFanOut } from '../shared/application/settings-invalidation-fan-out.js';
import { UnitOfWork } from '../shared/application/unit-of-work.js';
import { Argon2PasswordHasher } from '../shared/auth/argon2-password-hasher.js';
import { LibraryAccountRules } from '../shared/auth/library-account-rules.js';
import { InProcessRateLimiter, RateLimiter } from '../shared/application/rate-limiter.js';
import { ServerConfig } from '../shared/config/server-config.js';
import { AppLogger } from '../shared/logging/logger.js';
import { JournalSignal } from '../shared/persistence/journal-signal.js';
import { CredentialCache } from '../users/application/credential-cache.js';
import { redisClient, RedisRateLimiter } from '../shared/persistence/redis-rate-limiter.js';
import { TypeOrmDatabaseHealth } from '../shared/persistence/typeorm-database-health.js';
import { DataSourceCloser, dataSourceProvider, statementCounterProvider } from './database.providers.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work.js';
import { SharpImageProcessor } from './sharp-image-processor.js';
import { ImageProcessor, PublicImageStorage } from '../shared/application/images.js';
import { LocalPublicImageStorage } from '../shared/persistence/local-public-image-storage.js';

/** The kernel's ports and adapters every context uses: configuration, time, secrets, the database. */
@Global()
@Module({})
export class KernelModule {
  static register(config: ServerConfig, logger: Logger): DynamicModule {
    const providers = [
      { provide: ServerConfig, useValue: config },
      { provide: AppLogger, useValue: logger },
      { provide: Clock, useClass: SystemClock },
      { provide: Scheduler, useClass: SystemScheduler },
      { provide: Secrets, useClass: CryptoSecrets },
      {
        provide: PasswordHasher,
        useValue: new BoundedPasswordHasher(new Argon2PasswordHasher(config.passwordHashMemoryKib), {
          concurrency: config.passwordHashConcurrency,
          queue: config.passwordHashQueue,
        }),
      },
      { provide: AccountRules, useValue: new LibraryAccountRules() },
      // Avatars, icons and logos: two images decoded at once per process, a few more uploads waiting.
      { provide: ImageProcessor, useValue: new SharpImageProcessor({ concurrency: 2, queue: 16 }) },
      { provide: PublicImageStorage, useValue: new LocalPublicImageStorage(join(config.uploadsDir, 'avatars')) },
      JournalSignal,
      { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
      { provide: DatabaseHealth, useClass: TypeOrmDatabaseHealth },
      { provide: OrganizationSettingsCache, useValue: new OrganizationSettingsCache() },
      { provide: CredentialCache, useValue: new CredentialCache() },
      {
        // Change notifications, reconnections and this process's commits reach every cache of organization data.
        provide: SettingsInvalidation,
        useFactory: (settings: OrganizationSettingsCache, credentials: CredentialCache) => new SettingsInvalidationFanOut([settings, credentials]),
        inject: [OrganizationSettingsCache, CredentialCache],
      },
      {
        // REDIS_URL: one count for every server process (closed at shutdown); else each process counts alone.
        provide: RateLimiter,
        useFactory: (): RateLimiter =>
          config.redisUrl === undefined
            ? new InProcessRateLimiter()
            : new RedisRateLimiter(redisClient(config.redisUrl), config.redisPrefix, logger),
      },
      statementCounterProvider,
      dataSourceProvider,
      DataSourceCloser,
      ServerMetrics,
    ];
    return {
      module: KernelModule,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
