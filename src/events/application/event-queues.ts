import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
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
  /** A poll started waiting. */
  waiting(): void;
}
const COLLECT_EVERY_MS = 60_000;

type WakeReason = 'events' | 'heartbeat' | 'gone' | 'superseded' | 'cancel';

/** A GET /events waiting on this process. */
interface Waiter {
  readonly q: QueueRecord;
  wake(reason: WakeReason): void;
}

/**
 * The event queues (spec 30 §1–6), stored in PostgreSQL (QueueStore): created by POST /register,
 * read by long-polling GET /events on any server process, fed from the event journal, collected
 * when idle. A poll takes its queue's row, adds the queue's copies of the journal rows written
 * since the row's boundary (from this process's JournalWindow, or from the database), drops what
 * `last_event_id` acknowledges, and writes the row back only if it changed, on the condition that
 * nobody else wrote it meanwhile (else it starts again from the stored row): every event id is
 * stored before a client sees it, so a client that moves to another process continues with the
 * same `queue_id` and `last_event_id`. A poll with nothing to answer waits here until the
 * listener reads journal rows it is addressed by, or its heartbeat.
 */
@Injectable()
export class EventQueues implements BeforeApplicationShutdown, OnApplicationShutdown {
  /** The journal rows the listener read lately (it appends to it). */
  readonly window = new JournalWindow(WINDOW_LIMITS);
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
  private feed: JournalFeed | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
    private readonly store: QueueStore,
  ) {
    this.gcTimer = setInterval(() => void this.collectGarbage(), COLLECT_EVERY_MS);
    this.gcTimer.unref();
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
    this.logger.info({ polls }, 'shutdown: answered the waiting long-polls');
  }

  onApplicationShutdown(): void {
    clearInterval(this.gcTimer);
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
    const { record, evicted } = await this.store.create(randomUUID(), userId, realmId, o, this.clock.now().getTime(), this.config.maxEventQueuesPerUser);
    for (const id of evicted) this.waiting.get(id)?.wake('gone');
    return { id: record.id, timeoutSecs: timeoutSecs(o) };
  }

  /** DELETE /events. A poll waiting on it here is answered with what it holds. */
  async delete(queueId: string, userId: number): Promise<void> {
    if (!(await this.store.delete(queueId, userId))) throw badEventQueue(queueId);
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
    let q = await this.load(queueId, userId);
    this.waiting.get(queueId)?.wake('superseded'); // an older poll on this queue is answered now
    let changed = acknowledge(q, lastEventId);
    let beat = false;
    for (;;) {
      changed = (await this.catchUp(q)) || changed;
      if (q.pending.length === 0 && !dontBlock && !beat) {
        if (this.window.end !== null && this.window.end > q.boundary) continue; // rows came during a database read
        if (this.closing) beat = true;
        else {
          const reason = await this.wait(q, cancelled, heartbeatAt - Date.now());
          if (reason === 'cancel') return [];
          if (reason === 'gone') return q.pending;
          // A newer poll of this queue came: this one answers now with what the queue holds (stored first, as always).
          if (reason === 'superseded') dontBlock = true;
          beat = reason === 'heartbeat';
          continue;
        }
      }
      if (beat && q.pending.length === 0) {
        push(q, { type: 'heartbeat' });
        changed = true;
      }
      if (!changed || (await this.store.save(q))) return q.pending;
      // Another process answered this queue meanwhile: start again from what it stored.
      q = await this.load(queueId, userId);
      changed = acknowledge(q, lastEventId);
    }
  }

  private async load(queueId: string, userId: number): Promise<QueueRecord> {
    const q = await this.store.poll(queueId, userId, this.clock.now().getTime());
    if (q === null) throw badEventQueue(queueId);
    return q;
  }

  /** When the poll is answered with a heartbeat if nothing came (EVENT_HEARTBEAT_SECONDS, with Zulip's jitter from 45 s up). */
  private heartbeatAt(): number {
    const secs = this.config.eventHeartbeatSeconds;
    return Date.now() + (secs + (secs >= 45 ? Math.floor(Math.random() * 11) : 0)) * 1000;
  }

  /** Adds the queue's copies of the journal rows past its boundary that this process has read. */
  private async catchUp(q: QueueRecord): Promise<boolean> {
    await this.feed?.ready();
    const recent = this.window.rowsFrom(q.boundary);
    if (recent !== null) return absorb(q, recent.rows, recent.end);
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
      for (const w of [...this.waiting.values()]) w.wake('events');
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
    for (const w of woken) w.wake('events');
  }

  /** Expires idle queues (Zulip: no poll for their timeout; never one with a poll waiting). */
  private async collectGarbage(): Promise<void> {
    try {
      const gone = await this.store.expire([...this.waiting.keys()], this.clock.now().getTime());
      for (const id of gone) this.waiting.get(id)?.wake('gone');
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
