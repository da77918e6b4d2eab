import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { type Cancel, Scheduler } from '../../shared/application/scheduler.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { EVENTS_CHANNEL } from '../../shared/persistence/event-journal.js';
import { JournalSignal } from '../../shared/persistence/journal-signal.js';
import { BACKGROUND_SQL } from '../../shared/persistence/statement-counter.js';
import { SETTINGS_CHANGED_CHANNEL, SettingsInvalidation } from '../../shared/application/settings-invalidation.js';
import { EventQueues } from '../application/event-queues.js';
import { QueueStore } from '../application/queue-store.js';
import { WINDOW_LIMITS } from '../application/journal-window.js';
import { Clock } from '../../shared/application/clock.js';

const CATCH_UP_MS = 2_000;
const PRUNE_MS = 5 * 60_000;
/** How the LISTEN connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'svc-event-listener';
const RECONNECT_BASE_MS = 250;
const RECONNECT_MAX_MS = 30_000;
/** Re-read delays while committed events wait behind an older transaction still running. */
export const HELD_BACK_RETRY_FIRST_MS = 5;
export const HELD_BACK_RETRY_MAX_MS = 100;
/** Passes skipped for longer than the window keeps rows: the next one starts the window anew instead of reading them. */
const SKIP_LIMIT_MS = WINDOW_LIMITS.maxAgeMs;

/**
 * The rows of one pass: X (the oldest running transaction, xid8 as text) and whether the journal
 * holds rows at or above it on every row; then the journal rows in [B, X), or one row with `xid`
 * and `payload` null when there are none (or no B yet).
 */
interface PassRow {
  x: string;
  held: boolean;
  xid: string | null;
  payload: ClientEvent | null;
}

/**
 * How long the `attempt`-th reconnection in a row waits: exponential backoff from 250 ms up to
 * 30 s, with "equal jitter" (between half and all of it, by `random` in [0, 1)) so that the
 * processes of a cluster do not all knock at once when the database comes back.
 */
export function reconnectDelayMs(attempt: number, random: number): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(Math.max(attempt, 1) - 1, 16));
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

/**
 * Feeds this process's queues from the event journal, in (xid, id) order: the order of the
 * writing transactions' ids, then of the rows each wrote. NOTIFY only says "read the journal".
 *
 * A pass reads, in one statement, X = the oldest transaction id still running anywhere in the
 * cluster (`pg_snapshot_xmin(pg_current_snapshot())`) and the rows with B <= xid < X, B being
 * where the previous pass stopped. Every transaction below X has ended, so that set of rows is
 * final: each pass delivers it, in order, then B = X. No row is read twice or skipped, and
 * every process delivers the same events in the same order, with no lock among the writers.
 * A row committed at or above X waits for the older transactions to end; as one of them may
 * write no event and so never NOTIFY, the pass is then repeated after a short, growing delay
 * (Scheduler). Passes never overlap; requests during a pass are merged into one more pass.
 * Passes run at each commit only while a poll waits on this process; otherwise the journal is
 * left alone and the next poll runs the pass first (after more than the window's age, one that
 * only moves B, the queues reading what they miss from the database).
 *
 * There is one LISTEN connection at a time, for the journal and for changed organization
 * settings (SettingsInvalidation). When it drops (PostgreSQL reports a killed backend twice:
 * its error message, then the closed socket), one reconnection is scheduled, after a jittered
 * delay that grows with each failed attempt; once listening again, a pass reads from B, so
 * events committed meanwhile arrive once, and every cached setting is dropped.
 */
@Injectable()
export class PgEventListener implements OnModuleInit, OnApplicationShutdown {
  /** The listening connection; null while disconnected. */
  private client: pg.Client | null = null;
  /** Connections already given up (each is mourned once, however many errors it reports). */
  private readonly dead = new WeakSet<pg.Client>();
  /** Failed connection attempts since the last success. */
  private attempt = 0;
  /** Whether a connection ever listened (a later one may have missed notifications). */
  private listenedBefore = false;
  private cancelReconnect: Cancel | null = null;
  /** B: every event of a transaction below it has been delivered (xid8 text); null before the first pass or queue. */
  private boundary: string | null = null;
  /** The running pass (and those requested meanwhile). */
  private passing: Promise<void> | null = null;
  private passAgain = false;
  /** Passes were skipped (no poll waited): the window is behind the journal. */
  private stale = false;
  private lastPassAt = 0;
  private cancelRetry: Cancel | null = null;
  private retryMs = HELD_BACK_RETRY_FIRST_MS;
  private cancelTimers: Cancel[] = [];
  private stopped = false;

