import { FLAG_BITS, flagsToApi, isMeMessage, type Message, type MessageEvent, type ReactionEvent, type Submessage, type TopicMove } from '@app/domain/messages';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@app/domain/realm';
import { clientComputesGravatar } from '@app/domain/users';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { userTopicEvent } from '../../channels/index.js';
import { avatarUrl } from '../../users/index.js';
import { presentSubmessage } from './messages.views.js';

/** A participant of a direct message, as `display_recipient` lists them. */
export interface MessageParticipant {
  id: number;
  email: string;
  fullName: string;
}

/** What a new message's `message` event shows besides the message itself. */
export interface NewMessageFacts {
  realmStringId: string;
  /** `email` is the API email; the real address only makes the Gravatar URL. */
  sender: {
    id: number;
    email: string;
    deliveryEmail: string;
    emailAddressVisibility: number;
    fullName: string;
    avatarVersion: number;
    avatarPath: string | null;
  };
  /** The channel, or every participant of the direct message (the sender included, in any order). */
  to: { channel: { id: number; name: string; inviteOnly: boolean } } | { participants: readonly MessageParticipant[] };
  /** Each recipient's flags bitmask, as written. */
  rows: readonly { userId: number; flags: number }[];
  localEcho?: { queueId: string; localId: string };
}

/**
 * The `message` event (spec 30 §7.1) of a message just stored, whoever sent it (a user, a
 * scheduled delivery, the Notification Bot), to the recipients of its rows, each with their
 * flags. The message carries both renderings (`__raw`), the raw topic (`__topic`) and whether
 * its client may compute the sender's Gravatar (`__client_gravatar`: only a Gravatar, of a
 * public address); each queue picks what its client asked for.
 */
export function newMessageEvent(stored: Message, f: NewMessageFacts): ClientEvent {
  const m = stored.snapshot();
  const channel = 'channel' in f.to ? f.to.channel : null;
  const participants = 'participants' in f.to ? [...f.to.participants].sort((a, b) => a.id - b.id) : [];
  const message: Record<string, unknown> = {
    id: m.id,
    sender_id: f.sender.id,
    content: m.renderedContent,
    __raw: m.content,
    __topic: m.topic,
    recipient_id: m.recipientId,
    timestamp: Math.floor(m.dateSent.getTime() / 1000),
    client: m.sendingClient,
    subject: channel ? (m.topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : m.topic) : '',
    topic_links: [],
    is_me_message: isMeMessage(m.content),
    reactions: [],
    submessages: stored.newSubmessages().map(presentSubmessage),
    sender_full_name: f.sender.fullName,
    sender_email: f.sender.email,
    sender_realm_str: f.realmStringId,
    display_recipient: channel ? channel.name : participants.map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false })),
    type: channel ? 'stream' : 'private',
    avatar_url: avatarUrl(f.sender),
    __client_gravatar: f.sender.avatarPath === null && clientComputesGravatar(true, f.sender.emailAddressVisibility),
    content_type: 'text/html',
  };
  if (channel) message.stream_id = channel.id;
  return {
    realmId: m.realmId,
    event: { type: 'message', message },
    userIds: f.rows.map((r) => r.userId),
    perUser: Object.fromEntries(f.rows.map((r) => [String(r.userId), { flags: flagsToApi(r.flags) }])),
    publicChannel: channel !== null && !channel.inviteOnly,
    localEcho: f.localEcho,
  };
}

type EventPayload = Record<string, unknown> & { type: string };
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export interface MessageUpdate {
  realmId: number;
  editorId: number;
  editedAt: Date;
  /** The message after the edit. */
  message: Message;
  /** What the edit recorded: `content_edited` (with the previous content), `moved` (with the move). */
  recorded: readonly MessageEvent[];
  /** The message's channel before the edit (null for a direct message). */
  source: { id: number; name: string } | null;
  /** Every user told, with the flags their client shows. */
  flags: ReadonlyMap<number, string[]>;
  /** Users who lost access to the moved messages: they get `delete_message` instead. */
  losers: ReadonlySet<number>;
}

