import {
  assertCanChangeSubscription,
  assertCanRemoveSubscribers,
  authorizeSubscribing,
  type Channel,
  hasContentAccess,
  invalidChannelId,
  invalidChannelName,
  joinChannels,
  leaveChannels,
  pairKey,
  parseChannelName,
  parseRetentionDays,
  parseSubscriptionChange,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionEvent,
  type SubscriptionPair,
  subscribesOthers,
  unsubscribesOthers,
} from '@app/domain/channels';
import { badRequest, DomainError } from '@app/domain/shared';
import { type Actor, guestsNotAllowed, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { type ActorFacts, loadActorFacts, resolvePrincipals } from './actor-facts.js';
import { subscriptionChangeEvents, userTopicChangeEvents } from './channel.events.js';
import { SubscriptionNotices } from './subscription-notices.js';
import { assertCanChooseTopicsPolicy, type ChannelCreationOptions, createChannels, type SubscriptionRequestItem } from './channel-creation.js';

export interface SubscribeRequest extends ChannelCreationOptions {
  subscriptions: SubscriptionRequestItem[];
  principals: number[] | string[] | null;
  authorizationErrorsFatal: boolean;
  messageRetentionDays: string | number;
  sendNewSubscriptionMessages: boolean;
  /** Announce new channels in the organization's new-channel announcements channel. */
  announce: boolean;
}

export interface UnsubscribeResult {
  removed: string[];
  notRemoved: string[];
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  alreadySubscribed: Record<string, string[]>;
  unauthorized?: string[];
  newSubscriptionMessagesSent?: boolean;
}

/** Channel names per user id (as a string), in order: the shape of the subscribe response. */
function namesByUser(pairs: readonly SubscriptionPair[], names: ReadonlyMap<number, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of pairs) (out[String(p.userId)] ??= []).push(names.get(p.channelId)!);
  return out;
}

/**
 * Subscribes every user to every channel, deciding pair by pair in the domain and writing all
 * pairs in one statement: returning users keep their colour, new ones get a palette colour.
 */
export async function subscribeUsers(
  tx: Tx,
  realmId: number,
  userIds: readonly number[],
  channels: readonly Channel[],
  requestedColors: ReadonlyMap<number, string>,
): Promise<{ subscribed: Record<string, string[]>; already: Record<string, string[]>; joined: SubscriptionPair[] }> {
  const channelIds = channels.map((c) => c.id);
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const existing = await tx.subscriptions.getForUpdate(userIds, channelIds);
  const usedColors = await tx.subscriptions.usedColors(userIds);
  const { joined, alreadySubscribed } = joinChannels(userIds, channelIds, existing, usedColors, requestedColors);
  await tx.subscriptions.save(realmId, joined);
  tx.afterCommit(await subscriptionChangeEvents(tx, realmId, joined.flatMap((s) => s.pullEvents()), names));
  return {
    subscribed: namesByUser(joined, names),
    already: namesByUser(alreadySubscribed, names),
    joined: joined.map((j) => ({ userId: j.userId, channelId: j.channelId })),
  };
}

/** The colour each channel was asked for, matching names exactly first, then case-insensitively. */
function requestedColors(items: readonly SubscriptionRequestItem[], channels: readonly Channel[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const c of channels) {
    const item = items.find((i) => i.name === c.name) ?? items.find((i) => i.name.toLowerCase() === c.name.toLowerCase());
    if (item?.color !== undefined) out.set(c.id, item.color);
  }
  return out;
}

