import type { JournalRow, QueuedEvent, QueueOptions, QueueRecord } from './queue-record.js';

/** A new queue, created with the database's current snapshot (journal-snapshot.ts). */
export interface CreatedQueue {
  readonly record: QueueRecord;
  /** Queues of the same user dropped to stay within the per-user cap. */
  readonly evicted: readonly string[];
}

/** A queue's state as a process holding it writes it back, with when it was last polled there. */
export interface Checkpoint {
  readonly id: string;
  readonly version: number;
  readonly snapshot: string | null;
  readonly boundary: number;
  readonly nextEventId: number;
  readonly newestDiscarded: number;
  readonly pending: readonly QueuedEvent[];
  readonly polledAtMs: number;
}

/**
 * Where event queues live: in PostgreSQL, so that any server process answers any queue and queues
 * survive restarts. `nowMs` comes from the application's clock (the last poll time decides expiry).
 */
export abstract class QueueStore {
  /**
   * Creates a queue whose boundary is the oldest transaction still running, and whose snapshot
   * tells which later transactions the client's state (read next) already holds; drops the user's
   * least recently polled queues beyond `cap`.
   */
  abstract create(id: string, userId: number, realmId: number, options: QueueOptions, nowMs: number, cap: number): Promise<CreatedQueue>;

  /** The user's queue, marked as polled now; null when it does not exist (or is another user's). */
  abstract poll(id: string, userId: number, nowMs: number): Promise<QueueRecord | null>;

  /** Writes the events part if nobody else did since `q` was read (then bumps its version); false otherwise. */
  abstract save(q: QueueRecord): Promise<boolean>;

  /**
   * Writes, in one statement, the events part of each of these queues (as `save`, each only if
   * its version is still the one given) and when it was last polled; answers the ids written.
   */
  abstract checkpoint(queues: readonly Checkpoint[]): Promise<Set<string>>;

  /** Deletes the user's queue; false when there is none. */
  abstract delete(id: string, userId: number): Promise<boolean>;

  /** Marks these queues (with a poll waiting on this process) as polled now, then deletes the queues idle past their timeout. */
  abstract expire(waiting: readonly string[], nowMs: number): Promise<string[]>;

  /** The rows of an organization's transactions in [from, to), in (xid, id) order. */
  abstract journal(realmId: number, from: number, to: number): Promise<JournalRow[]>;

  /** Deletes the journal rows no queue needs any more; returns how many. */
  abstract pruneJournal(): Promise<number>;
}
