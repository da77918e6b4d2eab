import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { guardPool } from './connection-guard.js';
import { dataSourceOptions } from './data-source.js';
import { ServerConfig } from '../shared/config/server-config.js';
import { AppLogger } from '../shared/logging/logger.js';
import { StatementCounter } from '../shared/persistence/statement-counter.js';

const MIGRATION_LOCK = 0x5ec0002;

/**
 * Pools being closed. pg-pool's end() calls back once it has asked its idle connections to close,
 * not once they have: a database stopped right after (the embedded one, at shutdown) may still
 * terminate them, which is expected then and not worth a warning.
 */
const closing = new WeakSet<DataSource>();

/**
 * Opens the pool and applies pending migrations (serialised across servers by an advisory lock).
 * An idle pooled connection that breaks (the database restarted, its backend was terminated) is
 * dropped by the pool and reported to `logger`; the next request opens a fresh one. The pool
 * is guarded against a second connection inside a unit of work's transaction (`strict`: fail it).
 */
export async function openDataSource(url: string, counter?: StatementCounter, logger?: AppLogger, strict = false): Promise<DataSource> {
  const ds = new DataSource({
    ...dataSourceOptions(url),
    ...(counter ? { logging: ['query'], logger: counter } : {}),
    ...(logger
      ? {
          poolErrorHandler: (err: unknown) => {
            if (closing.has(ds)) logger.debug({ err }, 'idle database connection closed during shutdown');
            else logger.warn({ err }, 'idle database connection lost');
          },
        }
      : {}),
  });
  await ds.initialize();
  guardPool(ds, strict ? 'throw' : 'warn', logger);
  const runner = ds.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await ds.runMigrations({ transaction: 'all' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
  return ds;
}

export const statementCounterProvider = { provide: StatementCounter, useValue: new StatementCounter() };

export const dataSourceProvider = {
  provide: DataSource,
  inject: [ServerConfig, StatementCounter, AppLogger],
  useFactory: (config: ServerConfig, counter: StatementCounter, logger: AppLogger) => {
    if (!config.databaseUrl) throw new Error('no database URL: set DATABASE_URL or start the embedded database');
    return openDataSource(config.databaseUrl, config.countStatements ? counter : undefined, logger, config.strictPoolChecks);
  },
};

/** Closes the pool after the HTTP server has finished its requests (Nest's last shutdown phase). */
@Injectable()
export class DataSourceCloser implements OnApplicationShutdown {
  constructor(private readonly ds: DataSource) {}
  async onApplicationShutdown(): Promise<void> {
    closing.add(this.ds);
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
