import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { runPrimary, type WorkerMessage } from './app/cluster-primary.js';
import type { Serving } from './app/http-server.js';
import { bannerLines, onShutdownSignals, startEmbeddedDatabase } from './app/server-lifecycle.js';
import { ServerConfig } from './shared/config/server-config.js';
import { createLogger } from './shared/logging/logger.js';
import type { EmbeddedDatabase } from './shared/persistence/embedded-postgres.js';
import { assertWritable, writableDirs } from './shared/persistence/writable-dirs.js';

/** The application, loaded only where requests are served (a cluster's primary never loads it). */
const httpServer = () => import('./app/http-server.js');

async function listen(config: ServerConfig, logger: Logger): Promise<Serving> {
  return (await httpServer()).listen(config, logger);
}

async function close(serving: Serving | null): Promise<void> {
  if (serving) await (await httpServer()).close(serving);
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
  try {
    // Before anything starts: an unwritable data or uploads directory is an operator's mistake to name now.
    await assertWritable(writableDirs(config));
  } catch (err) {
    console.error(`start-up failed: ${(err as Error).message}`);
    process.exit(1);
  }
  if (config.workers > 1) return runPrimary(config, logger);
  return serveAlone(config, logger);
}

void main();
