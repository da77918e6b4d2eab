import { channelViewers, subscribingReveals, unsubscribingHides } from '@app/domain/channels';
import type { Role } from '@app/domain/users';
import type { ClientEvent } from '../../shared/application/client-event.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { presentChannel, presentSubscription } from './channel.views.js';
import { pairKey } from './channel.ports.js';

type Pair = { userId: number; channelId: number };

const groupBy = (pairs: readonly Pair[], key: (p: Pair) => number, value: (p: Pair) => number) => {
  const m = new Map<number, number[]>();
  for (const p of pairs) {
    const k = key(p);
    if (!m.has(k)) m.set(k, []);
    m.get(k)!.push(value(p));
  }
  return m;
};
const byChannel = (pairs: readonly Pair[]) => groupBy(pairs, (p) => p.channelId, (p) => p.userId);
const byUser = (pairs: readonly Pair[]) => groupBy(pairs, (p) => p.userId, (p) => p.channelId);
/** The organization's active users with their roles typed for the domain rules. */
const activeUsers = async (tx: Tx, realmId: number) => (await tx.channelQueries.activeUsers(realmId)).map((u) => ({ id: u.id, role: u.role as Role }));

/** `subscription` `add` for each new subscriber and `peer_add` for the others (a constant number of reads). */
export async function subscriptionAddEvents(tx: Tx, realmId: number, added: readonly Pair[]): Promise<ClientEvent[]> {
  if (added.length === 0) return [];
  const channelIds = [...new Set(added.map((p) => p.channelId))];
  const userIds = [...new Set(added.map((p) => p.userId))];
  const records = new Map((await tx.channelQueries.channelsByIds(realmId, channelIds)).map((c) => [c.id, c]));
  const rows = await tx.channels.subscriptionRows(userIds, channelIds);
  const subscribers = await tx.channelQueries.subscribers(channelIds);
  const groups = await tx.channelQueries.systemGroupNames(realmId);
  const users = await activeUsers(tx, realmId);
  const events: ClientEvent[] = [];
  // Who could not see the channel before learns of it first (private: non-administrators;
  // public, not web-public: guests).
  const roles = new Map(users.map((u) => [u.id, u.role]));
  for (const [channelId, addedUsers] of byChannel(added)) {
    const c = records.get(channelId)!;
    const newViewers = addedUsers.filter((u) => roles.has(u) && subscribingReveals(c, roles.get(u)!));
    if (newViewers.length > 0) events.push({ realmId, event: { type: 'stream', op: 'create', streams: [presentChannel(c, groups)] }, userIds: newViewers });
  }
  for (const [userId, ids] of byUser(added)) {
    const subscriptions = ids.map((id) => ({
      ...presentSubscription(records.get(id)!, rows.get(pairKey(userId, id))!, groups),
      subscribers: subscribers.get(id) ?? [],
    }));
    events.push({ realmId, event: { type: 'subscription', op: 'add', subscriptions }, userIds: [userId] });
  }
  for (const [channelId, addedUsers] of byChannel(added)) {
    const addedSet = new Set(addedUsers);
    const peers = channelViewers(records.get(channelId)!, users, subscribers.get(channelId) ?? []).filter((u) => !addedSet.has(u));
    if (peers.length > 0) {
      events.push({ realmId, event: { type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: addedUsers }, userIds: peers });
    }
  }
  return events;
}

