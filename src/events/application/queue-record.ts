import { DomainError } from '@app/domain/shared';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@app/domain/realm';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { JournalSnapshot } from './journal-snapshot.js';

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

/** What a client asked for at POST /register: stored with its queue, it decides which events the queue gets and how. */
export interface QueueOptions {
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

export type QueuedEvent = Record<string, unknown> & { id: number };

/** A journal row: an event and the transaction that wrote it. */
export interface JournalRow {
  readonly xid: number;
  readonly event: ClientEvent;
}

/**
 * An event queue as stored (one row of `event_queues`): the client's options, the events handed
 * out and not yet acknowledged (`pending`, numbered from 0 per queue), and `boundary`: every
 * journal row written by a transaction below it has been considered for this queue. Its later
 * events are read from the journal when a poll comes, on whichever process answers it.
 */
export interface QueueRecord {
  readonly id: string;
  readonly userId: number;
  readonly realmId: number;
  readonly options: QueueOptions;
  /** The registration's snapshot (text form) while the queue may still meet rows of transactions it saw committed. */
  snapshot: string | null;
  boundary: number;
  nextEventId: number;
  newestDiscarded: number;
  pending: QueuedEvent[];
  /** Bumped by every write of the events part: concurrent answers on several processes never hand out one id twice. */
  version: number;
}

export const DEFAULT_LIFESPAN_SECS = 600;
const MAX_LIFESPAN_SECS = 7 * 86400;
const MAX_QUEUED_EVENTS = 10_000;

/** Zulip's idle timeout of a queue: its lifespan, 10 minutes by default, at most a week. */
export function timeoutSecs(o: QueueOptions): number {
  return o.lifespanSecs > 0 ? Math.min(o.lifespanSecs, MAX_LIFESPAN_SECS) : DEFAULT_LIFESPAN_SECS;
}

export const badEventQueue = (queueId: string) =>
  new DomainError(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', 'invalid', { queue_id: queueId });

/** Queues that read messages of public channels without being addressed (Zulip's all_public_streams and narrowed queues). */
export function readsUnaddressedPublicMessages(o: QueueOptions): boolean {
  return o.readsPublicChannels && (o.allPublicStreams || o.narrow.length > 0);
}

/** Whether a journal event concerns a queue of `userId` with these options (before its per-queue filters). */
export function addresses(ce: ClientEvent, realmId: number, userId: number, o: QueueOptions): boolean {
  if (ce.realmId !== realmId) return false;
  if (ce.everyone === true || ce.userIds.includes(userId)) return true;
  return ce.event.type === 'message' && ce.publicChannel === true && readsUnaddressedPublicMessages(o);
}

/**
 * Checks a poll's `last_event_id` against the queue (Zulip's semantics) and drops the events it
 * acknowledges. Returns whether the stored queue changed.
 */
export function acknowledge(q: QueueRecord, lastEventId: number): boolean {
  if (lastEventId < q.newestDiscarded) throw new DomainError(`An event newer than ${lastEventId} has already been pruned!`);
  // Zulip's EventQueue.prune: the newest pruned id is that of the last event dropped.
  const kept = q.pending.filter((e) => e.id > lastEventId);
  const dropped = kept.length < q.pending.length;
  const newest = dropped ? Math.max(q.newestDiscarded, q.pending[q.pending.length - kept.length - 1].id) : q.newestDiscarded;
  if (newest !== lastEventId && lastEventId >= q.nextEventId) throw new DomainError(`Event ${lastEventId} was not in this queue`);
  q.pending = kept;
  q.newestDiscarded = newest;
  return dropped;
}

/** Appends one event with the queue's next id (the oldest is discarded beyond the cap). */
export function push(q: QueueRecord, event: Record<string, unknown>): void {
  q.pending.push({ ...event, id: q.nextEventId++ });
  if (q.pending.length > MAX_QUEUED_EVENTS) q.newestDiscarded = q.pending.shift()!.id;
}

/**
 * Takes in the journal rows of transactions from the queue's boundary up to `upTo` (`rows`: those
 * rows, in (xid, id) order; rows of other organizations and users are skipped), leaving out the
 * transactions the registration snapshot saw committed. Returns whether the stored queue changed.
 */
export function absorb(q: QueueRecord, rows: Iterable<JournalRow>, upTo: number): boolean {
  if (upTo <= q.boundary) return false;
  const snapshot = q.snapshot === null ? null : JournalSnapshot.parse(q.snapshot);
  for (const row of rows) {
    if (row.xid < q.boundary || row.xid >= upTo) continue;
    if (snapshot !== null && snapshot.includes(row.xid)) continue;
    if (!addresses(row.event, q.realmId, q.userId, q.options)) continue;
    for (const event of copiesFor(q, row.event)) push(q, event);
  }
  q.boundary = upTo;
  if (snapshot !== null && upTo >= snapshot.xmax) q.snapshot = null;
  return true;
}
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

function copiesFor(q: QueueRecord, ce: ClientEvent): Record<string, unknown>[] {
  const type = ce.event.type;
  if (q.options.eventTypes !== null && !q.options.eventTypes.includes(type)) return [];
  // The legacy muted_topics event duplicates user_topic: queues that asked for user_topic skip it.
  if (type === 'muted_topics' && q.options.eventTypes !== null && q.options.eventTypes.includes('user_topic')) return [];
  if (ce.capability && (q.options.capabilities[CAPABILITY_FLAGS[ce.capability.name]] === true) !== ce.capability.has) return [];
  const own = ce.perUser?.[String(q.userId)] ?? {};
  if (type === 'message') return messageCopy(q, ce, own);
  if (type === 'realm_linkifiers' && !q.options.capabilities.linkifierUrlTemplate) return [];
  // Zulip's accepts_event: channel typing only for clients that declared they show it.
  if (type === 'typing' && 'stream_id' in ce.event && !q.options.capabilities.streamTypingNotifications) return [];
  if (type === 'presence') return [presenceCopy(q.options, ce.event)];
  const event: Record<string, unknown> = { ...ce.event, ...own };
  const person = event.person as Record<string, unknown> | undefined;
  // Avatars are Gravatar URLs, which client_gravatar clients compute themselves for a new user
  // (an avatar change carries its URL for everyone, as Zulip's notify_avatar_url_change does).
  if (type === 'realm_user' && event.op === 'add' && q.options.clientGravatar && person?.avatar_url !== undefined) event.person = { ...person, avatar_url: null };
  if (type === 'delete_message' && !q.options.capabilities.bulkMessageDeletion) {
    const { message_ids: ids, ...rest } = event as { message_ids: number[] };
    return ids.map((id) => ({ ...rest, message_id: id }));
  }
  if (!q.options.capabilities.emptyTopicName) {
    for (const key of ['subject', 'orig_subject', 'topic_name', 'topic']) {
      if (event[key] === '' && TOPIC_EVENT_TYPES.has(type)) {
        event[key] = EMPTY_TOPIC_DISPLAY_NAME;
      }
    }
  }
  // typing_edit_message names its topic inside `recipient`.
  const recipient = event.recipient as Record<string, unknown> | undefined;
  if (!q.options.capabilities.emptyTopicName && type === 'typing_edit_message' && recipient?.topic === '') {
    event.recipient = { ...recipient, topic: EMPTY_TOPIC_DISPLAY_NAME };
  }
  return [event];
}

/**
 * The message of a journaled `message` event as a queue with these options shows it: one object
 * per distinct view (Markdown or raw, avatar URL or not, empty topic name or its display name),
 * shared by every queue of that view and never modified (the answer's serializer keeps its
 * JSON text, so a message to N recipients is serialized once per view, not N times).
 */
const messageViews = new WeakMap<ClientEvent, Map<string, Record<string, unknown>>>();

function messageView(ce: ClientEvent, o: QueueOptions): Record<string, unknown> {
  const source = ce.event.message as Record<string, unknown>;
  // A sender who hides their address keeps the URL (events journaled before the flag: computable).
  const noAvatar = o.clientGravatar && source.__client_gravatar !== false;
  const key = `${o.applyMarkdown ? 'html' : 'raw'} ${noAvatar ? 'computed' : 'url'} ${o.capabilities.emptyTopicName ? 'empty' : 'named'}`;
  let views = messageViews.get(ce);
  const cached = views?.get(key);
  if (cached !== undefined) return cached;
  const { __raw: raw, __topic: topic, __client_gravatar: _, ...message } = source;
  if (!o.applyMarkdown) Object.assign(message, { content: raw, content_type: 'text/x-markdown' });
  if (noAvatar) message.avatar_url = null;
  if (message.type === 'stream' && topic === '' && o.capabilities.emptyTopicName) message.subject = '';
  if (views === undefined) messageViews.set(ce, (views = new Map()));
  views.set(key, message);
  return message;
}

function messageCopy(q: QueueRecord, ce: ClientEvent, own: Record<string, unknown>): Record<string, unknown>[] {
  const source = ce.event.message as Record<string, unknown>;
  const flags = (own.flags as string[] | undefined) ?? [];
  if (q.options.narrow.length > 0 && !matchesNarrow(source, flags, q.options.narrow)) return [];
  const event: Record<string, unknown> = { type: 'message', message: messageView(ce, q.options), flags };
  if (ce.localEcho && ce.localEcho.queueId === q.id) event.local_message_id = ce.localEcho.localId;
  return [event];
}

