import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { type Cancel, Scheduler } from '../../shared/application/scheduler.js';
import { JournalWindow, WINDOW_LIMITS } from './journal-window.js';
import {
  absorb,
  acknowledge,
  badEventQueue,
  type JournalRow,
  push,
  type QueuedEvent,
  type QueueOptions,
  type QueueRecord,
  readsUnaddressedPublicMessages,
  timeoutSecs,
} from './queue-record.js';
import { QueueStore } from './queue-store.js';

export type { Capabilities, QueueOptions } from './queue-record.js';
export { badEventQueue } from './queue-record.js';

/** What feeds the window: the journal listener of this process. */
export interface JournalFeed {
  /** Brings the window up to date (passes are skipped while no poll waits). */
  ready(): Promise<void>;
  /** Reads the journal now, up to the oldest transaction running (a client saw events another process read later). */
  refresh(): Promise<void>;
  /** A poll started waiting. */
  waiting(): void;
}
const COLLECT_EVERY_MS = 60_000;
/** How often the queues held in memory are written back (one statement for all of them). */
export const CHECKPOINT_EVERY_MS = 2_000;
/** A held queue not polled here for this long is let go (after its checkpoint). */
const HOLD_IDLE_MS = 60_000;
/**
 * Polls a journal pass wakes are answered this many per event-loop turn: between two batches the
 * loop reads the requests that came meanwhile (sends, presence reports, new polls), so a message
 * to a thousand recipients does not hold every other request for its whole fan-out.
 */
export const WAKE_BATCH = 100;

/**
 * A queue this process answered lately, kept in memory between its polls: its next poll here
 * reads no row, and its changes are written back in batches (checkpoint).
 */
interface Held {
  readonly q: QueueRecord;
  /** The newest event id this process handed out for it (-1 for a queue created here): its client's next `last_event_id` if it stays here. */
  handed: number;
  /** Changed (or polled) since its last checkpoint. */
  dirty: boolean;
  /** When it was last polled here (application clock). */
  polledAt: number;
}

type WakeReason = 'events' | 'heartbeat' | 'gone' | 'superseded' | 'cancel';

/** A GET /events waiting on this process. */
interface Waiter {
  readonly q: QueueRecord;
  wake(reason: WakeReason): void;
}

/**
 * The event queues (spec 30 §1–6), stored in PostgreSQL (QueueStore): created by POST /register,
 * read by long-polling GET /events on any server process, fed from the event journal, collected
 * when idle. A poll adds the queue's copies of the journal rows written since the queue's
 * boundary (from this process's JournalWindow, or from the database), drops what
 * `last_event_id` acknowledges, and answers what is left; with nothing to answer it waits here
 * until the listener reads journal rows it is addressed by, or its heartbeat.
 *
 * A queue's events are a function of its stored row (a checkpoint) and the journal rows past its
 * boundary: the same rows in the same (xid, id) order give the same events with the same ids on
 * any process. So the process that answers a queue keeps it in memory (Held) and answers its next
 * poll without a statement, writing it back every CHECKPOINT_EVERY_MS in one statement for all
 * (on the condition that nobody wrote it meanwhile, else it is let go); the journal is pruned
 * only below every stored boundary. A process that did not answer the client's last poll (its
 * `last_event_id` is not the newest id handed out here), or whose window no longer reaches the
 * held boundary, starts from the stored row instead and derives the same events again: a client
 * moving to another process, or to a restarted one after a crash, continues with its `queue_id`
 * and `last_event_id`, nothing lost and no id reused. What the journal cannot give again is
 * stored before the client sees it: heartbeats (they take an id, as in Zulip), and events read
 * from the database's journal (a prune may follow another process's checkpoint).
 */