/** The `update_message` event (spec 30 §7.2) of an edit's recorded events, and `delete_message` for users a move locks out. */
export function messageUpdateEvents(u: MessageUpdate): ClientEvent[] {
  const edited = u.recorded.find((e) => e.type === 'content_edited');
  const move = u.recorded.find((e) => e.type === 'moved')?.move ?? null;
  const m = u.message.snapshot();
  const ids = move === null ? [m.id] : [...move.messageIds].sort((a, b) => a - b);
  const event: EventPayload = {
    type: 'update_message',
    user_id: u.editorId,
    edit_timestamp: seconds(u.editedAt),
    message_id: m.id,
    message_ids: ids,
    rendering_only: false,
  };
  if (edited !== undefined) {
    Object.assign(event, {
      orig_content: edited.previous.content,
      orig_rendered_content: edited.previous.renderedContent,
      content: m.content,
      rendered_content: m.renderedContent,
      is_me_message: isMeMessage(m.content),
    });
  }
  if (u.source !== null) Object.assign(event, { stream_id: u.source.id, stream_name: u.source.name });
  if (move !== null) {
    Object.assign(event, { propagate_mode: move.propagateMode, orig_subject: move.from.topic });
    if (move.topicChanged) Object.assign(event, { subject: move.to.topic, topic_links: [] });
    if (move.channelChanged) event.new_stream_id = move.to.channelId;
  }
  const events: ClientEvent[] = [
    { realmId: u.realmId, event, userIds: [...u.flags.keys()], perUser: Object.fromEntries([...u.flags].map(([id, f]) => [String(id), { flags: f }])) },
  ];
  if (move !== null && u.losers.size > 0) {
    events.push({
      realmId: u.realmId,
      event: { type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: u.source!.id, topic: move.from.topic },
      userIds: [...u.losers],
    });
  }
  return events;
}

/**
 * Zulip's do_update_embedded_data: a message's rendering changed without an edit (its uploaded
 * image got its thumbnail, or lost its preview): `update_message` with `rendering_only`, no
 * editor, to the readers in `flags` (each with their flags).
 */
export function renderingUpdatedEvent(
  realmId: number,
  m: { id: number; content: string; renderedContent: string },
  at: Date,
  flags: ReadonlyMap<number, string[]>,
): ClientEvent {
  return {
    realmId,
    event: {
      type: 'update_message',
      user_id: null,
      edit_timestamp: seconds(at),
      message_id: m.id,
      message_ids: [m.id],
      content: m.content,
      rendered_content: m.renderedContent,
      rendering_only: true,
    },
    userIds: [...flags.keys()],
    perUser: Object.fromEntries([...flags].map(([id, f]) => [String(id), { flags: f }])),
  };
}

/** The `delete_message` events of what a deletion recorded (`deleted`), to the message's audience. */
export function messageDeletedEvents(realmId: number, recorded: readonly MessageEvent[], userIds: readonly number[]): ClientEvent[] {
  return recorded.flatMap((deleted) => {
    if (deleted.type !== 'deleted') return [];
    const event: EventPayload = { type: 'delete_message', message_ids: [deleted.messageId], message_type: deleted.channelId !== null ? 'stream' : 'private' };
    if (deleted.channelId !== null) Object.assign(event, { stream_id: deleted.channelId, topic: deleted.topic });
    return [{ realmId, event, userIds: [...userIds] }];
  });
}

/** `update_message_flags` for the user who changed them (spec 30 §7.4); `details` for `remove read`. */
export function flagsUpdatedEvent(
  realmId: number,
  userId: number,
  change: { flag: string; add: boolean; messages: readonly number[]; all?: boolean },
  details?: Record<string, Record<string, unknown>>,
): ClientEvent {
  const op = change.add ? 'add' : 'remove';
  const event: EventPayload = { type: 'update_message_flags', op, operation: op, flag: change.flag, messages: [...change.messages], all: change.all ?? false };
  if (details !== undefined) event.message_details = details;
  return { realmId, event, userIds: [userId] };
}

