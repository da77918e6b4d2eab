import 'reflect-metadata';
import cluster from 'node:cluster';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppModule } from './app/app.module.js';
import { runPrimary, type WorkerMessage } from './app/cluster-primary.js';
import { bannerLines, type BootSummary, onShutdownSignals, startEmbeddedDatabase } from './app/server-lifecycle.js';
import { configureApp } from './configure-app.js';
import { BootstrapService } from './users/application/bootstrap.service.js';
import { ServerConfig } from './shared/config/server-config.js';
import { closeConnectionsAfterAnswers } from './shared/http/closing-connections.js';
import { createLogger, PinoNestLogger } from './shared/logging/logger.js';
import type { EmbeddedDatabase } from './shared/persistence/embedded-postgres.js';

/** A listening Nest app and its way to end keep-alive connections at shutdown. */
interface Serving {
  app: NestExpressApplication;
  connections: { closing(): void };
  boot: BootSummary;
}

/** The Nest app on `config.databaseUrl` (migrations, first-start bootstrap), listening. */
async function listen(config: ServerConfig, logger: Logger): Promise<Serving> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, logger), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  try {
    configureApp(app);
    const connections = closeConnectionsAfterAnswers(app.getHttpServer());
    await app.listen(config.port, config.host);
    const { created, generatedPassword } = app.get(BootstrapService).lastResult!;
    return { app, connections, boot: { created, generatedPassword } };
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}

/** Answers the waiting long-polls (heartbeats), stops accepting, finishes running requests, closes the pool. */
async function close(serving: Serving | null): Promise<void> {
  serving?.connections.closing(); // answers from now on end their keep-alive connections
  await serving?.app.close();
}

/** WORKERS=1: this process is the server (and starts the embedded PostgreSQL without DATABASE_URL). */
async function serveAlone(config: ServerConfig, logger: Logger): Promise<void> {
  let embedded: EmbeddedDatabase | null = null;
  let serving: Serving | null = null;
  onShutdownSignals(
    logger,
    config.shutdownTimeoutMs,
    async () => {
      await close(serving);
      if (embedded) {
        await embedded.stop(); // last: it runs in a process group of its own, so Ctrl-C did not reach it
        logger.info('embedded PostgreSQL stopped');
      }
      return 0;
    },
    (signal) => {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    },
  );
  try {
    if (!config.databaseUrl) embedded = await startEmbeddedDatabase(config, logger);
    serving = await listen(config, logger);
  } catch (err) {
    logger.error({ err }, 'start-up failed');
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }
  console.log(bannerLines(config, serving.boot).join('\n'));
}

/**
 * One of WORKERS processes (node:cluster): the primary gave it DATABASE_URL and prints the
 * banner; this process tells it when it listens. A repeated signal is ignored: Ctrl-C reaches
 * the whole process group and the primary forwards it too (the primary handles a second Ctrl-C).
 */
async function serveAsWorker(config: ServerConfig, logger: Logger): Promise<void> {
  let serving: Serving | null = null;
  onShutdownSignals(logger, config.shutdownTimeoutMs, async () => {
    await close(serving);
    return 0;
  });
  try {
    if (!config.databaseUrl) throw new Error('a worker process needs DATABASE_URL from the primary');
    serving = await listen(config, logger);
  } catch (err) {
    logger.error({ err, pid: process.pid }, 'start-up failed');
    process.exit(1);
  }
  const message: WorkerMessage = { type: 'svc:listening', boot: serving.boot };
  process.send!(message);
}

async function main(): Promise<void> {
  let config: ServerConfig;
  let logger: Logger;
  try {
    config = ServerConfig.fromEnv();
    logger = createLogger(config.logLevel);
  } catch (err) {
    console.error(`start-up failed: ${(err as Error).message}`);
    process.exit(1);
  }
  if (cluster.isWorker) return serveAsWorker(config, logger);
  if (config.workers > 1) return runPrimary(config, logger);
  return serveAlone(config, logger);
}

void main();