/** Subscriptions and their personal settings: POST/DELETE /users/me/subscriptions, properties, muted topics. */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly notices: SubscriptionNotices,
  ) {}

  private facts(tx: Tx, actor: Actor): Promise<ActorFacts> {
    return loadActorFacts(tx, actor, this.config.webPublicStreamsEnabled);
  }

  /** Whether the caller is subscribed to each channel. */
  private async seenBy(tx: Tx, actor: Actor, channels: readonly Channel[]): Promise<{ channel: Channel; subscribed: boolean }[]> {
    const mine = await tx.subscriptions.records([actor.userId], channels.map((c) => c.id));
    return channels.map((channel) => ({ channel, subscribed: mine.get(pairKey(actor.userId, channel.id))?.active === true }));
  }

  /** POST /users/me/subscriptions (spec 20 §2): creates the missing channels, then subscribes. */
  subscribe(actor: Actor, req: SubscribeRequest): Promise<SubscribeResult> {
    return this.uow.run((tx) => this.subscribeIn(tx, actor, req));
  }

  /** DELETE /users/me/subscriptions (spec 20 §6). */
  unsubscribe(actor: Actor, rawNames: string[], principals: number[] | string[] | null): Promise<UnsubscribeResult> {
    return this.uow.run((tx) => this.unsubscribeIn(tx, actor, rawNames, principals));
  }

  /**
   * PATCH /users/me/subscriptions (Zulip's update_subscriptions_backend): the caller's own
   * subscribe (POST's defaults) then unsubscribe, in one transaction: both happen, or (on any
   * error) neither. The answer is the union of both answers.
   */
  async updateSubscriptions(actor: Actor, add: SubscriptionRequestItem[], remove: string[]): Promise<SubscribeResult & UnsubscribeResult> {
    if (add.length === 0 && remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    // The subscribe step is require_non_guest_user, even with nothing to add.
    if (isGuest(actor.role)) throw guestsNotAllowed();
    return this.uow.run(async (tx) => {
      const added = await this.subscribeIn(tx, actor, {
        subscriptions: add,
        principals: null,
        authorizationErrorsFatal: true,
        inviteOnly: false,
        isWebPublic: false,
        isDefaultStream: false,
        messageRetentionDays: 'realm_default',
        groupSettings: {},
        sendNewSubscriptionMessages: true,
        announce: false,
      });
      return { ...added, ...(await this.unsubscribeIn(tx, actor, remove, null)) };
    });
  }

  private async subscribeIn(tx: Tx, actor: Actor, req: SubscribeRequest): Promise<SubscribeResult> {
    const realmId = actor.realmId;
    const facts = await this.facts(tx, actor);
    const retention = parseRetentionDays(req.messageRetentionDays);
    assertCanChooseTopicsPolicy(facts, req.topicsPolicy);
    const items = req.subscriptions.map((s) => ({ ...s, name: parseChannelName(s.name) }));
    const existing = await tx.channels.findByNames(realmId, items.map((i) => i.name), true);
    const taken = new Set(existing.map((c) => c.name.toLowerCase()));
    // Channels to create: the requested names no channel has, case-insensitively.
    const toCreate = [...new Map(items.filter((i) => !taken.has(i.name.toLowerCase())).map((i) => [i.name.toLowerCase(), i])).values()];
    const now = this.clock.now();
    const created = toCreate.length > 0 ? await createChannels(tx, actor, facts, toCreate, req, retention, now) : [];
    const { authorized, unauthorized } = authorizeSubscribing(await this.seenBy(tx, actor, existing), facts.viewer, {
      othersToo: subscribesOthers(actor.userId, req.principals),
      authorizationErrorsFatal: req.authorizationErrorsFatal,
      realmCanAddSubscribers: facts.realmSettings.can_add_subscribers_group,
    });
    const principals = req.principals ?? [];
    const userIds = principals.length > 0 ? (await resolvePrincipals(tx, realmId, principals)).map((u) => u.id) : [actor.userId];
    const channels = [...authorized, ...created];
    const { subscribed, already, joined } = await subscribeUsers(tx, realmId, userIds, channels, requestedColors(items, channels));
    const result: SubscribeResult = { subscribed, alreadySubscribed: already };
    if (!req.authorizationErrorsFatal) result.unauthorized = unauthorized.map((c) => c.name);
    const sent = await this.notices.post(
      tx,
      realmId,
      {
        callerId: actor.userId,
        created,
        joined,
        channelNames: new Map(channels.map((c) => [c.id, c.name])),
        announce: req.announce,
        sendSubscriptionMessages: req.sendNewSubscriptionMessages,
      },
      now,
    );
    if (req.sendNewSubscriptionMessages) result.newSubscriptionMessagesSent = sent;
    return result;
  }

  private async unsubscribeIn(tx: Tx, actor: Actor, rawNames: string[], principals: number[] | string[] | null): Promise<UnsubscribeResult> {
    const realmId = actor.realmId;
    const targets =
      principals && principals.length > 0
        ? await resolvePrincipals(tx, realmId, principals)
        : [(await tx.users.findById(realmId, actor.userId))!];
    const names = rawNames.map(parseChannelName);
    const found = await tx.channels.findByNames(realmId, names, true);
    const byLower = new Map(found.map((c) => [c.name.toLowerCase(), c]));
    if (unsubscribesOthers(actor.userId, targets)) {
      const facts = await this.facts(tx, actor);
      assertCanRemoveSubscribers(await this.seenBy(tx, actor, found), facts.viewer);
    }
    const missing = names.find((n) => !byLower.has(n.toLowerCase()));
    if (missing !== undefined) {
      throw new DomainError(`Channel '${missing}' does not exist`, 'STREAM_DOES_NOT_EXIST', 'invalid', { stream: missing, channel_name: missing });
    }
    const channels = [...new Map(names.map((n) => [n.toLowerCase(), byLower.get(n.toLowerCase())!])).values()];
    const channelNames = new Map(channels.map((c) => [c.id, c.name]));
    const userIds = targets.map((u) => u.id);
    const existing = await tx.subscriptions.getForUpdate(userIds, channels.map((c) => c.id));
    const { left, notSubscribed } = leaveChannels(userIds, channels.map((c) => c.id), existing);
    await tx.subscriptions.save(realmId, left);
    tx.afterCommit(await subscriptionChangeEvents(tx, realmId, left.flatMap((s) => s.pullEvents()), channelNames));
    return { removed: left.map((s) => channelNames.get(s.channelId)!), notRemoved: notSubscribed.map((p) => channelNames.get(p.channelId)!) };
  }

  /**
   * POST /users/me/subscriptions/properties (spec 20 §5): every entry is validated first
   * (`validate`, by default parseSubscriptionChange), then applied in order.
   */
  async updateSubscriptionProperties(
    actor: Actor,
    entries: { stream_id: number; property: string; value: unknown }[],
    validate: (property: string, value: unknown, index: number) => SubscriptionChange = (p, v) => parseSubscriptionChange(p, v),
  ): Promise<void> {
    const changes = entries.map((e, i) => ({ channelId: e.stream_id, change: validate(e.property, e.value, i) }));
    await this.uow.run(async (tx) => {
      const facts = await this.facts(tx, actor);
      const changed = new Map<number, Subscription>();
      const recorded: SubscriptionEvent[] = [];
      for (const { channelId, change } of changes) {
        const channel = await tx.channels.findById(actor.realmId, channelId);
        const subscription =
          changed.get(channelId) ?? (channel ? (await tx.subscriptions.getForUpdate([actor.userId], [channelId])).get(pairKey(actor.userId, channelId)) : undefined);
        assertCanChangeSubscription(channelId, channel, facts.viewer, subscription);
        subscription.updateProperty(change);
        recorded.push(...subscription.pullEvents());
        changed.set(channelId, subscription);
      }
      await tx.subscriptions.save(actor.realmId, [...changed.values()]);
      tx.afterCommit(await subscriptionChangeEvents(tx, actor.realmId, recorded, new Map()));
    });
  }

  /** PATCH /users/me/subscriptions/muted_topics (spec 20 §7). */
  async muteTopic(actor: Actor, channel: { id?: number; name?: string }, topic: string, op: 'add' | 'remove'): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const now = this.clock.now();
      const found =
        channel.id !== undefined
          ? await tx.channels.findById(realmId, channel.id)
          : ((await tx.channels.findByNames(realmId, [channel.name!.trim()]))[0] ?? null);
      if (op === 'remove') {
        if (found === null) throw badRequest('Topic is not muted');
        if (await tx.channels.setTopicVisibility(realmId, actor.userId, found.id, topic, null, now)) {
          const muted = (await tx.channels.mutedTopics([actor.userId])).get(actor.userId)!;
          tx.afterCommit(userTopicChangeEvents(realmId, actor.userId, muted, { channelId: found.id, topic, policy: 0, now }));
        }
        return;
      }
      const facts = await this.facts(tx, actor);
      const subscribed = found !== null && (await this.seenBy(tx, actor, [found]))[0].subscribed;
      if (found === null || found.isArchived || !hasContentAccess(found, facts.viewer, subscribed)) {
        throw channel.id !== undefined ? invalidChannelId() : invalidChannelName(channel.name!);
      }
      if (!subscribed) throw badRequest('Not subscribed to channel');
      if (await tx.channels.setTopicVisibility(realmId, actor.userId, found.id, topic, 1, now)) {
        const muted = (await tx.channels.mutedTopics([actor.userId])).get(actor.userId)!;
        tx.afterCommit(userTopicChangeEvents(realmId, actor.userId, muted, { channelId: found.id, topic, policy: 1, now }));
      }
    });
  }
}
