import { randomUUID } from 'node:crypto';
import { DomainError } from '@app/domain/shared';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@app/domain/realm';
import { type BeforeApplicationShutdown, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import type { JournalSnapshot } from './journal-snapshot.js';

export interface Capabilities {
  bulkMessageDeletion: boolean;
  linkifierUrlTemplate: boolean;
  emptyTopicName: boolean;
  archivedChannels: boolean;
  /** Channel typing notifications are delivered (stream_typing_notifications). */
  streamTypingNotifications: boolean;
  /** `presence` events in the modern format (simplified_presence_events). */
  simplifiedPresenceEvents: boolean;
  /** Without it, settings changes also arrive as the legacy update_display_settings / update_global_notifications. */
  userSettingsObject?: boolean;
  /** Deactivated user groups stay in the client's list (update events), else they are removed (remove events). */
  includeDeactivatedGroups?: boolean;
}

const CAPABILITY_FLAGS = {
  archived_channels: 'archivedChannels',
  user_settings_object: 'userSettingsObject',
  include_deactivated_groups: 'includeDeactivatedGroups',
} as const;

export interface QueueOptions {
  userId: number;
  realmId: number;
  eventTypes: string[] | null;
  narrow: [string, string][];
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  /** Legacy `presence` events without `email` (slim_presence). */
  slimPresence: boolean;
  /** Guests cannot read public channels they are not subscribed to. */
  readsPublicChannels: boolean;
  capabilities: Capabilities;
  lifespanSecs: number;
}

type QueuedEvent = Record<string, unknown> & { id: number };

const DEFAULT_LIFESPAN_SECS = 600;
const MAX_LIFESPAN_SECS = 7 * 86400;
const MAX_QUEUED_EVENTS = 10_000;

class Queue {
  readonly id = randomUUID();
  /** `xid`: the journal transaction that wrote the event (null: made by the queue, a heartbeat). */
  events: { xid: number | null; event: QueuedEvent }[] = [];
  nextId = 0;
  newestDiscarded = -1;
  /** The registering client's state already holds the events of the transactions this snapshot sees. */
  snapshot: JournalSnapshot | null = null;
  lastTouched: number;
  waiter: ((events: QueuedEvent[]) => void) | null = null;

  constructor(
    readonly o: QueueOptions,
    now: number,
  ) {
    this.lastTouched = now;
  }

  get timeoutMs(): number {
    const secs = this.o.lifespanSecs > 0 ? Math.min(this.o.lifespanSecs, MAX_LIFESPAN_SECS) : DEFAULT_LIFESPAN_SECS;
    return secs * 1000;
  }

  push(xid: number | null, event: Record<string, unknown>): void {
    this.events.push({ xid, event: { ...event, id: this.nextId++ } });
    if (this.events.length > MAX_QUEUED_EVENTS) this.newestDiscarded = this.events.shift()!.event.id;
    this.wake();
  }

  wake(): void {
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      w(this.events.map((e) => e.event));
    }
  }
}

