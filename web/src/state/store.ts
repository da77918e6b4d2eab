import type { FetchMessagesResponse, Me, Message, PresenceInfo, RealmEmoji, RegisterResponse, ServerEvent, Stream, Subscription, User } from '../api/types';
import { type Narrow, narrowKey } from '../narrow/narrow';
import { messageMatches } from './match';
import { dmKey, messageDmKey, topicKey, type UnreadEntry, unreadEntryOf, unreadsFromRegister, type Unreads } from './unread';

/** The most message elements the open view keeps; loading more drops from the other end. */
export const MAX_VIEW_MESSAGES = 400;
/** A typing notification not renewed within this time is over (Zulip's 15 s). */
export const TYPING_EXPIRY_MS = 15_000;

export interface TopicSummary {
  name: string;
  maxId: number;
}

export interface TypingEntry {
  senderId: number;
  /** typingKey of the conversation. */
  key: string;
  expires: number;
}

export const streamTypingKey = (streamId: number, topic: string): string => `stream:${topicKey(streamId, topic)}`;
export const dmTypingKey = (key: string): string => `dm:${key}`;

/** The open view: a narrow and the contiguous window of its messages the page holds. */
export interface View {
  narrow: Narrow;
  key: string;
  /** Message ids in the window, ascending. */
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  error: string | null;
  /** Where the window opened (the first unread message, or the newest), for scrolling there once. */
  anchor: number | null;
  /** Bumped on every (re)open, so stale answers are dropped. */
  generation: number;
  /** Matching messages that arrived while the window was loading. */
  pending: number[];
  /** Set when the open topic was moved as a whole: the app follows it. */
  movedTo: Narrow | null;
}

export interface AppState {
  me: Me;
  realmName: string;
  /** register's realm_* settings. */
  realm: Record<string, unknown>;
  users: ReadonlyMap<number, User>;
  subscriptions: ReadonlyMap<number, Subscription>;
  streams: ReadonlyMap<number, Stream>;
  unread: Unreads;
  starred: ReadonlySet<number>;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  presence: ReadonlyMap<number, PresenceInfo>;
  userSettings: Readonly<Record<string, unknown>>;
  typing: readonly TypingEntry[];
  /** Topics by channel, most recent first. */
  topics: ReadonlyMap<number, readonly TopicSummary[]>;
  /** DM conversations by key: their latest message id. */
  dms: ReadonlyMap<string, number>;
  /** Messages the page holds: the view's and local echoes. */
  messages: ReadonlyMap<number, Message>;
  view: View;
  maxMessageId: number;
  connection: 'connecting' | 'connected' | 'reconnecting';
}

export type Action =
  | { type: 'register'; state: RegisterResponse; me: Me; realmName: string }
  | { type: 'events'; events: ServerEvent[]; now: number }
  | { type: 'narrow'; narrow: Narrow }
  | { type: 'loaded'; generation: number; direction: 'initial' | 'older' | 'newer'; response: FetchMessagesResponse }
  | { type: 'loadFailed'; generation: number; error: string }
  | { type: 'topics'; streamId: number; topics: { name: string; max_id: number }[] }
  | { type: 'recentDms'; messages: Message[] }
  | { type: 'localEcho'; message: Message }
  | { type: 'echoFailed'; localId: string; error: string }
  | { type: 'echoRemoved'; localId: string }
  | { type: 'echoSent'; localId: string; id: number }
  | { type: 'connection'; status: 'connecting' | 'connected' | 'reconnecting' }
  | { type: 'markRead'; ids: number[] }
  | { type: 'typingExpire'; now: number }
  | { type: 'presence'; presences: Record<string, PresenceInfo> }
  | { type: 'movedHandled' };

export function emptyView(narrow: Narrow, generation: number): View {
  return {
    narrow,
    key: narrowKey(narrow),
    ids: [],
    foundOldest: false,
    foundNewest: false,
    loading: true,
    error: null,
    anchor: null,
    generation,
    pending: [],
    movedTo: null,
  };
}

