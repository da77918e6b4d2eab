import type { Message, UnreadMsgs } from '../api/types';

/**
 * Unread messages, one entry per message id: where it is (a channel topic or a DM conversation)
 * and whether it mentions the user. Counts are computed from the entries, so every change
 * (new message, read elsewhere, moved, deleted) is one add or delete here.
 */
export type UnreadEntry =
  | { kind: 'stream'; streamId: number; topic: string; mentioned: boolean }
  | { kind: 'dm'; key: string; mentioned: boolean };

export type Unreads = ReadonlyMap<number, UnreadEntry>;

/** A DM conversation's key: the other people's ids, sorted, comma-joined (self-DM: my own id). */
export function dmKey(userIds: readonly number[], myId: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== myId).sort((a, b) => a - b);
  return others.length === 0 ? String(myId) : others.join(',');
}

export const dmKeyIds = (key: string): number[] => key.split(',').map(Number);

/** The DM key of a private message. */
export function messageDmKey(m: Pick<Message, 'display_recipient' | 'sender_id'>, myId: number): string {
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [m.sender_id];
  return dmKey(ids, myId);
}

export const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned'];

export const isMentioned = (flags: readonly string[]): boolean => flags.some((f) => MENTION_FLAGS.includes(f));

/** The entries of register's `unread_msgs`. */
export function unreadsFromRegister(u: UnreadMsgs | undefined, myId: number): Map<number, UnreadEntry> {
  const map = new Map<number, UnreadEntry>();
  if (!u) return map;
  const mentions = new Set(u.mentions ?? []);
  for (const s of u.streams ?? []) {
    for (const id of s.unread_message_ids) map.set(id, { kind: 'stream', streamId: s.stream_id, topic: s.topic, mentioned: mentions.has(id) });
  }
  for (const p of u.pms ?? []) {
    const other = p.other_user_id ?? p.sender_id ?? myId;
    for (const id of p.unread_message_ids) map.set(id, { kind: 'dm', key: dmKey([other], myId), mentioned: mentions.has(id) });
  }
  for (const h of u.huddles ?? []) {
    const key = dmKey(h.user_ids_string.split(',').map(Number), myId);
    for (const id of h.unread_message_ids) map.set(id, { kind: 'dm', key, mentioned: mentions.has(id) });
  }
  return map;
}

/** The entry of a message, if it is unread. */
export function unreadEntryOf(m: Message, myId: number): UnreadEntry | null {
  if (m.flags.includes('read')) return null;
  const mentioned = isMentioned(m.flags);
  if (m.type === 'stream' && m.stream_id !== undefined) return { kind: 'stream', streamId: m.stream_id, topic: m.subject, mentioned };
  if (m.type === 'private') return { kind: 'dm', key: messageDmKey(m, myId), mentioned };
  return null;
}

export interface UnreadCounts {
  /** All unread messages except in muted channels. */
  total: number;
  byStream: Map<number, number>;
  /** By topicKey(streamId, topic). */
  byTopic: Map<string, number>;
  byDm: Map<string, number>;
  dmTotal: number;
  mentions: number;
}

/** Counts per channel, topic and conversation. `mutedStreams` are left out of the total. */
export function unreadCounts(unreads: Unreads, mutedStreams: ReadonlySet<number> = new Set()): UnreadCounts {
  const c: UnreadCounts = { total: 0, byStream: new Map(), byTopic: new Map(), byDm: new Map(), dmTotal: 0, mentions: 0 };
  const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const e of unreads.values()) {
    if (e.mentioned) c.mentions += 1;
    if (e.kind === 'stream') {
      bump(c.byStream, e.streamId);
      bump(c.byTopic, topicKey(e.streamId, e.topic));
      if (!mutedStreams.has(e.streamId)) c.total += 1;
    } else {
      bump(c.byDm, e.key);
      c.dmTotal += 1;
      c.total += 1;
    }
  }
  return c;
}

/** The unread ids of a narrow's conversation, in order (for `n`, next unread topic). */
export function firstUnreadTopic(
  unreads: Unreads,
  after: { streamId: number; topic: string } | null,
  subscribed: (streamId: number) => boolean,
): { streamId: number; topic: string } | null {
  const topics = new Map<string, { streamId: number; topic: string; first: number }>();
  for (const [id, e] of unreads) {
    if (e.kind !== 'stream' || !subscribed(e.streamId)) continue;
    const k = topicKey(e.streamId, e.topic);
    const seen = topics.get(k);
    if (!seen || id < seen.first) topics.set(k, { streamId: e.streamId, topic: e.topic, first: id });
  }
  const ordered = [...topics.values()].sort((a, b) => a.first - b.first);
  const current = after ? topicKey(after.streamId, after.topic) : null;
  const next = ordered.find((t) => topicKey(t.streamId, t.topic) !== current);
  return next ? { streamId: next.streamId, topic: next.topic } : null;
}
