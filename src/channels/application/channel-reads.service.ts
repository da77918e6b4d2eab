import {
  hasContentAccess,
  hasMetadataAccess,
  invalidChannelId,
  invalidChannelName,
  type Viewer,
} from '@app/domain/channels';
import { type Actor, assertCanAccessUser, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { UserQueries } from '../../users/index.js';
import { type ChannelFolderRecord, ChannelQueries, type ChannelRecord, type SubscriptionRecord } from './channel.ports.js';

export interface StreamsFilter {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

export interface SubscribedChannel {
  channel: ChannelRecord;
  subscription: SubscriptionRecord;
}

/** The read side of channels: lists and lookups filtered by what the caller may see. */
@Injectable()
export class ChannelReadsService {
  constructor(
    private readonly queries: ChannelQueries,
    private readonly users: UserQueries,
  ) {}

  private async viewer(actor: Actor): Promise<Viewer> {
    return { userId: actor.userId, role: actor.role, groupIds: await this.queries.groupIdsOfUser(actor.userId) };
  }

  private async subscribedIds(userId: number): Promise<Set<number>> {
    return new Set((await this.queries.subscriptionsOf(userId)).map((s) => s.channelId));
  }

  /** GET /streams (spec 20 §10 and Zulip's get_streams_for_user). */
  async streams(actor: Actor, f: StreamsFilter, ownerId: number | null): Promise<ChannelRecord[]> {
    const [all, viewer, subscribed] = await Promise.all([
      this.queries.channels(actor.realmId),
      this.viewer(actor),
      this.subscribedIds(actor.userId),
    ]);
    const channels = f.excludeArchived ? all.filter((c) => !c.isArchived) : all;
    if (f.includeAll) return channels.filter((c) => hasMetadataAccess(c, viewer, subscribed.has(c.id)));
    const ownerSubscribed = f.includeOwnerSubscribed && actor.isBot && ownerId !== null ? await this.subscribedIds(ownerId) : new Set<number>();
    return channels.filter(
      (c) =>
        (f.includeCanAccessContent && hasContentAccess(c, viewer, subscribed.has(c.id))) ||
        (f.includeSubscribed && subscribed.has(c.id)) ||
        (f.includePublic && !isGuest(actor.role) && !c.inviteOnly) ||
        (f.includeWebPublic && c.isWebPublic && !c.isArchived) ||
        ownerSubscribed.has(c.id),
    );
  }

  /** A channel the caller may see the metadata of (archived channels are not found). */
  async stream(actor: Actor, channelId: number): Promise<ChannelRecord> {
    const [c, viewer, subscribed] = await Promise.all([
      this.queries.channel(actor.realmId, channelId),
      this.viewer(actor),
      this.subscribedIds(actor.userId),
    ]);
    if (c === null || c.isArchived || !hasMetadataAccess(c, viewer, subscribed.has(c.id))) throw invalidChannelId();
    return c;
  }

  /** GET /get_stream_id: by name, case-insensitively, among channels the caller can read. */
  async streamId(actor: Actor, name: string): Promise<number> {
    const [all, viewer, subscribed] = await Promise.all([
      this.queries.channels(actor.realmId),
      this.viewer(actor),
      this.subscribedIds(actor.userId),
    ]);
    const c = all.find((ch) => ch.name.toLowerCase() === name.trim().toLowerCase());
    if (!c || c.isArchived || !hasContentAccess(c, viewer, subscribed.has(c.id))) throw invalidChannelName(name);
    return c.id;
  }

  async members(actor: Actor, channelId: number): Promise<number[]> {
    const c = await this.stream(actor, channelId);
    return (await this.queries.subscribers([c.id])).get(c.id)!;
  }

  /**
   * GET /users/{user_id}/subscriptions/{stream_id} (Zulip's get_subscription_backend): an
   * active, non-bot user of the organization, and a channel the caller may see.
   */
  async isSubscribed(actor: Actor, userId: number, channelId: number): Promise<boolean> {
    assertCanAccessUser(actor, await this.users.get(actor.realmId, userId), { allowBots: false, allowDeactivated: false, forAdmin: false });
    await this.stream(actor, channelId);
    return (await this.subscribedIds(userId)).has(channelId);
  }

  /**
   * GET /users/{user_id}/channels (Zulip 12, feature level 440): the channels the target user is
   * subscribed to, limited to those the caller has metadata access to.
   */
  async channelsOfUser(actor: Actor, userId: number): Promise<number[]> {
    assertCanAccessUser(actor, await this.users.get(actor.realmId, userId), { allowBots: true, allowDeactivated: true, forAdmin: false });
    const [all, viewer, mine, theirs] = await Promise.all([
      this.queries.channels(actor.realmId),
      this.viewer(actor),
      this.subscribedIds(actor.userId),
      this.subscribedIds(userId),
    ]);
    return all
      .filter((c) => theirs.has(c.id) && hasMetadataAccess(c, viewer, mine.has(c.id)))
      .map((c) => c.id)
      .sort((a, b) => a - b);
  }

  /** GET /users/me/subscriptions, sorted by channel name. */
  async subscriptions(actor: Actor): Promise<SubscribedChannel[]> {
    const [subs, all] = await Promise.all([this.queries.subscriptionsOf(actor.userId), this.queries.channels(actor.realmId)]);
    const byId = new Map(subs.map((s) => [s.channelId, s]));
    return all.filter((c) => byId.has(c.id)).map((c) => ({ channel: c, subscription: byId.get(c.id)! }));
  }

  subscribers(channelIds: readonly number[]): Promise<Map<number, number[]>> {
    return this.queries.subscribers(channelIds);
  }

  systemGroupNames(realmId: number): Promise<Map<number, string>> {
    return this.queries.systemGroupNames(realmId);
  }

  async folders(actor: Actor, includeArchived: boolean): Promise<ChannelFolderRecord[]> {
    const all = await this.queries.folders(actor.realmId);
    return includeArchived ? all : all.filter((f) => !f.isArchived);
  }
}