@Injectable()
export class EventQueues implements BeforeApplicationShutdown, OnApplicationShutdown {
  /** The journal rows the listener read lately (it appends to it). */
  readonly window = new JournalWindow(WINDOW_LIMITS);
  /** Queues answered here lately, by id. */
  private readonly held = new Map<string, Held>();
  /** The checkpoint being written, if any. */
  private checkpointing: Promise<void> | null = null;
  private readonly cancelCheckpoints: Cancel;
  /** Polls waiting on this process, by queue. */
  private readonly waiting = new Map<string, Waiter>();
  private readonly byUser = new Map<number, Set<Waiter>>();
  /** The waiting polls of each organization: the readers of its `everyone` events. */
  private readonly byRealm = new Map<number, Set<Waiter>>();
  /** Waiting polls that also read public channels' messages they are not addressed in. */
  private readonly publicReaders = new Map<number, Set<Waiter>>();
  /** Polls being answered (shutdown waits for them). */
  private readonly answering = new Set<Promise<unknown>>();
  private readonly gcTimer: NodeJS.Timeout;
  /** Set when shutdown begins: no poll waits any more. */
  private closing = false;
  /** The window generation the waiting polls have been woken for. */
  private windowSeen = 0;
  /** Polls woken by a pass and not yet answered (WAKE_BATCH per turn), oldest first. */
  private toWake: Waiter[] = [];
  private wakeScheduled = false;
  private feed: JournalFeed | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
    private readonly store: QueueStore,
    scheduler: Scheduler,
  ) {
    this.gcTimer = setInterval(() => void this.collectGarbage(), COLLECT_EVERY_MS);
    this.gcTimer.unref();
    this.cancelCheckpoints = scheduler.every(CHECKPOINT_EVERY_MS, () => void this.checkpoint());
  }

  /**
   * Shutdown, before the HTTP server stops: every waiting poll is answered now with a heartbeat
   * (stored, as any answer), and polls still arriving are answered at once. The clients poll
   * again, reaching another process or this one restarted, with the same queue.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    const polls = this.waiting.size;
    for (const w of [...this.waiting.values()]) w.wake('heartbeat');
    await Promise.allSettled([...this.answering]);
    await this.checkpoint();
    this.logger.info({ polls }, 'shutdown: answered the waiting long-polls');
  }

  onApplicationShutdown(): void {
    clearInterval(this.gcTimer);
    this.cancelCheckpoints();
    for (const w of [...this.waiting.values()]) w.wake('gone');
  }

  attach(feed: JournalFeed): void {
    this.feed = feed;
  }

  /** Whether a poll waits on this process (the listener reads the journal at each commit only then). */
  get hasWaiters(): boolean {
    return this.waiting.size > 0;
  }

  /** How many polls wait on this process (read-only, for the metrics). */
  get waitingPolls(): number {
    return this.waiting.size;
  }

  /** POST /register: a new queue; its registration snapshot is taken in the same statement. */
  async create(userId: number, realmId: number, o: QueueOptions): Promise<{ id: string; timeoutSecs: number }> {
    // The per-user cap drops the least recently polled queues: the stored poll times of this user's held queues first.
    await this.checkpoint((h) => h.q.userId === userId);
    const now = this.clock.now().getTime();
    const { record, evicted } = await this.store.create(randomUUID(), userId, realmId, o, now, this.config.maxEventQueuesPerUser);
    for (const id of evicted) this.let(id);
    this.held.set(record.id, { q: record, handed: -1, dirty: false, polledAt: now });
    return { id: record.id, timeoutSecs: timeoutSecs(o) };
  }

  /** DELETE /events. A poll waiting on it here is answered with what it holds. */
  async delete(queueId: string, userId: number): Promise<void> {
    if (!(await this.store.delete(queueId, userId))) throw badEventQueue(queueId);
    this.let(queueId);
  }

  /** A queue deleted or dropped: it is not held any more, and a poll waiting on it answers. */
  private let(queueId: string): void {
    this.held.delete(queueId);
    this.waiting.get(queueId)?.wake('gone');
  }

  /** GET /events (spec 30 §3.2): the queue's events after `lastEventId`, or a heartbeat after the wait. */
  poll(queueId: string, userId: number, lastEventId: number, dontBlock: boolean, cancelled: Promise<void>): Promise<QueuedEvent[]> {
    const answer = this.answer(queueId, userId, lastEventId, dontBlock, cancelled);
    this.answering.add(answer);
    void answer.catch(() => undefined).finally(() => this.answering.delete(answer));
    return answer;
  }

  private async answer(queueId: string, userId: number, lastEventId: number, dontBlock: boolean, cancelled: Promise<void>): Promise<QueuedEvent[]> {
    const heartbeatAt = this.heartbeatAt();
    let h = this.heldFor(queueId, userId, lastEventId) ?? (await this.load(queueId, userId));
    this.waiting.get(queueId)?.wake('superseded'); // an older poll on this queue is answered now
    let acknowledged = false;
    let refreshed = false;
    let unsaved = false;
    let beat = false;
    /** Woken by the listener's pass: the window already holds what woke it (no wait for later passes). */
    let woken = false;
    for (;;) {
      const q = h.q;
      unsaved = (await this.catchUp(q, !woken)) || unsaved;
      woken = false;
      if (!acknowledged) {
        // The client saw events of a process whose window was ahead of this one's: read the journal now.
        if (lastEventId >= q.nextEventId && !refreshed && this.feed !== null) {
          refreshed = true;
          await this.feed.refresh();
          continue;
        }
        acknowledge(q, lastEventId);
        acknowledged = true;
      }
      if (q.pending.length === 0 && !dontBlock && !beat) {
        if (this.window.end !== null && this.window.end > q.boundary) continue; // rows came during a database read
        if (this.closing) beat = true;
        else {
          const reason = await this.wait(q, cancelled, heartbeatAt - Date.now());
          if (reason === 'cancel') return [];
          if (reason === 'gone') return q.pending.slice();
          // A newer poll of this queue came: this one answers now with what the queue holds.
          if (reason === 'superseded') dontBlock = true;
          beat = reason === 'heartbeat';
          woken = reason === 'events';
          continue;
        }
      }
      if (beat && q.pending.length === 0) {
        push(q, { type: 'heartbeat' });
        unsaved = true;
      }
      if (unsaved && !(await this.store.save(q))) {
        // Another process wrote this queue meanwhile: start again from what it stored.
        h = await this.load(queueId, userId);
        acknowledged = refreshed = unsaved = false;
        continue;
      }
      h.handed = q.pending.length > 0 ? q.pending[q.pending.length - 1].id : lastEventId;
      h.dirty = true;
      h.polledAt = this.clock.now().getTime();
      return q.pending.slice();
    }
  }

  /**
   * The queue as this process holds it, if the client's last answer came from here
   * (`last_event_id` is the newest id handed out here) and the window still reaches its boundary.
   */
  private heldFor(queueId: string, userId: number, lastEventId: number): Held | null {
    const h = this.held.get(queueId);
    if (h === undefined || h.q.userId !== userId || h.handed !== lastEventId) return null;
    const start = this.window.start;
    return start !== null && h.q.boundary >= start ? h : null;
  }

  /** The stored queue, marked as polled now, held from now on. */
  private async load(queueId: string, userId: number): Promise<Held> {
    const now = this.clock.now().getTime();
    const q = await this.store.poll(queueId, userId, now);
    if (q === null) {
      if (this.held.get(queueId)?.q.userId === userId) this.held.delete(queueId);
      throw badEventQueue(queueId);
    }
    const h: Held = { q, handed: Number.NaN, dirty: false, polledAt: now };
    this.held.set(queueId, h);
    return h;
  }

  /**
   * Writes back the held queues changed since their last checkpoint, in one statement; a queue
   * another process wrote meanwhile is let go (its next poll here starts from the stored row).
   * Then lets go of the queues not polled here lately.
   */
  async checkpoint(which: (h: Held) => boolean = () => true): Promise<void> {
    while (this.checkpointing !== null) await this.checkpointing;
    this.checkpointing = this.writeCheckpoint(which).finally(() => (this.checkpointing = null));
    return this.checkpointing;
  }

  private async writeCheckpoint(which: (h: Held) => boolean): Promise<void> {
    const batch = [...this.held.values()].filter((h) => h.dirty && which(h));
    if (batch.length > 0 && !(await this.write(batch))) return;
    const idleBefore = this.clock.now().getTime() - HOLD_IDLE_MS;
    for (const [id, h] of this.held) if (!h.dirty && h.polledAt < idleBefore && !this.waiting.has(id)) this.held.delete(id);
  }

  /** One checkpoint statement; false when it failed (the queues stay to be written). */
  private async write(batch: Held[]): Promise<boolean> {
    const versions = batch.map((h) => h.q.version);
    for (const h of batch) h.dirty = false;
    try {
      const written = await this.store.checkpoint(
        batch.map(({ q, polledAt }) => ({
          id: q.id,
          version: q.version,
          snapshot: q.snapshot,
          boundary: q.boundary,
          nextEventId: q.nextEventId,
          newestDiscarded: q.newestDiscarded,
          pending: q.pending,
          polledAtMs: polledAt,
        })),
      );
      batch.forEach((h, i) => {
        if (written.has(h.q.id) && h.q.version === versions[i]) h.q.version += 1;
        else if (this.held.get(h.q.id) === h) this.held.delete(h.q.id);
      });
      return true;
    } catch (err) {
      for (const h of batch) h.dirty = true;
      this.logger.warn({ err }, 'event queue checkpoint failed');
      return false;
    }
  }

  /** How many queues this process holds (tests). */
  get heldQueues(): number {
    return this.held.size;
  }

  /** When the poll is answered with a heartbeat if nothing came (EVENT_HEARTBEAT_SECONDS, with Zulip's jitter from 45 s up). */
  private heartbeatAt(): number {
    const secs = this.config.eventHeartbeatSeconds;
    return Date.now() + (secs + (secs >= 45 ? Math.floor(Math.random() * 11) : 0)) * 1000;
  }

  /**
   * Adds the queue's copies of the journal rows past its boundary that this process has read.
   * Answers whether they came from the database (the queue must then be stored before answering).
   * `bringUpToDate`: first run the listener's pass skipped while no poll waited (not needed by a
   * poll its pass just woke: waiting for the passes after it would only delay the answer).
   */
  private async catchUp(q: QueueRecord, bringUpToDate: boolean): Promise<boolean> {
    if (bringUpToDate) await this.feed?.ready();
    const recent = this.window.rowsFrom(q.boundary);
    if (recent !== null) {
      absorb(q, recent.rows, recent.end);
      return false;
    }
    const end = this.window.end;
    if (end === null || end <= q.boundary) return false;
    return absorb(q, await this.store.journal(q.realmId, q.boundary, end), end);
  }

  private wait(q: QueueRecord, cancelled: Promise<void>, ms: number): Promise<WakeReason> {
    return new Promise<WakeReason>((resolve) => {
      let done = false;
      const w: Waiter = {
        q,
        wake: (reason) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          this.forget(w);
          resolve(reason);
        },
      };
      const timer = setTimeout(() => w.wake('heartbeat'), Math.max(0, ms));
      timer.unref();
      this.waiting.set(q.id, w);
      addTo(this.byUser, q.userId, w);
      addTo(this.byRealm, q.realmId, w);
      if (readsUnaddressedPublicMessages(q.options)) addTo(this.publicReaders, q.realmId, w);
      void cancelled.then(() => w.wake('cancel'));
      this.feed?.waiting();
    });
  }

  private forget(w: Waiter): void {
    if (this.waiting.get(w.q.id) === w) this.waiting.delete(w.q.id);
    removeFrom(this.byUser, w.q.userId, w);
    removeFrom(this.byRealm, w.q.realmId, w);
    removeFrom(this.publicReaders, w.q.realmId, w);
  }

  /**
   * Called by the listener after each pass (the rows are in the window): wakes the waiting polls
   * these rows may concern, each once. Cost: O(polls reached).
   */
  received(rows: readonly JournalRow[]): void {
    if (this.window.generation !== this.windowSeen) {
      // The window began (anew): polls that waited for it read their rows now.
      this.windowSeen = this.window.generation;
      this.wake(this.waiting.values());
      return;
    }
    const woken = new Set<Waiter>();
    for (const { event: ce } of rows) {
      if (ce.everyone === true) {
        for (const w of this.byRealm.get(ce.realmId) ?? []) woken.add(w);
        continue;
      }
      for (const userId of ce.userIds) {
        for (const w of this.byUser.get(userId) ?? []) if (w.q.realmId === ce.realmId) woken.add(w);
      }
      if (ce.event.type === 'message' && ce.publicChannel === true) for (const w of this.publicReaders.get(ce.realmId) ?? []) woken.add(w);
    }
    this.wake(woken);
  }

  /** Wakes these polls with 'events', WAKE_BATCH now and the rest in later turns of the event loop. */
  private wake(polls: Iterable<Waiter>): void {
    for (const w of polls) this.toWake.push(w);
    if (!this.wakeScheduled) this.wakeBatch();
  }

  private readonly wakeBatch = (): void => {
    this.wakeScheduled = false;
    const batch = this.toWake.length <= WAKE_BATCH ? this.toWake : this.toWake.slice(0, WAKE_BATCH);
    this.toWake = batch === this.toWake ? [] : this.toWake.slice(WAKE_BATCH);
    for (const w of batch) w.wake('events'); // a poll answered meanwhile (cancelled, superseded, gone) ignores it
    if (this.toWake.length > 0) {
      this.wakeScheduled = true;
      setImmediate(this.wakeBatch);
    }
  };

  /** Expires idle queues (Zulip: no poll for their timeout; never one with a poll waiting). */
  private async collectGarbage(): Promise<void> {
    try {
      await this.checkpoint();
      const gone = await this.store.expire([...this.waiting.keys()], this.clock.now().getTime());
      for (const id of gone) this.let(id);
    } catch (err) {
      this.logger.warn({ err }, 'event queue expiry failed');
    }
  }

  /** For tests: runs a collection pass now. */
  collectNow(): Promise<void> {
    return this.collectGarbage();
  }
}

function addTo<K>(index: Map<K, Set<Waiter>>, key: K, w: Waiter): void {
  const set = index.get(key);
  if (set) set.add(w);
  else index.set(key, new Set([w]));
}

function removeFrom<K>(index: Map<K, Set<Waiter>>, key: K, w: Waiter): void {
  const set = index.get(key);
  set?.delete(w);
  if (set?.size === 0) index.delete(key);
}
