import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { EVENTS_CHANNEL } from '../../shared/persistence/event-journal.js';
import { BACKGROUND_SQL } from '../../shared/persistence/statement-counter.js';
import { EventJournalCursor } from '../application/event-journal-cursor.js';
import { EventQueues } from '../application/event-queues.js';

const CATCH_UP_MS = 2_000;
const RETENTION_MINUTES = 60;
/** How the LISTEN connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'svc-event-listener';

/**
 * Feeds this process's queues from the event journal: LISTEN carries only the organization id;
 * the rows are read past a per-organization cursor, so a missed or delayed notification (a
 * reconnect, another process) loses nothing and changes no order. A slow timer catches up too.
 */
@Injectable()
export class PgEventListener extends EventJournalCursor implements OnModuleInit, OnApplicationShutdown {
  private client: pg.Client | null = null;
  private readonly cursors = new Map<number, number>();
  private readonly running = new Map<number, Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(
    private readonly config: ServerConfig,
    private readonly ds: DataSource,
    private readonly queues: EventQueues,
    private readonly logger: AppLogger,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
    this.timers.push(setInterval(() => this.queues.realms().forEach((r) => void this.catchUp(r)), CATCH_UP_MS));
    this.timers.push(setInterval(() => void this.prune(), 5 * 60_000));
    for (const t of this.timers) t.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.all(this.running.values());
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.config.databaseUrl, application_name: LISTENER_APPLICATION_NAME });
    client.on('notification', (n) => void this.catchUp(Number(n.payload)));
    client.on('error', (err) => {
      this.logger.warn({ err }, 'event listener connection lost; reconnecting');
      this.client = null;
      if (!this.stopped) setTimeout(() => void this.connect().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.client = client;
    for (const realm of this.queues.realms()) void this.catchUp(realm);
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

  private async prune(): Promise<void> {
    await this.ds
      .query(`${BACKGROUND_SQL}DELETE FROM events WHERE created < now() - make_interval(mins => $1)`, [RETENTION_MINUTES])
      .catch(() => undefined);
  }
}
