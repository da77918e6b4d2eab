import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { BACKGROUND_SQL } from '../../shared/persistence/statement-counter.js';
import type { JournalRow, QueuedEvent, QueueOptions, QueueRecord } from '../application/queue-record.js';
import { timeoutSecs } from '../application/queue-record.js';
import { type Checkpoint, type CreatedQueue, QueueStore } from '../application/queue-store.js';

/** Advisory-lock keys (first of two int4 keys): one user's queue creations; the journal prune. */
const USER_QUEUES_LOCK = 0x5eb1;
const PRUNE_LOCK = 0x5eb2;

const RECORD_COLUMNS = `id, user_id, realm_id, options, snapshot, boundary::text AS boundary, next_event_id, newest_discarded, pending, version`;

/** A row of `event_queues` as RECORD_COLUMNS reads it (boundary, an xid8, as text). */
interface QueueRow {
  id: string;
  user_id: number;
  realm_id: number;
  options: QueueOptions;
  snapshot: string | null;
  boundary: string;
  next_event_id: number;
  newest_discarded: number;
  pending: QueuedEvent[];
  version: number;
}

/** `create`'s one row: the new queue and the ids of the user's queues it evicted. */
interface CreatedQueueRow extends QueueRow {
  evicted: string[];
}

/** The id of a queue written, expired or deleted. */
interface QueueIdRow {
  id: string;
}

/** A journal row, its transaction id (xid8) as text. */
interface JournalEventRow {
  xid: string;
  payload: ClientEvent;
}

interface PruneLockRow {
  locked: boolean;
}

/** What TypeORM answers an UPDATE or DELETE with: the rows it returned (none without RETURNING) and how many it touched. */
type Modified<R> = [R[], number];

const toRecord = (r: QueueRow): QueueRecord => ({
  id: r.id,
  userId: r.user_id,
  realmId: r.realm_id,
  options: r.options,
  snapshot: r.snapshot,
  boundary: Number(r.boundary),
  nextEventId: r.next_event_id,
  newestDiscarded: r.newest_discarded,
  pending: r.pending,
  version: r.version,
});

/**
 * Event queues in the `event_queues` table. (TypeORM answers UPDATE and DELETE, with or without
 * RETURNING, as [rows, count].) Transaction ids (xid8) travel as text and are kept
 * as numbers (journal-snapshot.ts). Every statement here is one round trip outside any unit of
 * work, except creation (cap and insert under the user's lock) and the prune.
 */
@Injectable()
export class PgQueueStore extends QueueStore {
  constructor(private readonly ds: DataSource) {
    super();
  }

  create(id: string, userId: number, realmId: number, options: QueueOptions, nowMs: number, cap: number): Promise<CreatedQueue> {
    return this.ds.transaction(async (em) => {
      // Concurrent registrations of one user, on any process, count each other.
      await em.query(`SELECT pg_advisory_xact_lock($1, $2)`, [USER_QUEUES_LOCK, userId]);
      // The user's least recently polled queues beyond the cap go, and the new one comes, in one
      // statement. Its snapshot is taken by this statement, after its lock on the table: a journal
      // prune (which locks the table in SHARE mode) has either seen this queue or ended before.
      const [row]: CreatedQueueRow[] = await em.query(
        `WITH evicted AS (
           DELETE FROM event_queues WHERE id IN (
             SELECT id FROM event_queues WHERE user_id = $2 ORDER BY last_polled DESC, created DESC OFFSET $7)
           RETURNING id),
         created AS (
           INSERT INTO event_queues (id, user_id, realm_id, options, snapshot, boundary, timeout_secs, last_polled)
           SELECT $1, $2, $3, $4::jsonb, s::text, pg_snapshot_xmin(s), $5, $6 FROM pg_current_snapshot() AS s
           RETURNING ${RECORD_COLUMNS})
         SELECT created.*, ARRAY(SELECT id FROM evicted) AS evicted FROM created`,
        [id, userId, realmId, JSON.stringify(options), timeoutSecs(options), new Date(nowMs), cap - 1],
      );
      return { record: toRecord(row), evicted: row.evicted };
    });
  }