/** `message_details` of a `remove read` event, keyed by id as a string. */
export function unreadMessageDetails(
  userId: number,
  ids: readonly number[],
  messages: ReadonlyMap<number, { channelId: number | null; topic: string; recipientId: number }>,
  flags: ReadonlyMap<number, number>,
  participants: ReadonlyMap<number, number[]>,
): Record<string, Record<string, unknown>> {
  const mention = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;
  const details: Record<string, Record<string, unknown>> = {};
  for (const id of ids) {
    const m = messages.get(id)!;
    const d: Record<string, unknown> =
      m.channelId !== null
        ? { type: 'stream', stream_id: m.channelId, topic: m.topic }
        : { type: 'private', user_ids: (participants.get(m.recipientId) ?? []).filter((u) => u !== userId) };
    if (((flags.get(id) ?? 0) & mention) !== 0) d.mentioned = true;
    details[String(id)] = d;
  }
  return details;
}

/** `user_topic` events when users' preferences moved with a whole topic. */
export function topicVisibilityMovedEvents(
  realmId: number,
  move: TopicMove,
  visibility: { removed: readonly number[]; set: readonly { userId: number; policy: number; lastUpdated: Date }[] },
  now: Date,
): ClientEvent[] {
  return [
    ...visibility.removed.map((u) => userTopicEvent(realmId, u, move.from.channelId, move.from.topic, 0, now)),
    ...visibility.set.map((r) => userTopicEvent(realmId, r.userId, move.to.channelId, move.to.topic, r.policy, r.lastUpdated)),
  ];
}

/**
 * The `submessage` event (Zulip's do_add_submessage): the submessage as stored, to the message's
 * audience (event_recipient_ids_for_action_on_messages, as reactions).
 */
export function submessageEvent(realmId: number, s: Submessage, audience: readonly number[]): ClientEvent {
  return {
    realmId,
    event: { type: 'submessage', msg_type: s.msgType, message_id: s.messageId, submessage_id: s.id, sender_id: s.senderId, content: s.content },
    userIds: [...audience],
  };
}

/**
 * The `reaction` event (Zulip's notify_reaction_update): the reaction as stored, the reacting
 * user's ID and, for older clients, the deprecated `user` object (re-added in Zulip 10.0,
 * feature level 339), to the message's audience.
 */
export function reactionEvent(
  realmId: number,
  e: ReactionEvent,
  user: { id: number; email: string; fullName: string },
  audience: readonly number[],
): ClientEvent {
  const r = e.reaction;
  return {
    realmId,
    event: {
      type: 'reaction',
      op: e.type === 'reaction_added' ? 'add' : 'remove',
      user_id: user.id,
      user: { user_id: user.id, email: user.email, full_name: user.fullName },
      message_id: e.messageId,
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
    },
    userIds: [...audience],
  };
}

/**
 * The `delete_message` event of messages deleted together from one channel topic (Zulip's
 * do_delete_messages: the topic as the first of them stores it), to the action's audience.
 */
export function topicMessagesDeletedEvent(
  realmId: number,
  deleted: { channelId: number; topic: string; messageIds: readonly number[] },
  userIds: readonly number[],
): ClientEvent {
  return {
    realmId,
    event: { type: 'delete_message', message_ids: [...deleted.messageIds], message_type: 'stream', stream_id: deleted.channelId, topic: deleted.topic },
    userIds: [...userIds],
  };
}

/** Zulip's check_update_first_message_id: the channel's oldest message changed, told to the deletion's audience. */
export function firstMessageIdEvent(
  realmId: number,
  channel: { id: number; name: string },
  firstMessageId: number | null,
  userIds: readonly number[],
): ClientEvent {
  return {
    realmId,
    event: { type: 'stream', op: 'update', property: 'first_message_id', value: firstMessageId, stream_id: channel.id, name: channel.name },
    userIds: [...userIds],
  };
}