/** The state a register answer gives (the open narrow kept, its window to be loaded again). */
export function stateFromRegister(r: RegisterResponse, me: Me, realmName: string, narrow: Narrow = [], generation = 1): AppState {
  const users = new Map<number, User>();
  for (const u of [...(r.realm_users ?? []), ...((r.cross_realm_bots as User[] | undefined) ?? [])]) users.set(u.user_id, { ...u, is_active: true });
  for (const u of r.realm_non_active_users ?? []) users.set(u.user_id, { ...u, is_active: false });
  const subscriptions = new Map((r.subscriptions ?? []).map((s) => [s.stream_id, s]));
  const streams = new Map<number, Stream>();
  for (const s of r.streams ?? []) streams.set(s.stream_id, s);
  for (const s of [...(r.subscriptions ?? []), ...((r.unsubscribed as Subscription[] | undefined) ?? []), ...((r.never_subscribed as Stream[] | undefined) ?? [])]) {
    if (!streams.has(s.stream_id)) streams.set(s.stream_id, { stream_id: s.stream_id, name: s.name, description: s.description ?? '', invite_only: s.invite_only ?? false });
  }
  const unread = unreadsFromRegister(r.unread_msgs, me.user_id);
  const dms = new Map<string, number>();
  for (const [id, e] of unread) if (e.kind === 'dm') dms.set(e.key, Math.max(dms.get(e.key) ?? 0, id));
  const realm: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (k.startsWith('realm_') && k !== 'realm_users' && k !== 'realm_non_active_users') realm[k] = v;
  const presence = new Map<number, PresenceInfo>();
  for (const [id, p] of Object.entries(r.presences ?? {})) presence.set(Number(id), p);
  const meUser = users.get(me.user_id);
  return {
    me: meUser ? { ...me, full_name: meUser.full_name, role: meUser.role, avatar_url: meUser.avatar_url } : me,
    realmName: typeof r.realm_name === 'string' ? r.realm_name : realmName,
    realm,
    users,
    subscriptions,
    streams,
    unread,
    starred: new Set(r.starred_messages ?? []),
    realmEmoji: r.realm_emoji ?? {},
    presence,
    userSettings: r.user_settings ?? {},
    typing: [],
    topics: new Map(),
    dms,
    messages: new Map(),
    view: emptyView(narrow, generation),
    maxMessageId: r.max_message_id ?? 0,
    connection: 'connected',
  };
}

export function reduce(s: AppState, a: Action): AppState {
  switch (a.type) {
    case 'register':
      return stateFromRegister(a.state, a.me, a.realmName, s.view.narrow, s.view.generation + 1);
    case 'events':
      return a.events.reduce((st, e) => applyEvent(st, e, a.now), s);
    case 'narrow':
      return { ...s, view: emptyView(a.narrow, s.view.generation + 1), messages: echoesOnly(s.messages) };
    case 'loaded':
      return a.generation === s.view.generation ? loaded(s, a.direction, a.response) : s;
    case 'loadFailed':
      return a.generation === s.view.generation ? { ...s, view: { ...s.view, loading: false, error: a.error } } : s;
    case 'topics': {
      const topics = new Map(s.topics);
      topics.set(a.streamId, [...a.topics].sort((x, y) => y.max_id - x.max_id).map((t) => ({ name: t.name, maxId: t.max_id })));
      return { ...s, topics };
    }
    case 'recentDms': {
      const dms = new Map(s.dms);
      for (const m of a.messages) if (m.type === 'private') bumpDm(dms, messageDmKey(m, s.me.user_id), m.id);
      return { ...s, dms };
    }
    case 'localEcho':
      return addMessage(s, a.message);
    case 'echoFailed':
      return mapEcho(s, a.localId, (m) => ({ ...m, failed: a.error }));
    case 'echoRemoved':
      return removeEcho(s, a.localId);
    case 'echoSent': {
      // The message's event may have come first (it replaced the echo already).
      if (s.messages.has(a.id) && s.view.ids.includes(a.id)) return removeEcho(s, a.localId);
      return mapEcho(s, a.localId, (m) => ({ ...m, sent_id: a.id }));
    }
    case 'connection':
      return s.connection === a.status ? s : { ...s, connection: a.status };
    case 'markRead':
      return markRead(s, a.ids);
    case 'typingExpire': {
      const typing = s.typing.filter((t) => t.expires > a.now);
      return typing.length === s.typing.length ? s : { ...s, typing };
    }
    case 'presence': {
      const presence = new Map(s.presence);
      for (const [id, p] of Object.entries(a.presences)) presence.set(Number(id), p);
      return { ...s, presence };
    }
    case 'movedHandled':
      return { ...s, view: { ...s.view, movedTo: null } };
  }
}