export const badEventQueue = (queueId: string) =>
  new DomainError(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', 'invalid', { queue_id: queueId });

/** Narrow terms a `message` event must satisfy (spec 30 §6.2). */
function matchesNarrow(message: Record<string, unknown>, flags: string[], narrow: [string, string][]): boolean {
  const lower = (v: unknown) => String(v ?? '').toLowerCase();
  return narrow.every(([op, operand]) => {
    const o = lower(operand);
    switch (op) {
      case 'channel':
      case 'stream':
        return message.type === 'stream' && lower(message.display_recipient) === o;
      case 'topic':
        return message.type === 'stream' && lower(message.__topic) === o;
      case 'sender':
        return lower(message.sender_email) === o;
      case 'is':
        if (o === 'dm' || o === 'private') return message.type === 'private';
        if (o === 'starred') return flags.includes('starred');
        if (o === 'unread') return !flags.includes('read');
        if (o === 'mentioned' || o === 'alerted') return flags.includes('mentioned');
        if (o === 'resolved') return message.type === 'stream' && String(message.__topic).startsWith('✔ ');
        return true;
      default:
        return true;
    }
  });
}

/** Event types whose empty topic is shown as the display name to clients without empty_topic_name. */
const TOPIC_EVENT_TYPES = new Set(['update_message', 'user_topic', 'delete_message', 'typing']);

/**
 * A `presence` event as the queue's client reads it (Zulip's process_presence_event): the modern
 * format for simplified_presence_events, else the legacy one, without `email` for slim_presence.
 */
function presenceCopy(o: QueueOptions, e: Record<string, unknown>): Record<string, unknown> {
  if (o.capabilities.simplifiedPresenceEvents) return { type: 'presence', presences: { [String(e.user_id)]: e.modern_presence } };
  const legacy = { type: 'presence', user_id: e.user_id, email: e.email, server_timestamp: e.server_timestamp, presence: e.legacy_presence };
  if (!o.slimPresence) return legacy;
  const { email: _, ...slim } = legacy;
  return slim;
}

/**
 * The event queues of this server process (spec 30 §1–6): created by POST /register, read by
 * long-polling GET /events, fed by the event journal, collected when idle.
 */
@Injectable()
export class EventQueues implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly queues = new Map<string, Queue>();
  /** Each organization's queues: the readers of its `everyone` events. */
  private readonly byRealm = new Map<number, Set<Queue>>();
  /** Each user's queues, oldest registration first (the per-user cap, MAX_EVENT_QUEUES_PER_USER). */
  private readonly byUser = new Map<number, Set<Queue>>();
  /**
   * Each organization's queues that also read messages of public channels they are not
   * addressed in (all_public_streams or a narrow, never a guest's), so that delivering costs
   * O(recipients + these), not O(queues of the organization).
   */
  private readonly publicReaders = new Map<number, Set<Queue>>();
  private readonly gcTimer: NodeJS.Timeout;
  /** Set when shutdown begins: no poll waits any more. */
  private closing = false;
  private createdCount = 0;

  constructor(
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {
    this.gcTimer = setInterval(() => this.collectGarbage(), 60_000);
    this.gcTimer.unref();
  }

  /**
   * Shutdown, before the HTTP server stops (it waits for running requests): every waiting poll
   * is answered now with a heartbeat, as when its wait ends, and polls still arriving are
   * answered at once. The clients poll again, reaching another server or this one restarted.
   */
  beforeApplicationShutdown(): void {
    this.closing = true;
    let answered = 0;
    for (const q of this.queues.values()) {
      if (q.waiter === null) continue;
      q.push(null, { type: 'heartbeat' });
      answered += 1;
    }
    this.logger.info({ polls: answered }, 'shutdown: answered the waiting long-polls');
  }

  onApplicationShutdown(): void {
    clearInterval(this.gcTimer);
    for (const q of this.queues.values()) q.wake();
  }

  create(o: QueueOptions): { id: string; timeoutSecs: number; setSnapshot: (snapshot: JournalSnapshot) => void } {
    const q = new Queue(o, this.clock.now().getTime());
    const own = this.byUser.get(o.userId);
    while (own !== undefined && own.size >= this.config.maxEventQueuesPerUser) this.evict(this.leastRecentlyUsed(own));
    this.queues.set(q.id, q);
    addTo(this.byRealm, o.realmId, q);
    if (readsUnaddressedPublicMessages(o)) addTo(this.publicReaders, o.realmId, q);
    addTo(this.byUser, o.userId, q);
    this.createdCount += 1;
    return {
      id: q.id,
      timeoutSecs: q.timeoutMs / 1000,
      // The events of transactions the snapshot sees are already in the registering client's initial state.
      setSnapshot: (snapshot) => {
        q.snapshot = snapshot;
        q.events = q.events.filter((e) => e.xid === null || !snapshot.includes(e.xid));
      },
    };
  }

  /** How many queues this process has created so far (the listener sees whether one was opened during its read). */
  get created(): number {
    return this.createdCount;
  }

  /** Whether this process holds any queue. */
  get isEmpty(): boolean {
    return this.queues.size === 0;
  }

  private owned(queueId: string, userId: number): Queue {
    const q = this.queues.get(queueId);
    if (!q || q.o.userId !== userId) throw badEventQueue(queueId);
    return q;
  }

  delete(queueId: string, userId: number): void {
    const q = this.owned(queueId, userId);
    q.wake();
    this.remove(q);
  }

  private remove(q: Queue): void {
    this.queues.delete(q.id);
    removeFrom(this.byRealm, q.o.realmId, q);
    removeFrom(this.publicReaders, q.o.realmId, q);
    removeFrom(this.byUser, q.o.userId, q);
  }

  /**
   * The queue to drop for a new one: the idle queue (no poll waiting) touched longest ago, or,
   * when every queue has a waiting poll, the one touched longest ago (oldest registration on ties).
   */
  private leastRecentlyUsed(own: Set<Queue>): Queue {
    let pick: Queue | undefined;
    for (const q of own) {
      if (pick === undefined) pick = q;
      else if ((q.waiter === null) !== (pick.waiter === null)) {
        if (q.waiter === null) pick = q;
      } else if (q.lastTouched < pick.lastTouched) pick = q;
    }
    return pick!;
  }

  /** Drops a queue; a poll waiting on it is answered with what it holds, the next one gets BAD_EVENT_QUEUE_ID. */
  private evict(q: Queue): void {
    this.remove(q);
    q.wake();
  }

  /** GET /events (spec 30 §3.2). Resolves with the queue's events, or a heartbeat after the wait. */
  async poll(queueId: string, userId: number, lastEventId: number, dontBlock: boolean, cancelled: Promise<void>): Promise<QueuedEvent[]> {
    const q = this.owned(queueId, userId);
    if (lastEventId < q.newestDiscarded) throw new DomainError(`An event newer than ${lastEventId} has already been pruned!`);
    const before = q.events.length;
    q.events = q.events.filter((e) => e.event.id > lastEventId);
    if (q.events.length < before) q.newestDiscarded = Math.max(q.newestDiscarded, lastEventId);
    if (q.newestDiscarded !== lastEventId && lastEventId >= q.nextId) {
      throw new DomainError(`Event ${lastEventId} was not in this queue`);
    }
    q.lastTouched = this.clock.now().getTime();
    q.wake(); // an older poll on this queue is answered now
    if (q.events.length > 0 || dontBlock) return q.events.map((e) => e.event);
    if (this.closing) {
      q.push(null, { type: 'heartbeat' });
      return q.events.map((e) => e.event);
    }
    const heartbeatMs = (this.config.eventHeartbeatSeconds + Math.floor(Math.random() * 11) * (this.config.eventHeartbeatSeconds >= 45 ? 1 : 0)) * 1000;
    return new Promise<QueuedEvent[]>((resolve) => {
      const timer = setTimeout(() => {
        if (q.waiter === finish) {
          q.waiter = null;
          q.push(null, { type: 'heartbeat' });
          resolve(q.events.map((e) => e.event));
        }
      }, heartbeatMs);
      timer.unref();
      const finish = (events: QueuedEvent[]) => {
        clearTimeout(timer);
        q.lastTouched = this.clock.now().getTime();
        resolve(events);
      };
      q.waiter = finish;
      void cancelled.then(() => {
        if (q.waiter === finish) {
          q.waiter = null;
          clearTimeout(timer);
          resolve([]);
        }
      });
    });
  }

  /**
   * Hands one journal event, written by transaction `xid`, to every queue that wants it: the
   * queues of its recipients (of the whole organization for `everyone` events), and for a
   * public-channel message the organization's public readers. Cost: O(queues reached).
   */
  deliver(xid: number, ce: ClientEvent): void {
    if (ce.everyone === true) {
      for (const q of this.byRealm.get(ce.realmId) ?? []) this.offer(q, xid, ce);
      return;
    }
    const recipients = new Set(ce.userIds);
    for (const userId of recipients) {
      for (const q of this.byUser.get(userId) ?? []) if (q.o.realmId === ce.realmId) this.offer(q, xid, ce);
    }
    if (ce.event.type !== 'message' || ce.publicChannel !== true) return;
    for (const q of this.publicReaders.get(ce.realmId) ?? []) if (!recipients.has(q.o.userId)) this.offer(q, xid, ce);
  }

  /** The queue's copies of an event it is a recipient or public reader of, unless its client's state already has it. */
  private offer(q: Queue, xid: number, ce: ClientEvent): void {
    if (q.snapshot !== null && q.snapshot.includes(xid)) return;
    for (const event of this.copiesFor(q, ce)) q.push(xid, event);
  }

  private copiesFor(q: Queue, ce: ClientEvent): Record<string, unknown>[] {
    const type = ce.event.type;
    if (q.o.eventTypes !== null && !q.o.eventTypes.includes(type)) return [];
    // The legacy muted_topics event duplicates user_topic: queues that asked for user_topic skip it.
    if (type === 'muted_topics' && q.o.eventTypes !== null && q.o.eventTypes.includes('user_topic')) return [];
    if (ce.capability && (q.o.capabilities[CAPABILITY_FLAGS[ce.capability.name]] === true) !== ce.capability.has) return [];
    const own = ce.perUser?.[String(q.o.userId)] ?? {};
    if (type === 'message') return this.messageCopy(q, ce, own);
    if (type === 'realm_linkifiers' && !q.o.capabilities.linkifierUrlTemplate) return [];
    // Zulip's accepts_event: channel typing only for clients that declared they show it.
    if (type === 'typing' && 'stream_id' in ce.event && !q.o.capabilities.streamTypingNotifications) return [];
    if (type === 'presence') return [presenceCopy(q.o, ce.event)];
    const event: Record<string, unknown> = { ...ce.event, ...own };
    const person = event.person as Record<string, unknown> | undefined;
    // Avatars are Gravatar URLs, which client_gravatar clients compute themselves for a new user
    // (an avatar change carries its URL for everyone, as Zulip's notify_avatar_url_change does).
    if (type === 'realm_user' && event.op === 'add' && q.o.clientGravatar && person?.avatar_url !== undefined) event.person = { ...person, avatar_url: null };
    if (type === 'delete_message' && !q.o.capabilities.bulkMessageDeletion) {
      const { message_ids: ids, ...rest } = event as { message_ids: number[] };
      return ids.map((id) => ({ ...rest, message_id: id }));
    }
    if (!q.o.capabilities.emptyTopicName) {
      for (const key of ['subject', 'orig_subject', 'topic_name', 'topic']) {
        if (event[key] === '' && TOPIC_EVENT_TYPES.has(type)) {
          event[key] = EMPTY_TOPIC_DISPLAY_NAME;
        }
      }
    }
    return [event];
  }

  private messageCopy(q: Queue, ce: ClientEvent, own: Record<string, unknown>): Record<string, unknown>[] {
    const source = ce.event.message as Record<string, unknown>;
    const flags = (own.flags as string[] | undefined) ?? [];
    if (q.o.narrow.length > 0 && !matchesNarrow(source, flags, q.o.narrow)) return [];
    const { __raw: raw, __topic: topic, __client_gravatar: gravatarComputable, ...message } = source;
    if (!q.o.applyMarkdown) Object.assign(message, { content: raw, content_type: 'text/x-markdown' });
    // A sender who hides their address keeps the URL (events journaled before the flag: computable).
    if (q.o.clientGravatar && gravatarComputable !== false) message.avatar_url = null;
    if (message.type === 'stream' && topic === '' && q.o.capabilities.emptyTopicName) message.subject = '';
    const event: Record<string, unknown> = { type: 'message', message, flags };
    if (ce.localEcho && ce.localEcho.queueId === q.id) event.local_message_id = ce.localEcho.localId;
    return [event];
  }

  private collectGarbage(): void {
    const now = this.clock.now().getTime();
    for (const q of this.queues.values()) {
      if (q.waiter === null && now - q.lastTouched >= q.timeoutMs) this.remove(q);
    }
  }

  /** For tests: runs a collection pass now. */
  collectNow(): void {
    this.collectGarbage();
  }
}

/** Queues that read messages of public channels without being addressed (Zulip's all_public_streams and narrowed queues). */
function readsUnaddressedPublicMessages(o: QueueOptions): boolean {
  return o.readsPublicChannels && (o.allPublicStreams || o.narrow.length > 0);
}

function addTo<K>(index: Map<K, Set<Queue>>, key: K, q: Queue): void {
  const set = index.get(key);
  if (set) set.add(q);
  else index.set(key, new Set([q]));
}

function removeFrom<K>(index: Map<K, Set<Queue>>, key: K, q: Queue): void {
  const set = index.get(key);
  set?.delete(q);
  if (set?.size === 0) index.delete(key);
}
