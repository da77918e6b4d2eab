import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { type Cancel, Scheduler } from '../../shared/application/scheduler.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { EVENTS_CHANNEL } from '../../shared/persistence/event-journal.js';
import { BACKGROUND_SQL } from '../../shared/persistence/statement-counter.js';
import { EventJournalCursor } from '../application/event-journal-cursor.js';
import { EventQueues } from '../application/event-queues.js';

const CATCH_UP_MS = 2_000;
const PRUNE_MS = 5 * 60_000;
const RETENTION_MINUTES = 60;
/** How the LISTEN connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'svc-event-listener';
const RECONNECT_BASE_MS = 250;
const RECONNECT_MAX_MS = 30_000;

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
 * Feeds this process's queues from the event journal: LISTEN carries only the organization id;
 * the rows are read past a per-organization cursor, so a missed or delayed notification (a
 * reconnect, another process) loses nothing and changes no order. A slow timer catches up too.
 *
 * There is one LISTEN connection at a time. When it drops (PostgreSQL reports a killed backend
 * twice: its error message, then the closed socket), one reconnection is scheduled, after a
 * jittered delay that grows with each failed attempt; once listening again, every organization
 * with queues here catches up from its cursor, so events committed meanwhile arrive once.
 */
@Injectable()
export class PgEventListener extends EventJournalCursor implements OnModuleInit, OnApplicationShutdown {
  /** The listening connection; null while disconnected. */
  private client: pg.Client | null = null;
  /** Connections already given up (each is mourned once, however many errors it reports). */
  private readonly dead = new WeakSet<pg.Client>();
  /** Failed connection attempts since the last success. */
  private attempt = 0;
  private cancelReconnect: Cancel | null = null;
  private readonly cursors = new Map<number, number>();
  private readonly running = new Map<number, Promise<void>>();
  private cancelTimers: Cancel[] = [];
  private stopped = false;

  constructor(
    private readonly config: ServerConfig,
    private readonly ds: DataSource,
    private readonly queues: EventQueues,
    private readonly logger: AppLogger,
    private readonly scheduler: Scheduler,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
    this.cancelTimers = [
      this.scheduler.every(CATCH_UP_MS, () => this.queues.realms().forEach((r) => void this.catchUp(r))),
      this.scheduler.every(PRUNE_MS, () => void this.prune()),
    ];
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const cancel of this.cancelTimers) cancel();
    this.cancelReconnect?.();
    await Promise.all(this.running.values());
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
      if (client === this.client) void this.catchUp(Number(n.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
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
    this.attempt = 0;
    // Whatever was committed while nobody listened is in the journal past each cursor.
    for (const realm of this.queues.realms()) void this.catchUp(realm);
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
   * Called by POST /register after creating a queue and before reading the initial state:
   * the organization's newest sequence number, which starts the cursor if none exists yet.
   */
  async snapshotSeq(realmId: number): Promise<number> {
    const [row] = await this.ds.query(`SELECT coalesce(max(seq), 0)::bigint AS seq FROM events WHERE realm_id = $1`, [realmId]);
    const seq = Number(row.seq);
    if (!this.cursors.has(realmId)) this.cursors.set(realmId, seq);
    return seq;
  }

  /** Reads and delivers the organization's new events, one pass at a time per organization. */
  catchUp(realmId: number): Promise<void> {
    if (!this.queues.hasRealm(realmId) || !this.cursors.has(realmId)) return Promise.resolve();
    const previous = this.running.get(realmId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const rows: { seq: string; payload: ClientEvent }[] = await this.ds.query(
        `${BACKGROUND_SQL}SELECT seq, payload FROM events WHERE realm_id = $1 AND seq > $2 ORDER BY seq`,
        [realmId, this.cursors.get(realmId)],
      );
      for (const r of rows) {
        this.queues.deliver(Number(r.seq), r.payload);
        this.cursors.set(realmId, Number(r.seq));
      }
    });
    const settled = next.catch((err) => this.logger.warn({ err, realmId }, 'event delivery pass failed'));
    this.running.set(realmId, settled);
    return settled;
  }

  /**
   * Drops journal rows older than any queue needs, except each organization's newest: the next
   * event is numbered after it, so cursors of every process stay valid (numbering restarting at 1
   * would hide the organization's next events from them).
   */
  private async prune(): Promise<void> {
    await this.ds
      .query(
        `${BACKGROUND_SQL}DELETE FROM events e WHERE e.created < now() - make_interval(mins => $1)
           AND e.seq < (SELECT max(n.seq) FROM events n WHERE n.realm_id = e.realm_id)`,
        [RETENTION_MINUTES],
      )
      .catch((err) => this.logger.warn({ err }, 'event journal prune failed'));
  }
}