const isEcho = (m: Message) => m.local_id !== undefined;

function echoesOnly(messages: ReadonlyMap<number, Message>): Map<number, Message> {
  return new Map([...messages].filter(([, m]) => isEcho(m)));
}

function bumpDm(dms: Map<string, number>, key: string, id: number): void {
  if ((dms.get(key) ?? 0) < id) dms.set(key, id);
}

const sortedUnion = (a: readonly number[], b: readonly number[]): number[] => [...new Set([...a, ...b])].sort((x, y) => x - y);

function loaded(s: AppState, direction: 'initial' | 'older' | 'newer', r: FetchMessagesResponse): AppState {
  const messages = new Map(s.messages);
  const unread = new Map(s.unread);
  for (const m of r.messages) {
    messages.set(m.id, m);
    const entry = unreadEntryOf(m, s.me.user_id);
    if (entry && !unread.has(m.id)) unread.set(m.id, entry);
  }
  const incoming = r.messages.map((m) => m.id);
  let view: View;
  if (direction === 'initial') {
    const echoes = [...messages.values()].filter((m) => isEcho(m) && messageMatches(s.view.narrow, m, s.me.user_id) === true).map((m) => m.id);
    const ids = sortedUnion(incoming, r.found_newest ? [...s.view.pending, ...echoes] : []);
    const anchor = r.anchor !== undefined ? (ids.find((id) => id >= r.anchor!) ?? ids.at(-1) ?? null) : (ids.at(-1) ?? null);
    view = { ...s.view, ids, foundOldest: r.found_oldest, foundNewest: r.found_newest, loading: false, error: null, anchor, pending: [] };
  } else if (direction === 'older') {
    let ids = sortedUnion(incoming, s.view.ids);
    let foundNewest = s.view.foundNewest;
    if (ids.length > MAX_VIEW_MESSAGES) {
      ids = ids.slice(0, MAX_VIEW_MESSAGES);
      foundNewest = false;
    }
    view = { ...s.view, ids, foundOldest: r.found_oldest, foundNewest };
  } else {
    let ids = sortedUnion(s.view.ids, incoming);
    let foundOldest = s.view.foundOldest;
    if (ids.length > MAX_VIEW_MESSAGES) {
      ids = ids.slice(ids.length - MAX_VIEW_MESSAGES);
      foundOldest = false;
    }
    view = { ...s.view, ids, foundNewest: r.found_newest, foundOldest };
  }
  return { ...s, messages: keepOnly(messages, view.ids), unread, view };
}

/** The messages of the window (and local echoes); the rest is dropped. */
function keepOnly(messages: Map<number, Message>, ids: readonly number[]): Map<number, Message> {
  const keep = new Set(ids);
  for (const [id, m] of messages) if (!keep.has(id) && !isEcho(m)) messages.delete(id);
  return messages;
}

/** A new message (event or local echo): unread, topics, conversations, and the view if it belongs there. */
function addMessage(s: AppState, m: Message): AppState {
  const myId = s.me.user_id;
  let { unread, topics, dms, view, messages } = s;
  const entry = isEcho(m) ? null : unreadEntryOf(m, myId);
  if (entry) unread = new Map(unread).set(m.id, entry);
  if (m.type === 'stream' && m.stream_id !== undefined && !isEcho(m)) {
    const list = (topics.get(m.stream_id) ?? []).filter((t) => t.name.toLowerCase() !== m.subject.toLowerCase());
    topics = new Map(topics).set(m.stream_id, [{ name: m.subject, maxId: m.id }, ...list]);
  }
  if (m.type === 'private' && !isEcho(m)) {
    const next = new Map(dms);
    bumpDm(next, messageDmKey(m, myId), m.id);
    dms = next;
  }
  if (messageMatches(view.narrow, m, myId) === true) {
    if (view.loading) {
      messages = new Map(messages).set(m.id, m);
      view = { ...view, pending: [...view.pending, m.id] };
    } else if (view.foundNewest && !view.ids.includes(m.id)) {
      let ids = sortedUnion(view.ids, [m.id]);
      let foundOldest = view.foundOldest;
      if (ids.length > MAX_VIEW_MESSAGES) {
        ids = ids.slice(ids.length - MAX_VIEW_MESSAGES);
        foundOldest = false;
      }
      view = { ...view, ids, foundOldest };
      messages = keepOnly(new Map(messages).set(m.id, m), ids);
    }
  } else if (isEcho(m)) {
    messages = new Map(messages).set(m.id, m);
  }
  const typing = s.typing.filter((t) => t.senderId !== m.sender_id);
  return { ...s, unread, topics, dms, view, messages, typing, maxMessageId: isEcho(m) ? s.maxMessageId : Math.max(s.maxMessageId, m.id) };
}

