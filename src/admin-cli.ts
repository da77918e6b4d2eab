import 'reflect-metadata';
import { type DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { CommanderError } from 'commander';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { DomainError } from '@app/domain/shared';
import { AdminModule } from './admin/admin.module.js';
import { AdminService, OrganizationArchiveImport, OrganizationExport, OrganizationImport } from './admin/index.js';
import { OrganizationArchiver } from './exports/index.js';
import { adminProgram, type AdminServices } from './admin/cli/admin-program.js';
import { CliFailure } from './admin/cli/cli-io.js';
import { AppModule } from './app/app.module.js';
import { startEmbeddedDatabase } from './app/server-lifecycle.js';
import { ServerConfig } from './shared/config/server-config.js';
import { createLogger, PinoNestLogger } from './shared/logging/logger.js';
import type { EmbeddedDatabase } from './shared/persistence/embedded-postgres.js';
import { BootstrapService } from './users/index.js';

/**
 * `svc-admin` (bin/svc-admin.mjs): the admin command line. It runs the application without
 * HTTP (a Nest application context) on the server's database, so every command goes through
 * the same services, rules and transactions as the API; no background worker runs here.
 * Exit codes: 0 done, 1 refused or failed, 2 usage (unknown command or option, bad argument).
 */

@Module({})
class AdminCliModule {
  static register(config: ServerConfig, logger: Logger): DynamicModule {
    return { module: AdminCliModule, imports: [AppModule.register(config, logger), AdminModule] };
  }
}

/** The server's settings with the background workers off (the server's processes run them). */
function cliConfig(): ServerConfig {
  return ServerConfig.fromEnv({
    ...process.env,
    WORKERS: '1',
    EMAIL_POLL_INTERVAL_MS: '0',
    REMINDER_POLL_INTERVAL_MS: '0',
    PUSH_REGISTRATION_RETRY_INTERVAL_MS: '0',
    EXPORT_POLL_INTERVAL_MS: '0',
    DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '3',
  });
}

/** A running server's embedded PostgreSQL, if one answers on EMBEDDED_PG_PORT. */
async function runningEmbeddedUrl(config: ServerConfig): Promise<string | null> {
  const url = `postgres://postgres:postgres@127.0.0.1:${config.embeddedPgPort}/svc`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

class Session {
  private app: INestApplicationContext | null = null;
  private embedded: EmbeddedDatabase | null = null;
  private services: AdminServices | null = null;

  async open(): Promise<AdminServices> {
    if (this.services) return this.services;
    const config = cliConfig();
    const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', pino.destination(2));
    if (!config.databaseUrl) config.databaseUrl = (await runningEmbeddedUrl(config)) ?? undefined;
    if (!config.databaseUrl) this.embedded = await startEmbeddedDatabase(config, logger);
    this.app = await NestFactory.createApplicationContext(AdminCliModule.register(config, logger), { logger: new PinoNestLogger(logger) });
    const boot = this.app.get(BootstrapService).lastResult;
    if (boot?.created) {
      process.stderr.write(`Created the organization "${config.realmName}" with owner ${config.ownerEmail} (the database had none)\n`);
      if (boot.generatedPassword) process.stderr.write(`Owner password (shown only once): ${boot.generatedPassword}\n`);
    }
    this.services = {
      admin: this.app.get(AdminService),
      exporter: this.app.get(OrganizationExport),
      importer: this.app.get(OrganizationImport),
      archiveImporter: this.app.get(OrganizationArchiveImport),
      archiver: this.app.get(OrganizationArchiver),
    };
    return this.services;
  }

  async close(): Promise<void> {
    await this.app?.close().catch(() => undefined);
    await this.embedded?.stop().catch(() => undefined);
  }
}

/** What a failure prints (stderr; with --json also the Zulip-style error object on stdout) and its exit code. */
function failure(err: unknown, json: boolean): number {
  const known = err instanceof DomainError || err instanceof CliFailure;
  const msg = err instanceof Error ? err.message : String(err);
  if (json) {
    const code = err instanceof DomainError ? err.code : 'ERROR';
    process.stdout.write(`${JSON.stringify({ result: 'error', msg, code })}\n`);
  }
  process.stderr.write(known ? `svc-admin: ${msg}\n` : `svc-admin: ${err instanceof Error ? (err.stack ?? msg) : msg}\n`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const session = new Session();
  const program = adminProgram(() => session.open());
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0 ? 0 : 2;
    }
    return failure(err, argv.includes('--json'));
  } finally {
    await session.close();
  }
}

process.exitCode = await main(process.argv);
