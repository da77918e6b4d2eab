import {
  type ChannelEvent,
  channelViewers,
  subscribingReveals,
  type SubscriptionEvent,
  type SubscriptionPair,
  unsubscribingHides,
} from '@app/domain/channels';
import { isGuest, type Role } from '@app/domain/users';
import type { ClientEvent } from '../../shared/application/client-event.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { MutedTopic, SubscriptionRecord } from './channel.ports.js';
import { presentChannel, presentSubscription } from './channel.views.js';

type Pair = SubscriptionPair;

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
/** Subscriptions grouped by their user, in order. */
const bySubscriber = (subs: readonly SubscriptionRecord[]) => {
  const m = new Map<number, SubscriptionRecord[]>();
  for (const s of subs) m.set(s.userId, [...(m.get(s.userId) ?? []), s]);
  return m;
};
/** The organization's active users with their roles typed for the domain rules. */
const activeUsers = async (tx: Tx, realmId: number) => (await tx.channelQueries.activeUsers(realmId)).map((u) => ({ id: u.id, role: u.role as Role }));

/**
 * The client events of what subscriptions recorded (spec 30 §7.6): `add`/`peer_add` for those
 * who joined, `remove`/`peer_remove` for those who left, `update` for each property change.
 * `channelNames`: the names of the channels left (the `remove` payload carries them).
 */
export async function subscriptionChangeEvents(
  tx: Tx,
  realmId: number,
  recorded: readonly SubscriptionEvent[],
  channelNames: ReadonlyMap<number, string>,
): Promise<ClientEvent[]> {
  const joined: SubscriptionRecord[] = [];
  const left: Pair[] = [];
  const updates: ClientEvent[] = [];
  for (const e of recorded) {
    if (e.type === 'subscribed') joined.push(e.subscription);
    else if (e.type === 'unsubscribed') left.push({ userId: e.userId, channelId: e.channelId });
    else updates.push(...subscriptionUpdateEvents(realmId, e.userId, e.channelId, e.property, e.value));
  }
  return [...(await addEvents(tx, realmId, joined)), ...(await subscriptionRemoveEvents(tx, realmId, left, channelNames)), ...updates];
}

/** `subscription` `add` for each new subscriber and `peer_add` for the others (a constant number of reads). */
async function addEvents(tx: Tx, realmId: number, added: readonly SubscriptionRecord[]): Promise<ClientEvent[]> {
  if (added.length === 0) return [];
  const channelIds = [...new Set(added.map((p) => p.channelId))];
  const records = new Map((await tx.channelQueries.channelsByIds(realmId, channelIds)).map((c) => [c.id, c]));
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
  for (const [userId, subs] of bySubscriber(added)) {
    const subscriptions = subs.map((s) => ({
      ...presentSubscription(records.get(s.channelId)!, s, groups),
      subscribers: subscribers.get(s.channelId) ?? [],
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

/**
 * A visibility policy change as Zulip's bulk_do_set_user_topic_visibility_policy announces it to
 * the user: the legacy `muted_topics` event with the user's whole muted list (queues that asked
 * for `user_topic` never see it), then the `user_topic` event.
 */
export function userTopicChangeEvents(
  realmId: number,
  userId: number,
  muted: readonly MutedTopic[],
  change: { channelId: number; topic: string; policy: number; now: Date },
): ClientEvent[] {
  const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
  return [
    { realmId, event: { type: 'muted_topics', muted_topics: muted.map(([name, topic, at]) => [name, topic, seconds(at)]) }, userIds: [userId] },
    userTopicEvent(realmId, userId, change.channelId, change.topic, change.policy, change.now),
  ];
}

/**
 * The `stream` events of the changes a channel recorded (spec 30 §7.7): one `update` per change,
 * archiving and unarchiving also as the legacy `delete`/`create` for clients without the
 * archived_channels capability.
 */
export async function channelChangeEvents(
  tx: Tx,
  realmId: number,
  channel: { readonly id: number; readonly name: string },
  recorded: readonly ChannelEvent[],
): Promise<ClientEvent[]> {
  if (recorded.length === 0) return [];
  const record = await tx.channelQueries.channel(realmId, channel.id);
  if (record === null) return [];
  const view = presentChannel(record, await tx.channelQueries.systemGroupNames(realmId));
  const changes: { property: string; value: unknown; extra?: Record<string, unknown> }[] = [];
  const events: ClientEvent[] = [];
  for (const e of recorded) {
    if (e.type === 'privacy_changed') {
      changes.push({
        property: 'invite_only',
        value: view.invite_only,
        extra: { history_public_to_subscribers: view.history_public_to_subscribers, is_web_public: view.is_web_public },
      });
    } else if (e.type === 'property_changed') changes.push({ property: e.property, value: view[e.property] });
    else if (e.type === 'description_changed') {
      changes.push({ property: 'description', value: view.description, extra: { rendered_description: view.rendered_description } });
    } else if (e.type === 'renamed') changes.push({ property: 'name', value: e.name, extra: { name: e.oldName } });
    else events.push(...(await archivingEvents(tx, realmId, channel, e.type === 'archived', view)));
  }
  return [...(await streamUpdateEvents(tx, realmId, channel.id, channel.name, changes)), ...events];
}

/** `is_archived` for clients with the archived_channels capability; `delete` / `create` for the others. */
async function archivingEvents(
  tx: Tx,
  realmId: number,
  channel: { readonly id: number; readonly name: string },
  archived: boolean,
  view: Record<string, unknown>,
): Promise<ClientEvent[]> {
  const [update] = await streamUpdateEvents(tx, realmId, channel.id, channel.name, [{ property: 'is_archived', value: archived }]);
  const legacy = archived
    ? { type: 'stream', op: 'delete', stream_ids: [channel.id], streams: [{ stream_id: channel.id }] }
    : { type: 'stream', op: 'create', streams: [view] };
  return [
    { ...update, capability: { name: 'archived_channels', has: true } },
    { realmId, event: legacy, userIds: update.userIds, capability: { name: 'archived_channels', has: false } },
  ];
}

/**
 * Zulip's notify_default_streams: the ids of every default channel, for the organization's active
 * users who are not guests (guests' realm_default_streams is always empty).
 */
export async function defaultChannelsEvent(tx: Tx, realmId: number): Promise<ClientEvent> {
  const ids = await tx.channelQueries.defaultChannelIds(realmId);
  const recipients = (await tx.channelQueries.activeUsers(realmId)).filter((u) => !isGuest(u.role as Role)).map((u) => u.id);
  return { realmId, event: { type: 'default_streams', default_streams: ids }, userIds: recipients };
}