function findEcho(s: AppState, localId: string): Message | undefined {
  for (const m of s.messages.values()) if (m.local_id === localId) return m;
  return undefined;
}

function mapEcho(s: AppState, localId: string, f: (m: Message) => Message): AppState {
  const echo = findEcho(s, localId);
  if (!echo) return s;
  return { ...s, messages: new Map(s.messages).set(echo.id, f(echo)) };
}

function removeEcho(s: AppState, localId: string): AppState {
  const echo = findEcho(s, localId);
  if (!echo) return s;
  const messages = new Map(s.messages);
  messages.delete(echo.id);
  return { ...s, messages, view: { ...s.view, ids: s.view.ids.filter((id) => id !== echo.id), pending: s.view.pending.filter((id) => id !== echo.id) } };
}

function markRead(s: AppState, ids: readonly number[]): AppState {
  const unread = new Map(s.unread);
  let messages: Map<number, Message> | null = null;
  for (const id of ids) {
    unread.delete(id);
    const m = s.messages.get(id);
    if (m && !m.flags.includes('read')) {
      messages ??= new Map(s.messages);
      messages.set(id, { ...m, flags: [...m.flags, 'read'] });
    }
  }
  return { ...s, unread, messages: messages ?? s.messages };
}

// ── Events ──────────────────────────────────────────────────────────────────────────────────

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const idsOf = (e: ServerEvent): number[] => (Array.isArray(e.message_ids) ? (e.message_ids as number[]) : num(e.message_id) !== undefined ? [e.message_id as number] : []);

/** One event of GET /events applied to the state. */
export function applyEvent(s: AppState, e: ServerEvent, now: number): AppState {
  switch (e.type) {
    case 'message':
      return onMessage(s, e);
    case 'update_message':
      return onUpdateMessage(s, e);
    case 'delete_message':
      return onDelete(s, idsOf(e));
    case 'reaction':
      return onReaction(s, e);
    case 'update_message_flags':
      return onFlags(s, e);
    case 'subscription':
      return onSubscription(s, e);
    case 'stream':
      return onStream(s, e);
    case 'typing':
      return onTyping(s, e, now);
    case 'presence':
      return onPresence(s, e);
    case 'realm_user':
      return onRealmUser(s, e);
    case 'realm':
      return onRealm(s, e);
    case 'realm_emoji':
      return e.op === 'update' && typeof e.realm_emoji === 'object' ? { ...s, realmEmoji: e.realm_emoji as Record<string, RealmEmoji> } : s;
    case 'user_settings':
      return e.op === 'update' && typeof e.property === 'string' ? { ...s, userSettings: { ...s.userSettings, [e.property]: e.value } } : s;
    default:
      return s;
  }
}

function onMessage(s: AppState, e: ServerEvent): AppState {
  const raw = e.message as Message;
  const m: Message = { ...raw, flags: Array.isArray(e.flags) ? (e.flags as string[]) : (raw.flags ?? []), reactions: raw.reactions ?? [] };
  let st = s;
  const localId = str(e.local_message_id);
  if (localId !== undefined) st = removeEcho(st, localId);
  for (const echo of st.messages.values()) if (echo.sent_id === m.id && echo.local_id !== undefined) st = removeEcho(st, echo.local_id);
  if (st.messages.has(m.id) && st.view.ids.includes(m.id)) return st;
  return addMessage(st, m);
}

