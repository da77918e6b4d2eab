import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app/app.module.js';
import { configureApp } from './configure-app.js';
import { BootstrapService } from './users/application/bootstrap.service.js';
import { ServerConfig } from './shared/config/server-config.js';
import { closeConnectionsAfterAnswers } from './shared/http/closing-connections.js';
import { createLogger, PinoNestLogger } from './shared/logging/logger.js';
import {
  type EmbeddedDatabase,
  ensureDatabase,
  startEmbeddedPostgres,
} from './shared/persistence/embedded-postgres.js';

const EMBEDDED_DATABASE = 'svc';

async function main(): Promise<void> {
  const config = ServerConfig.fromEnv();
  const logger = createLogger(config.logLevel);
  let embedded: EmbeddedDatabase | null = null;
  let app: NestExpressApplication | null = null;
  let connections: { closing(): void } | null = null;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      connections?.closing(); // answers from now on end their keep-alive connections
      // Answer the waiting long-polls (heartbeats), stop accepting, finish running requests, close the pool.
      await app?.close();
      if (embedded) {
        await embedded.stop(); // last: it runs in a process group of its own, so Ctrl-C did not reach it
        logger.info('embedded PostgreSQL stopped');
      }
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    if (!config.databaseUrl) {
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.embeddedPgPort,
        log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m) },
      });
      await ensureDatabase(embedded.adminUrl, EMBEDDED_DATABASE);
      config.databaseUrl = embedded.urlFor(EMBEDDED_DATABASE);
      logger.info({ dataDir: config.dataDir, port: config.embeddedPgPort }, 'embedded PostgreSQL started');
    }
    app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, logger), {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
    });
    configureApp(app);
    connections = closeConnectionsAfterAnswers(app.getHttpServer());
    await app.listen(config.port, config.host);
  } catch (err) {
    logger.error({ err }, 'start-up failed');
    await app?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }

  const boot = app.get(BootstrapService).lastResult!;
  const lines = [`Server listening on http://${config.host}:${config.port}`, `Organization URL: ${config.externalUrl}`];
  lines.push(
    config.emailConfigured
      ? `Email: delivered over SMTP from ${config.emailFrom}`
      : 'Email: not configured (SMTP_URL unset): emails stay in the email_outbox table',
  );
  if (boot.created) {
    lines.push(`Created the organization "${config.realmName}" with owner ${config.ownerEmail}`);
    if (boot.generatedPassword) lines.push(`Owner password (shown only once): ${boot.generatedPassword}`);
  }
  console.log(lines.join('\n'));
}

void main();
