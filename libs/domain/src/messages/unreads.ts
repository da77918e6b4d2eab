import { FLAG_BITS } from './flags.js';

/** An unread per-user row with what the `unread_msgs` summary needs (spec 30 §2.5). */
export interface UnreadRow {
  id: number;
  flags: number;
  channelId: number | null;
  topic: string;
  /** DMs: every participant, ascending (the user included). */
  participants: number[] | null;
  senderId: number;
}

export interface MuteState {
  mutedChannels: ReadonlySet<number>;
  /** `${channelId}:${lower(topic)}` → visibility policy (1 muted, 2 unmuted, 3 followed). */
  topicPolicies: ReadonlyMap<string, number>;
}

export const UNREADS_CAP = 50_000;
export const topicKey = (channelId: number, topic: string) => `${channelId}:${topic.toLowerCase()}`;

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

export function isMutedConversation(channelId: number, topic: string, m: MuteState): boolean {
  const policy = m.topicPolicies.get(topicKey(channelId, topic));
  if (policy === MUTED) return true;
  if (m.mutedChannels.has(channelId)) return policy !== UNMUTED && policy !== FOLLOWED;
  return false;
}

/** Zulip's aggregate_unread_data: rows in ascending id order, at most UNREADS_CAP + 1 of them. */
export function unreadSummary(userId: number, rows: readonly UnreadRow[], mutes: MuteState) {
  const capped = rows.slice(0, UNREADS_CAP);
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  const wildcard = FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
  for (const r of capped) {
    if (r.channelId === null) {
      const parts = r.participants ?? [userId];
      const others = parts.filter((p) => p !== userId);
      if (others.length <= 1) {
        const other = others[0] ?? userId;
        if (!pms.has(other)) pms.set(other, []);
        pms.get(other)!.push(r.id);
      } else {
        const key = parts.join(',');
        if (!huddles.has(key)) huddles.set(key, []);
        huddles.get(key)!.push(r.id);
      }
      count += 1;
      if ((r.flags & (FLAG_BITS.mentioned | FLAG_BITS.group_mentioned | wildcard)) !== 0) mentions.push(r.id);
      continue;
    }
    const key = topicKey(r.channelId, r.topic);
    const entry = streams.get(key) ?? { stream_id: r.channelId, topic: r.topic, unread_message_ids: [] };
    entry.unread_message_ids.push(r.id);
    streams.set(key, entry);
    const muted = isMutedConversation(r.channelId, r.topic, mutes);
    if (!muted) count += 1;
    if ((r.flags & (FLAG_BITS.mentioned | FLAG_BITS.group_mentioned)) !== 0 || ((r.flags & wildcard) !== 0 && !muted)) mentions.push(r.id);
  }
  return {
    count,
    pms: [...pms].sort(([a], [b]) => a - b).map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()].sort((a, b) => a.stream_id - b.stream_id || (a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : a.topic.toLowerCase() > b.topic.toLowerCase() ? 1 : 0)),
    huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: rows.length > UNREADS_CAP,
  };
}