function onUpdateMessage(s: AppState, e: ServerEvent): AppState {
  const ids = idsOf(e);
  const messageId = num(e.message_id) ?? ids[0];
  const messages = new Map(s.messages);
  const edited = messages.get(messageId);
  if (e.rendering_only === true && typeof e.rendered_content === 'string') {
    // A new rendering only (a thumbnail finished): every message named, not an edit.
    for (const id of ids) {
      const m = messages.get(id);
      if (m) messages.set(id, { ...m, content: e.rendered_content });
    }
    return { ...s, messages };
  }
  if (edited && typeof e.rendered_content === 'string') {
    const flags = Array.isArray(e.flags) ? (e.flags as string[]) : edited.flags;
    messages.set(messageId, { ...edited, content: e.rendered_content, flags, last_edit_timestamp: num(e.edit_timestamp) ?? edited.last_edit_timestamp });
  }
  const newTopic = str(e.subject);
  const newStream = num(e.new_stream_id);
  if (newTopic === undefined && newStream === undefined) return { ...s, messages };
  return applyMove(s, e, ids, messages, newTopic, newStream);
}

function applyMove(s: AppState, e: ServerEvent, ids: number[], messages: Map<number, Message>, newTopic: string | undefined, newStream: number | undefined): AppState {
  const origStream = num(e.stream_id);
  const origTopic = str(e.orig_subject);
  const streamName = newStream !== undefined ? (s.streams.get(newStream)?.name ?? s.subscriptions.get(newStream)?.name) : undefined;
  for (const id of ids) {
    const m = messages.get(id);
    if (!m) continue;
    const moved: Message = { ...m, last_moved_timestamp: num(e.edit_timestamp) ?? m.last_moved_timestamp };
    if (newTopic !== undefined) moved.subject = newTopic;
    if (newStream !== undefined) {
      moved.stream_id = newStream;
      if (streamName !== undefined) moved.display_recipient = streamName;
    }
    messages.set(id, moved);
  }
  const unread = new Map(s.unread);
  for (const id of ids) {
    const u = unread.get(id);
    if (u?.kind === 'stream') unread.set(id, { ...u, streamId: newStream ?? u.streamId, topic: newTopic ?? u.topic });
  }
  const topics = new Map(s.topics);
  const targetStream = newStream ?? origStream;
  const targetTopic = newTopic ?? origTopic;
  if (origStream !== undefined && origTopic !== undefined && e.propagate_mode === 'change_all') {
    topics.set(origStream, (topics.get(origStream) ?? []).filter((t) => t.name.toLowerCase() !== origTopic.toLowerCase()));
  }
  if (targetStream !== undefined && targetTopic !== undefined && topics.has(targetStream)) {
    const maxId = Math.max(...ids);
    const rest = (topics.get(targetStream) ?? []).filter((t) => t.name.toLowerCase() !== targetTopic.toLowerCase());
    topics.set(targetStream, [...rest, { name: targetTopic, maxId }].sort((a, b) => b.maxId - a.maxId));
  }
  let view = s.view;
  const kept = view.ids.filter((id) => {
    const m = messages.get(id);
    return !m || messageMatches(view.narrow, m, s.me.user_id) !== false;
  });
  if (kept.length !== view.ids.length) view = { ...view, ids: kept };
  const wasThisTopic =
    origStream !== undefined &&
    origTopic !== undefined &&
    view.narrow.length === 2 &&
    view.narrow.some((t) => t.operator === 'channel' && t.operand === String(origStream) && !t.negated) &&
    view.narrow.some((t) => t.operator === 'topic' && t.operand.toLowerCase() === origTopic.toLowerCase() && !t.negated);
  if (wasThisTopic && e.propagate_mode !== 'change_one' && targetStream !== undefined && targetTopic !== undefined) {
    view = { ...view, movedTo: [{ operator: 'channel', operand: String(targetStream) }, { operator: 'topic', operand: targetTopic }] };
  }
  return { ...s, messages, unread, topics, view };
}

function onDelete(s: AppState, ids: number[]): AppState {
  if (ids.length === 0) return s;
  const gone = new Set(ids);
  const messages = new Map(s.messages);
  const unread = new Map(s.unread);
  const starred = new Set(s.starred);
  for (const id of ids) {
    messages.delete(id);
    unread.delete(id);
    starred.delete(id);
  }
  const view = { ...s.view, ids: s.view.ids.filter((id) => !gone.has(id)), pending: s.view.pending.filter((id) => !gone.has(id)) };
  return { ...s, messages, unread, starred, view };
}