  async poll(id: string, userId: number, nowMs: number): Promise<QueueRecord | null> {
    const [rows]: Modified<QueueRow> = await this.ds.query(
      `UPDATE event_queues SET last_polled = $3 WHERE id = $1 AND user_id = $2 RETURNING ${RECORD_COLUMNS}`,
      [id, userId, new Date(nowMs)],
    );
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  async save(q: QueueRecord): Promise<boolean> {
    const [, count]: Modified<never> = await this.ds.query(
      `UPDATE event_queues SET snapshot = $2, boundary = $3::xid8, next_event_id = $4, newest_discarded = $5, pending = $6::jsonb, version = version + 1
       WHERE id = $1 AND version = $7`,
      [q.id, q.snapshot, String(q.boundary), q.nextEventId, q.newestDiscarded, JSON.stringify(q.pending), q.version],
    );
    if (count === 0) return false;
    q.version += 1;
    return true;
  }

  async checkpoint(queues: readonly Checkpoint[]): Promise<Set<string>> {
    if (queues.length === 0) return new Set();
    const rows = queues.map((c) => ({
      id: c.id,
      version: c.version,
      snapshot: c.snapshot,
      boundary: String(c.boundary),
      next_event_id: c.nextEventId,
      newest_discarded: c.newestDiscarded,
      pending: c.pending,
      last_polled: new Date(c.polledAtMs).toISOString(),
    }));
    const [written]: Modified<QueueIdRow> = await this.ds.query(
      `${BACKGROUND_SQL}UPDATE event_queues AS q
       SET snapshot = v.snapshot, boundary = v.boundary::xid8, next_event_id = v.next_event_id, newest_discarded = v.newest_discarded,
           pending = v.pending, last_polled = greatest(q.last_polled, v.last_polled), version = q.version + 1
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, version integer, snapshot text, boundary text, next_event_id integer,
                                               newest_discarded integer, pending jsonb, last_polled timestamptz)
       WHERE q.id = v.id AND q.version = v.version
       RETURNING q.id`,
      [JSON.stringify(rows)],
    );
    return new Set(written.map((r) => r.id));
  }

  async delete(id: string, userId: number): Promise<boolean> {
    const [, count]: Modified<never> = await this.ds.query(`DELETE FROM event_queues WHERE id = $1 AND user_id = $2`, [id, userId]);
    return count > 0;
  }

  async expire(waiting: readonly string[], nowMs: number): Promise<string[]> {
    // One statement: the touched rows are left out explicitly (the DELETE does not see the CTE's update).
    const [rows]: Modified<QueueIdRow> = await this.ds.query(
      `${BACKGROUND_SQL}WITH touched AS (UPDATE event_queues SET last_polled = $2 WHERE id = ANY($1::text[]) RETURNING id)
       DELETE FROM event_queues WHERE last_polled <= $2::timestamptz - make_interval(secs => timeout_secs) AND id NOT IN (SELECT id FROM touched)
       RETURNING id`,
      [waiting, new Date(nowMs)],
    );
    return rows.map((r) => r.id);
  }

  async journal(realmId: number, from: number, to: number): Promise<JournalRow[]> {
    const rows: JournalEventRow[] = await this.ds.query(
      `SELECT xid::text AS xid, payload FROM events WHERE realm_id = $1 AND xid >= $2::xid8 AND xid < $3::xid8 ORDER BY xid, id`,
      [realmId, String(from), String(to)],
    );
    return rows.map((r) => ({ xid: Number(r.xid), event: r.payload }));
  }

  /**
   * Deletes the journal rows below every queue's boundary (and below the oldest running
   * transaction), on one process at a time. The SHARE lock waits for queue creations in progress
   * and holds new ones back until COMMIT, so none starts from a boundary below what is deleted.
   */
  pruneJournal(): Promise<number> {
    return this.ds.transaction(async (em) => {
      const [{ locked }]: PruneLockRow[] = await em.query(`${BACKGROUND_SQL}SELECT pg_try_advisory_xact_lock($1, 0) AS locked`, [PRUNE_LOCK]);
      if (!locked) return 0;
      await em.query(`${BACKGROUND_SQL}LOCK TABLE event_queues IN SHARE MODE`);
      const [, count]: Modified<never> = await em.query(
        `${BACKGROUND_SQL}DELETE FROM events WHERE xid < least((SELECT min(boundary) FROM event_queues), pg_snapshot_xmin(pg_current_snapshot()))`,
      );
      return count;
    });
  }
}