/** `subscription` `remove` for each former subscriber and `peer_remove` for those who still see the channel. */
export async function subscriptionRemoveEvents(tx: Tx, realmId: number, removed: readonly Pair[], names: ReadonlyMap<number, string>): Promise<ClientEvent[]> {
  if (removed.length === 0) return [];
  const channelIds = [...new Set(removed.map((p) => p.channelId))];
  const records = new Map((await tx.channelQueries.channelsByIds(realmId, channelIds)).map((c) => [c.id, c]));
  const subscribers = await tx.channelQueries.subscribers(channelIds);
  const users = await activeUsers(tx, realmId);
  const events: ClientEvent[] = [];
  for (const [userId, ids] of byUser(removed)) {
    const subscriptions = ids.map((id) => ({ name: names.get(id)!, stream_id: id }));
    events.push({ realmId, event: { type: 'subscription', op: 'remove', subscriptions }, userIds: [userId] });
  }
  const roles = new Map(users.map((u) => [u.id, u.role]));
  for (const [channelId, removedUsers] of byChannel(removed)) {
    const c = records.get(channelId)!;
    // Who can no longer see a private channel is told it is gone for them.
    const lost = removedUsers.filter((u) => roles.has(u) && unsubscribingHides(c, roles.get(u)!));
    if (lost.length > 0) {
      events.push({ realmId, event: { type: 'stream', op: 'delete', stream_ids: [channelId], streams: [{ stream_id: channelId }] }, userIds: lost });
    }
    const removedSet = new Set(removedUsers);
    const peers = channelViewers(c, users, subscribers.get(channelId) ?? []).filter((u) => !removedSet.has(u));
    if (peers.length > 0) {
      events.push({ realmId, event: { type: 'subscription', op: 'peer_remove', stream_ids: [channelId], user_ids: removedUsers }, userIds: peers });
    }
  }
  return events;
}

/** `subscription` `update`: a mute change is announced twice, as `in_home_view` and as `is_muted`. */
export function subscriptionUpdateEvents(realmId: number, userId: number, channelId: number, column: string, value: unknown): ClientEvent[] {
  const update = (property: string, v: unknown): ClientEvent => ({
    realmId,
    event: { type: 'subscription', op: 'update', stream_id: channelId, property, value: v },
    userIds: [userId],
  });
  if (column === 'is_muted') return [update('in_home_view', !value), update('is_muted', value)];
  return [update(column, value)];
}

/** `stream` `create` for the users who can see the new channels. */
export async function streamCreateEvents(tx: Tx, realmId: number, channelIds: readonly number[]): Promise<ClientEvent[]> {
  if (channelIds.length === 0) return [];
  const records = await tx.channelQueries.channelsByIds(realmId, channelIds);
  const subscribers = await tx.channelQueries.subscribers(channelIds);
  const groups = await tx.channelQueries.systemGroupNames(realmId);
  const users = await activeUsers(tx, realmId);
  return records.map((c) => ({
    realmId,
    event: { type: 'stream', op: 'create', streams: [presentChannel(c, groups)] },
    userIds: channelViewers(c, users, subscribers.get(c.id) ?? []),
  }));
}

/** `stream` `update` of one property, for the channel's viewers. */
export async function streamUpdateEvents(
  tx: Tx,
  realmId: number,
  channelId: number,
  name: string,
  changes: readonly { property: string; value: unknown; extra?: Record<string, unknown> }[],
): Promise<ClientEvent[]> {
  if (changes.length === 0) return [];
  const c = await tx.channelQueries.channel(realmId, channelId);
  if (c === null) return [];
  const subscribers = (await tx.channelQueries.subscribers([channelId])).get(channelId) ?? [];
  const viewers = channelViewers(c, await activeUsers(tx, realmId), subscribers);
  return changes.map((ch) => ({
    realmId,
    event: { type: 'stream', op: 'update', stream_id: channelId, name, property: ch.property, value: ch.value, ...ch.extra },
    userIds: viewers,
  }));
}

/** A user's visibility policy for a topic changed (muted, unmuted, followed, inherit = 0). */
export function userTopicEvent(realmId: number, userId: number, channelId: number, topic: string, policy: number, now: Date): ClientEvent {
  return {
    realmId,
    event: { type: 'user_topic', stream_id: channelId, topic_name: topic, last_updated: Math.floor(now.getTime() / 1000), visibility_policy: policy },
    userIds: [userId],
  };
}