function onReaction(s: AppState, e: ServerEvent): AppState {
  const id = num(e.message_id);
  const m = id === undefined ? undefined : s.messages.get(id);
  if (!m || id === undefined) return s;
  const userId = num(e.user_id) ?? num((e.user as { user_id?: number } | undefined)?.user_id);
  if (userId === undefined) return s;
  const code = str(e.emoji_code) ?? '';
  const name = str(e.emoji_name) ?? '';
  const type = str(e.reaction_type) ?? 'unicode_emoji';
  const same = (r: Message['reactions'][number]) => r.user_id === userId && (r.emoji_code === code && r.reaction_type === type);
  let reactions = m.reactions;
  if (e.op === 'add') {
    if (!reactions.some(same)) reactions = [...reactions, { emoji_name: name, emoji_code: code, reaction_type: type, user_id: userId }];
  } else {
    reactions = reactions.filter((r) => !same(r));
  }
  return { ...s, messages: new Map(s.messages).set(id, { ...m, reactions }) };
}

interface MessageDetail {
  type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
  user_ids?: number[];
  mentioned?: boolean;
}

function onFlags(s: AppState, e: ServerEvent): AppState {
  const flag = str(e.flag);
  const add = (e.op ?? e.operation) === 'add';
  const ids = Array.isArray(e.messages) ? (e.messages as number[]) : [];
  const all = e.all === true;
  if (flag === undefined) return s;
  const affected = all ? [...s.messages.keys()] : ids;
  const messages = new Map(s.messages);
  for (const id of affected) {
    const m = messages.get(id);
    if (!m) continue;
    const has = m.flags.includes(flag);
    if (add && !has) messages.set(id, { ...m, flags: [...m.flags, flag] });
    if (!add && has) messages.set(id, { ...m, flags: m.flags.filter((f) => f !== flag) });
  }
  let { unread, starred } = s;
  if (flag === 'read') {
    const next = all && add ? new Map<number, UnreadEntry>() : new Map(unread);
    if (add) for (const id of ids) next.delete(id);
    else {
      const details = (e.message_details ?? {}) as Record<string, MessageDetail>;
      for (const id of ids) {
        const d = details[String(id)];
        const m = messages.get(id);
        const entry = d ? entryOfDetail(d, s.me.user_id) : m ? unreadEntryOf(m, s.me.user_id) : null;
        if (entry) next.set(id, entry);
      }
    }
    unread = next;
  }
  if (flag === 'starred') {
    const next = new Set(starred);
    for (const id of ids) if (add) next.add(id);
    else next.delete(id);
    starred = next;
  }
  return { ...s, messages, unread, starred };
}

function entryOfDetail(d: MessageDetail, myId: number): UnreadEntry | null {
  const mentioned = d.mentioned === true;
  if (d.type === 'stream' && d.stream_id !== undefined) return { kind: 'stream', streamId: d.stream_id, topic: d.topic ?? '', mentioned };
  if (d.type === 'private') return { kind: 'dm', key: dmKey(d.user_ids ?? [], myId), mentioned };
  return null;
}

function onSubscription(s: AppState, e: ServerEvent): AppState {
  if (e.op === 'add' && Array.isArray(e.subscriptions)) {
    const subscriptions = new Map(s.subscriptions);
    const streams = new Map(s.streams);
    for (const sub of e.subscriptions as Subscription[]) {
      subscriptions.set(sub.stream_id, sub);
      streams.set(sub.stream_id, { stream_id: sub.stream_id, name: sub.name, description: sub.description, invite_only: sub.invite_only });
    }
    return { ...s, subscriptions, streams };
  }
  if (e.op === 'remove' && Array.isArray(e.subscriptions)) {
    const subscriptions = new Map(s.subscriptions);
    for (const sub of e.subscriptions as { stream_id: number }[]) subscriptions.delete(sub.stream_id);
    return { ...s, subscriptions };
  }
  if (e.op === 'update' && typeof e.stream_id === 'number' && typeof e.property === 'string') {
    const sub = s.subscriptions.get(e.stream_id);
    if (!sub) return s;
    const changed: Subscription = { ...sub, [e.property]: e.value };
    if (e.property === 'in_home_view') changed.is_muted = !e.value;
    return { ...s, subscriptions: new Map(s.subscriptions).set(e.stream_id, changed) };
  }
  return s;
}

