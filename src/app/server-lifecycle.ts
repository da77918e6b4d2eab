import type { Logger } from 'pino';
import { ServerConfig } from '../shared/config/server-config.js';
import { type EmbeddedDatabase, ensureDatabase, startEmbeddedPostgres } from '../shared/persistence/embedded-postgres.js';

/** What the first start's bootstrap did, as the banner tells it. */
export interface BootSummary {
  created: boolean;
  generatedPassword?: string;
}

const EMBEDDED_DATABASE = 'svc';

/** Starts the embedded PostgreSQL (no DATABASE_URL) and points `config.databaseUrl` at its database. */
export async function startEmbeddedDatabase(config: ServerConfig, logger: Logger, extraFlags: string[] = []): Promise<EmbeddedDatabase> {
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m) },
    extraFlags,
  });
  try {
    await ensureDatabase(embedded.adminUrl, EMBEDDED_DATABASE);
  } catch (err) {
    await embedded.stop().catch(() => undefined);
    throw err;
  }
  config.databaseUrl = embedded.urlFor(EMBEDDED_DATABASE);
  logger.info({ dataDir: config.dataDir, port: config.embeddedPgPort }, 'embedded PostgreSQL started');
  return embedded;
}

/** The start-up banner (printed once, when the server listens; the process tests wait for its first line). */
export function bannerLines(config: ServerConfig, boot: BootSummary): string[] {
  const lines = [`Server listening on http://${config.host}:${config.port}`, `Organization URL: ${config.externalUrl}`];
  lines.push(
    config.emailConfigured
      ? `Email: delivered over SMTP from ${config.emailFrom}`
      : 'Email: not configured (SMTP_URL unset): emails stay in the email_outbox table',
  );
  if (config.workers > 1) lines.push(`Worker processes: ${config.workers}`);
  if (boot.created) {
    lines.push(`Created the organization "${config.realmName}" with owner ${config.ownerEmail}`);
    if (boot.generatedPassword) lines.push(`Owner password (shown only once): ${boot.generatedPassword}`);
  }
  return lines;
}

/**
 * SIGINT / SIGTERM: `stop` runs once and its result is the exit code; if it has not finished
 * after `timeoutMs` the process exits 1. A repeated signal calls `onRepeat` (none: ignored).
 */
export function onShutdownSignals(
  logger: Logger,
  timeoutMs: number,
  stop: (signal: NodeJS.Signals) => Promise<number>,
  onRepeat?: (signal: NodeJS.Signals) => void,
): void {
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return onRepeat?.(signal);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    try {
      process.exit(await stop(signal));
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', (s) => void shutdown(s));
  process.on('SIGTERM', (s) => void shutdown(s));
}