  constructor(
    private readonly config: ServerConfig,
    private readonly ds: DataSource,
    private readonly queues: EventQueues,
    private readonly logger: AppLogger,
    private readonly scheduler: Scheduler,
    private readonly settings: SettingsInvalidation,
    private readonly journal: JournalSignal,
    private readonly store: QueueStore,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    // This process's own commits start a pass at once; other processes' arrive by NOTIFY.
    this.journal.onCommitted(() => void this.catchUp());
    this.queues.attach({ ready: () => this.ready(), refresh: () => this.requestPass(), waiting: () => void (this.stale ? this.requestPass() : undefined) });
    await this.connect();
    this.cancelTimers = [this.scheduler.every(CATCH_UP_MS, () => void this.catchUp()), this.scheduler.every(PRUNE_MS, () => void this.prune())];
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const cancel of this.cancelTimers) cancel();
    this.cancelReconnect?.();
    this.cancelRetry?.();
    await this.passing;
    const client = this.client;
    this.client = null;
    if (client) {
      this.dead.add(client);
      await client.end().catch(() => undefined);
    }
  }

  /** One connection attempt; on failure, the next one is scheduled. */
  private async connect(): Promise<void> {
    this.cancelReconnect = null;
    const client = new pg.Client({ connectionString: this.config.databaseUrl, application_name: LISTENER_APPLICATION_NAME });
    // The handlers stay for the client's whole life: an 'error' without a listener would crash the process.
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => {
      if (client !== this.client) return;
      if (n.channel === SETTINGS_CHANGED_CHANNEL) this.settings.changed(Number(n.payload));
      else void this.catchUp();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${SETTINGS_CHANGED_CHANNEL}`);
      if (this.dead.has(client)) throw new Error('connection lost while subscribing');
    } catch (err) {
      this.discard(client);
      if (this.stopped) return;
      this.logger.warn({ err, attempt: this.attempt + 1 }, 'event listener could not connect; retrying');
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      this.discard(client);
      return;
    }
    this.client = client;
    if (this.attempt > 0) this.logger.info({ attempts: this.attempt }, 'event listener reconnected');
    // Settings changed while nobody listened (or, before a first connection, since the cache filled) are unknown.
    if (this.listenedBefore || this.attempt > 0) this.settings.all();
    this.listenedBefore = true;
    this.attempt = 0;
    // Whatever was committed while nobody listened is in the journal past B.
    void this.catchUp();
  }

  /** The listening connection reported an error or closed: drop it and reconnect, once. */
  private lost(client: pg.Client, err?: Error): void {
    if (this.dead.has(client)) return;
    this.discard(client);
    if (client !== this.client) return; // still connecting: connect() sees it and schedules the retry
    this.client = null;
    if (this.stopped) return;
    this.logger.warn({ err }, 'event listener connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private discard(client: pg.Client): void {
    this.dead.add(client);
    client.end().catch(() => undefined);
  }

  private scheduleReconnect(): void {
    if (this.cancelReconnect !== null) return;
    this.attempt += 1;
    this.cancelReconnect = this.scheduler.after(reconnectDelayMs(this.attempt, this.scheduler.random()), () => void this.connect());
  }

  /**
   * The journal grew (or may have): asks for a pass, resolving when it (and any asked for
   * meanwhile) has run. With no poll waiting on this process nobody needs the rows now: the
   * pass is left for the next poll (ready()), so a process without waiting polls spends nothing
   * per commit of any process.
   */
  catchUp(): Promise<void> {
    if (!this.queues.hasWaiters && this.boundary !== null) {
      this.stale = true;
      return this.passing ?? Promise.resolve();
    }
    return this.requestPass();
  }

  /** Before a poll reads the window: the pass skipped while no poll waited, if any. */
  ready(): Promise<void> {
    return this.stale || this.boundary === null ? this.requestPass() : (this.passing ?? Promise.resolve());
  }

  private requestPass(): Promise<void> {
    this.passAgain = true;
    if (this.passing === null && !this.stopped) this.passing = this.runPasses();
    return this.passing ?? Promise.resolve();
  }

  private async runPasses(): Promise<void> {
    try {
      while (this.passAgain && !this.stopped) {
        this.passAgain = false;
        await this.pass().catch((err) => this.logger.warn({ err }, 'event delivery pass failed'));
      }
    } finally {
      this.passing = null; // in the same turn as the last check of passAgain: no request is lost
    }
  }

  /**
   * One pass: reads the rows of the transactions from B up to the oldest one running (the first
   * pass only sets B), hands them to the queues' window and wakes the polls they concern.
   */
  private async pass(): Promise<void> {
    this.stale = false; // what is committed from now on asks for another pass
    const now = this.clock.now().getTime();
    // After a long skip the rows since B would fall out of the window at once: start it anew at X
    // (the queues read what they miss from the database).
    const from = this.boundary !== null && now - this.lastPassAt > SKIP_LIMIT_MS ? null : this.boundary;
    this.lastPassAt = now;
    const rows: PassRow[] = await this.ds.query(
      // X computed once (a materialized CTE, read through subqueries) and "held" as the newest
      // visible xid (one backward step on the (xid, id) index): written inline, the planner
      // evaluated pg_current_snapshot() per row and scanned the whole journal on every pass.
      `${BACKGROUND_SQL}WITH s AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS x)
       SELECT (SELECT x FROM s)::text AS x, coalesce((SELECT max(xid) FROM events) >= (SELECT x FROM s), false) AS held,
         e.xid::text AS xid, e.payload
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (SELECT xid, id, payload FROM events WHERE $1::xid8 IS NOT NULL AND xid >= $1::xid8 AND xid < (SELECT x FROM s)) AS e ON true
       ORDER BY e.xid, e.id`,
      [from],
    );
    const x = rows[0].x;
    const read = rows.filter((r) => r.xid !== null).map((r) => ({ xid: Number(r.xid), event: r.payload! }));
    this.queues.window.append(Number(from ?? x), Number(x), read, now);
    this.boundary = x;
    try {
      this.queues.received(read);
    } catch (err) {
      this.logger.warn({ err }, 'waking event polls failed');
    }
    if (rows[0].held) this.retryHeldBack();
    else this.retryMs = HELD_BACK_RETRY_FIRST_MS;
  }

  /** Committed events wait behind an older running transaction: read again soon, whether or not it notifies. */
  private retryHeldBack(): void {
    if (this.cancelRetry !== null || this.stopped) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, HELD_BACK_RETRY_MAX_MS);
    this.cancelRetry = this.scheduler.after(delay, () => {
      this.cancelRetry = null;
      void this.catchUp();
    });
  }

  /** Drops the journal rows no queue needs any more (one process at a time). */
  private async prune(): Promise<void> {
    await this.store.pruneJournal().catch((err) => this.logger.warn({ err }, 'event journal prune failed'));
  }
}