function onStream(s: AppState, e: ServerEvent): AppState {
  if ((e.op === 'create' || e.op === 'delete') && Array.isArray(e.streams)) {
    const streams = new Map(s.streams);
    const subscriptions = new Map(s.subscriptions);
    for (const st of e.streams as Stream[]) {
      if (e.op === 'create') streams.set(st.stream_id, st);
      else {
        streams.delete(st.stream_id);
        subscriptions.delete(st.stream_id);
      }
    }
    return { ...s, streams, subscriptions };
  }
  if (e.op === 'update' && typeof e.stream_id === 'number' && typeof e.property === 'string') {
    const id = e.stream_id;
    const streams = new Map(s.streams);
    const subscriptions = new Map(s.subscriptions);
    const st = streams.get(id);
    if (st) streams.set(id, { ...st, [e.property]: e.value });
    const sub = subscriptions.get(id);
    if (sub) subscriptions.set(id, { ...sub, [e.property]: e.value });
    return { ...s, streams, subscriptions };
  }
  return s;
}

function onTyping(s: AppState, e: ServerEvent, now: number): AppState {
  const sender = num((e.sender as { user_id?: number } | undefined)?.user_id);
  if (sender === undefined || sender === s.me.user_id) return s;
  let key: string;
  if (e.message_type === 'stream' && typeof e.stream_id === 'number') key = streamTypingKey(e.stream_id, str(e.topic) ?? '');
  else if (Array.isArray(e.recipients)) key = dmTypingKey(dmKey((e.recipients as { user_id: number }[]).map((r) => r.user_id), s.me.user_id));
  else return s;
  const rest = s.typing.filter((t) => !(t.senderId === sender && t.key === key));
  return { ...s, typing: e.op === 'start' ? [...rest, { senderId: sender, key, expires: now + TYPING_EXPIRY_MS }] : rest };
}

function onPresence(s: AppState, e: ServerEvent): AppState {
  const presence = new Map(s.presence);
  if (e.presences && typeof e.presences === 'object') {
    for (const [id, p] of Object.entries(e.presences as Record<string, PresenceInfo>)) presence.set(Number(id), p);
  } else if (typeof e.user_id === 'number' && e.presence && typeof e.presence === 'object') {
    // The legacy form: {client: {status, timestamp}}.
    let active = presence.get(e.user_id)?.active_timestamp ?? 0;
    let idle = presence.get(e.user_id)?.idle_timestamp ?? 0;
    for (const c of Object.values(e.presence as Record<string, { status: string; timestamp: number }>)) {
      if (c.status === 'active') active = Math.max(active, c.timestamp);
      idle = Math.max(idle, c.timestamp);
    }
    presence.set(e.user_id, { active_timestamp: active, idle_timestamp: idle });
  } else return s;
  return { ...s, presence };
}

function onRealmUser(s: AppState, e: ServerEvent): AppState {
  const person = e.person as (Partial<User> & { user_id: number }) | undefined;
  if (!person || typeof person.user_id !== 'number') return s;
  const users = new Map(s.users);
  const old = users.get(person.user_id);
  if (e.op === 'add') users.set(person.user_id, { ...(person as User), is_active: true });
  else if (e.op === 'update' && old) users.set(person.user_id, { ...old, ...person });
  else if (e.op === 'remove' && old) users.set(person.user_id, { ...old, is_active: false });
  else return s;
  let me = s.me;
  if (person.user_id === me.user_id) {
    const u = users.get(me.user_id)!;
    me = { ...me, full_name: u.full_name, role: u.role, avatar_url: u.avatar_url };
  }
  return { ...s, users, me };
}

function onRealm(s: AppState, e: ServerEvent): AppState {
  if (e.op === 'update' && typeof e.property === 'string') {
    const realm = { ...s.realm, [`realm_${e.property}`]: e.value };
    return { ...s, realm, realmName: e.property === 'name' && typeof e.value === 'string' ? e.value : s.realmName };
  }
  if (e.op === 'update_dict' && e.data && typeof e.data === 'object') {
    const data = e.data as Record<string, unknown>;
    const realm = { ...s.realm };
    for (const [k, v] of Object.entries(data)) realm[`realm_${k}`] = v;
    return { ...s, realm, realmName: typeof data.name === 'string' ? data.name : s.realmName };
  }
  return s;
}

/** A tiny external store: the reducer's state, dispatch and subscribe (for useSyncExternalStore). */
export class Store {
  private listeners = new Set<() => void>();

  constructor(private state: AppState) {}

  getState = (): AppState => this.state;

  dispatch = (a: Action): void => {
    const next = reduce(this.state, a);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  };

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };
}
