import cluster, { type Worker } from 'node:cluster';
import pg from 'pg';
import type { Logger } from 'pino';
import { ServerConfig } from '../shared/config/server-config.js';
import type { EmbeddedDatabase } from '../shared/persistence/embedded-postgres.js';
import { serveWorkersMetrics } from './metrics/cluster-metrics.js';
import { bannerLines, type BootSummary, onShutdownSignals, startEmbeddedDatabase } from './server-lifecycle.js';

/** What a worker tells the primary (over the cluster's IPC channel) once it listens. */
export interface WorkerMessage {
  type: 'svc:listening';
  boot: BootSummary;
}

/** Delay before restarting a worker that died for the `crashes`-th time in a row: 0.5 s, doubling, at most 30 s. */
export function restartDelayMs(crashes: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, crashes - 1));
}

/** A worker that served at least this long before it died starts its slot's back-off over. */
const STABLE_MS = 60_000;
/** Connections one server process opens besides its pool: the event listener's LISTEN connection. */
const CONNECTIONS_BESIDE_POOL = 1;

/** PostgreSQL connections WORKERS processes may hold at once. */
export function connectionsNeeded(config: ServerConfig): number {
  return config.workers * (config.dbPoolSize + CONNECTIONS_BESIDE_POOL);
}

interface Slot {
  worker: Worker | null;
  startedAt: number;
  listened: boolean;
  crashes: number;
  restart: NodeJS.Timeout | null;
}

/**
 * WORKERS > 1: this process serves no request. It starts the embedded PostgreSQL (without
 * DATABASE_URL), forks the first worker alone (it runs the migrations and the first-start
 * bootstrap), then the others, prints the banner once all listen, restarts a worker that dies
 * (with a back-off), and at SIGINT / SIGTERM forwards the signal, waits for every worker's
 * graceful shutdown and stops the embedded PostgreSQL last.
 */
class ClusterPrimary {
  private readonly slots: Slot[];
  private embedded: EmbeddedDatabase | null = null;
  private stopping = false;
  private ready = false;

  constructor(
    private readonly config: ServerConfig,
    private readonly logger: Logger,
  ) {
    this.slots = Array.from({ length: config.workers }, () => ({ worker: null, startedAt: 0, listened: false, crashes: 0, restart: null }));
  }

  async run(): Promise<void> {
    onShutdownSignals(this.logger, this.config.shutdownTimeoutMs + 5_000, (signal) => this.stop(signal), (signal) => {
      this.logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    });
    process.on('exit', () => this.killAll()); // however the primary ends, no worker outlives it
    if (this.config.metricsToken !== undefined) serveWorkersMetrics(); // GET /metrics on any worker: every worker's
    let boot: BootSummary;
    try {
      if (!this.config.databaseUrl) {
        const maxConnections = Math.max(100, connectionsNeeded(this.config) + 20);
        this.embedded = await startEmbeddedDatabase(this.config, this.logger, ['-c', `max_connections=${maxConnections}`]);
      } else {
        await this.checkConnectionBudget();
      }
      boot = await this.fork(0); // alone: the migrations and the bootstrap run once, in it
      await Promise.all(this.slots.slice(1).map((_, i) => this.fork(i + 1)));
    } catch (err) {
      if (this.stopping) return; // a signal came during start-up: stop() ends the process
      this.logger.error({ err }, 'start-up failed');
      this.stopping = true;
      await this.stopWorkers('SIGTERM');
      await this.embedded?.stop().catch(() => undefined);
      process.exit(1);
    }
    this.ready = true;
    console.log(bannerLines(this.config, boot).join('\n'));
  }

  /** Forks the worker of `slot`; resolves when it listens, rejects if it exits first. */
  private fork(slot: number): Promise<BootSummary> {
    const worker = cluster.fork({ DATABASE_URL: this.config.databaseUrl });
    const s = this.slots[slot];
    Object.assign(s, { worker, startedAt: Date.now(), listened: false });
    return new Promise((resolve, reject) => {
      worker.on('message', (m: WorkerMessage) => {
        if (m?.type !== 'svc:listening') return;
        s.listened = true;
        this.logger.info({ worker: slot + 1, pid: worker.process.pid }, 'worker listening');
        resolve(m.boot);
      });
      worker.on('exit', (code, signal) => {
        reject(new Error(`worker process ${worker.process.pid} exited (${signal ?? code}) before it listened`));
        this.exited(slot, worker, code, signal);
      });
    });
  }

  private exited(slot: number, worker: Worker, code: number | null, signal: string | null): void {
    const s = this.slots[slot];
    if (s.worker === worker) s.worker = null;
    if (this.stopping || (!this.ready && !s.listened)) return; // shutting down, or start-up fails
    const lived = Date.now() - s.startedAt;
    s.crashes = lived >= STABLE_MS ? 1 : s.crashes + 1;
    const delay = restartDelayMs(s.crashes);
    this.logger.error({ worker: slot + 1, pid: worker.process.pid, code, signal, restartInMs: delay }, 'worker process died: restarting it');
    s.restart = setTimeout(() => {
      s.restart = null;
      // A replacement that fails before it listens is restarted again, later (exited() above).
      if (!this.stopping) this.fork(slot).catch(() => undefined);
    }, delay);
  }

  private async stop(signal: NodeJS.Signals): Promise<number> {
    this.stopping = true;
    const code = await this.stopWorkers(signal);
    if (this.embedded) {
      await this.embedded.stop(); // last, once no worker uses it
      this.logger.info('embedded PostgreSQL stopped');
    }
    return code;
  }

  /** Sends `signal` to every worker (each shuts down gracefully) and waits for them: 0 when all exited 0. */
  private async stopWorkers(signal: NodeJS.Signals): Promise<number> {
    for (const s of this.slots) if (s.restart) clearTimeout(s.restart);
    const live = this.slots.map((s) => s.worker).filter((w): w is Worker => w !== null && !w.isDead());
    const codes = await Promise.all(
      live.map(
        (w) =>
          new Promise<number | null>((resolve) => {
            w.once('exit', (code) => resolve(code));
            w.process.kill(signal);
          }),
      ),
    );
    return codes.every((c) => c === 0) ? 0 : 1;
  }

  private killAll(): void {
    for (const s of this.slots) if (s.worker && !s.worker.isDead()) s.worker.process.kill('SIGKILL');
  }

  /** Warns when WORKERS pools would hold more connections than an external PostgreSQL allows. */
  private async checkConnectionBudget(): Promise<void> {
    const client = new pg.Client({ connectionString: this.config.databaseUrl, connectionTimeoutMillis: 5_000, application_name: 'svc-primary' });
    try {
      await client.connect();
      const { rows } = await client.query<{ available: number }>(
        `SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int AS available`,
      );
      const needed = connectionsNeeded(this.config);
      if (needed > rows[0].available) {
        this.logger.warn(
          { workers: this.config.workers, dbPoolSize: this.config.dbPoolSize, needed, available: rows[0].available },
          'WORKERS × (DB_POOL_SIZE + 1) exceeds the connections PostgreSQL allows: lower DB_POOL_SIZE or raise max_connections',
        );
      }
    } catch {
      // Unreachable now: the first worker reports it.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

export function runPrimary(config: ServerConfig, logger: Logger): Promise<void> {
  return new ClusterPrimary(config, logger).run();
}
