import {
  assertCanCreateChannel,
  assertCanRemoveSubscribers,
  canAddSubscribers,
  Channel,
  CHANNEL_GROUP_SETTINGS,
  channelAlreadyExists,
  channelEmailLocalPart,
  type ChannelGroupSettingName,
  effectiveHistory,
  hasContentAccess,
  holds,
  invalidChannelId,
  isChannelAdministrator,
  normaliseDescription,
  parseChannelFolderName,
  parseChannelName,
  parseRetentionDays,
  parseSubscriptionChange,
  pickColors,
  type SubscriptionChange,
  type TopicsPolicy,
  type Viewer,
} from '@app/domain/channels';
import { badRequest, DomainError, insufficientPermission, paragraphHtml } from '@app/domain/shared';
import {
  type Actor,
  expectationMismatch,
  groupSettingEquals,
  type GroupSettingValue,
  isAdmin,
  isOwner,
  normaliseGroupSetting,
  SystemGroup,
  validateGroupSetting,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import type { UserRecord } from '../../users/index.js';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { presentChannel } from './channel.views.js';
import { pairKey } from './channel.ports.js';
import {
  streamCreateEvents,
  streamUpdateEvents,
  subscriptionAddEvents,
  subscriptionRemoveEvents,
  subscriptionUpdateEvents,
  userTopicEvent,
} from './channel.events.js';

export interface SubscriptionRequestItem {
  name: string;
  color?: string;
  description?: string;
}

export interface SubscribeRequest {
  subscriptions: SubscriptionRequestItem[];
  principals: number[] | string[] | null;
  authorizationErrorsFatal: boolean;
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays: string | number;
  topicsPolicy?: TopicsPolicy;
  folderId?: number | null;
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
  sendNewSubscriptionMessages: boolean;
}

/** What a request says about the channels it creates. */
export type ChannelCreationOptions = Pick<
  SubscribeRequest,
  'inviteOnly' | 'isWebPublic' | 'isDefaultStream' | 'historyPublicToSubscribers' | 'topicsPolicy' | 'folderId' | 'groupSettings'
>;

export interface CreateChannelRequest extends ChannelCreationOptions {
  name: string;
  description: string;
  subscribers: number[];
  messageRetentionDays: string | number;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  alreadySubscribed: Record<string, string[]>;
  unauthorized?: string[];
  newSubscriptionMessagesSent?: boolean;
}

export interface UpdateChannelRequest {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  isArchived?: boolean;
  folderId?: number | null;
  topicsPolicy?: TopicsPolicy;
  groupSettings: Partial<Record<ChannelGroupSettingName, { new: GroupSettingValue; old?: GroupSettingValue }>>;
}

/** Everything the permission rules need about the actor and the organization, resolved once. */
interface Context {
  viewer: Viewer;
  realmSettings: Record<string, GroupSettingValue>;
  systemGroups: Map<string, number>;
  webPublicEnabled: boolean;
  stringId: string;
}

export const noSuchUser = () => badRequest('No such user');

@Injectable()
export class ChannelsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly secrets: Secrets,
  ) {}

  private async context(tx: Tx, actor: Actor): Promise<Context> {
    // One connection per transaction: its queries run one after the other.
    const groupIds = await tx.groups.groupIdsOfUser(actor.userId);
    const realmSettings = await tx.realms.groupSettings(actor.realmId);
    const systemGroups = await tx.groups.systemGroupIds(actor.realmId);
    const realm = await tx.realms.get(actor.realmId);
    return {
      viewer: { userId: actor.userId, role: actor.role, groupIds },
      realmSettings,
      systemGroups,
      webPublicEnabled: this.config.webPublicStreamsEnabled && realm.enableSpectatorAccess,
      stringId: realm.stringId,
    };
  }

  private holdsRealm(ctx: Context, setting: string): boolean {
    return holds(ctx.viewer, ctx.realmSettings[setting]);
  }

  /** Users named by `principals` (ids or emails); unknown → No such user, deactivated → User is deactivated. */
  private async resolvePrincipals(tx: Tx, realmId: number, principals: number[] | string[]): Promise<UserRecord[]> {
    const out: UserRecord[] = [];
    if (principals.length > 0 && typeof principals[0] === 'number') {
      const ids = principals as number[];
      const found = await tx.users.findManyByIds(realmId, ids);
      for (const id of ids) out.push(this.checkPrincipal(found.get(id)));
    } else {
      const emails = principals as string[];
      const found = await tx.users.findManyByEmails(realmId, emails);
      for (const e of emails) out.push(this.checkPrincipal(found.get(e.trim().toLowerCase())));
    }
    return [...new Map(out.map((u) => [u.id, u])).values()];
  }

  private checkPrincipal(u: UserRecord | undefined): UserRecord {
    if (u === undefined || u.isSystemBot) throw noSuchUser();
    if (!u.isActive) throw badRequest('User is deactivated');
    return u;
  }

  private async validateSetting(tx: Tx, realmId: number, name: ChannelGroupSettingName, value: GroupSettingValue): Promise<void> {
    const groups = typeof value === 'number' ? [value] : [...value.directSubgroups];
    const users = typeof value === 'number' ? [] : [...value.directMembers];
    validateGroupSetting(
      name,
      value,
      CHANNEL_GROUP_SETTINGS[name].config,
      await tx.groups.facts(realmId, groups),
      await tx.groups.activeUserIds(realmId, users),
    );
  }

  /** POST /users/me/subscriptions (spec 20 §2). */
  async subscribe(actor: Actor, req: SubscribeRequest): Promise<SubscribeResult> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const ctx = await this.context(tx, actor);
      const retention = parseRetentionDays(req.messageRetentionDays);
      if (req.topicsPolicy !== undefined && req.topicsPolicy !== 'inherit' && !this.canSetTopicsPolicy(ctx)) {
        throw insufficientPermission();
      }
      const items = req.subscriptions.map((s) => ({ ...s, name: parseChannelName(s.name) }));
      const existing = await tx.channels.findByNames(realmId, items.map((i) => i.name), true);
      const byLowerName = new Map(existing.map((c) => [c.name.toLowerCase(), c]));

      // Channels to create: the requested names no channel has, case-insensitively.
      const toCreate = [...new Map(items.filter((i) => !byLowerName.has(i.name.toLowerCase())).map((i) => [i.name.toLowerCase(), i])).values()];
      const created: Channel[] = [];
      if (toCreate.length > 0) {
        created.push(...(await this.createChannels(tx, actor, ctx, toCreate, req, retention)));
      }

      const subscribedToExisting = await tx.channels.subscriptionRows([actor.userId], existing.map((c) => c.id));
      const isSubscribed = (c: Channel) => subscribedToExisting.get(pairKey(actor.userId, c.id))?.active === true;
      const unauthorized = existing.filter((c) => !hasContentAccess(c, ctx.viewer, isSubscribed(c)));
      if (unauthorized.length > 0 && req.authorizationErrorsFatal) {
        throw badRequest(`Unable to access channel (${unauthorized[0].name}).`);
      }
      const authorized = existing.filter((c) => !unauthorized.includes(c));
      const principals = req.principals ?? [];
      const othersToo =
        principals.length > 0 && !(typeof principals[0] === 'number' && (principals as number[]).every((id) => id === actor.userId));
      if (othersToo) {
        const realmCanAdd = ctx.realmSettings.can_add_subscribers_group;
        if (authorized.some((c) => !canAddSubscribers(c, ctx.viewer, isSubscribed(c), realmCanAdd))) {
          throw insufficientPermission();
        }
      }
      const targets = principals.length > 0 ? await this.resolvePrincipals(tx, realmId, principals) : null;
      const userIds = targets ? targets.map((u) => u.id) : [actor.userId];

      const channels = [...authorized, ...created];
      const requestedColor = new Map<number, string>();
      for (const c of channels) {
        const item = items.find((i) => i.name === c.name) ?? items.find((i) => i.name.toLowerCase() === c.name.toLowerCase());
        if (item?.color !== undefined) requestedColor.set(c.id, item.color);
      }
      const { subscribed, already } = await this.subscribeUsers(tx, realmId, userIds, channels, requestedColor);
      const result: SubscribeResult = { subscribed, alreadySubscribed: already };
      if (!req.authorizationErrorsFatal) result.unauthorized = unauthorized.map((c) => c.name);
      // Notification-bot messages arrive with the messages module; none were sent.
      if (req.sendNewSubscriptionMessages) result.newSubscriptionMessagesSent = false;
      return result;
    });
  }

  /**
   * Subscribes every user to every channel in a constant number of statements. Users who
   * never had a subscription get a palette colour; returning ones keep theirs.
   */
  private async subscribeUsers(
    tx: Tx,
    realmId: number,
    userIds: readonly number[],
    channels: readonly Channel[],
    requestedColor: ReadonlyMap<number, string>,
  ): Promise<{ subscribed: Record<string, string[]>; already: Record<string, string[]> }> {
    const rows = await tx.channels.subscriptionRows(userIds, channels.map((c) => c.id));
    const used = await tx.channels.usedColors(userIds);
    const subscribed: Record<string, string[]> = {};
    const already: Record<string, string[]> = {};
    const toSubscribe: { userId: number; channelId: number; color: string }[] = [];
    for (const userId of userIds) {
      const fresh = channels.filter((c) => !rows.has(pairKey(userId, c.id))).map((c) => c.id);
      const colors = pickColors(used.get(userId) ?? new Set(), fresh, requestedColor);
      for (const c of channels) {
        const row = rows.get(pairKey(userId, c.id));
        if (row?.active) {
          (already[String(userId)] ??= []).push(c.name);
          continue;
        }
        (subscribed[String(userId)] ??= []).push(c.name);
        toSubscribe.push({ userId, channelId: c.id, color: row?.color ?? colors.get(c.id)! });
      }
    }
    await tx.channels.subscribe(realmId, toSubscribe);
    tx.afterCommit(await subscriptionAddEvents(tx, realmId, toSubscribe));
    return { subscribed, already };
  }

  /** POST /channels/create: one channel, its subscribers listed explicitly (the creator is not added). */
  async createChannel(actor: Actor, req: CreateChannelRequest): Promise<number> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const name = parseChannelName(req.name);
      if (await tx.channels.nameTaken(realmId, name)) throw channelAlreadyExists(name);
      const ctx = await this.context(tx, actor);
      const retention = parseRetentionDays(req.messageRetentionDays);
      if (req.topicsPolicy !== undefined && req.topicsPolicy !== 'inherit' && !this.canSetTopicsPolicy(ctx)) {
        throw insufficientPermission();
      }
      const [channel] = await this.createChannels(tx, actor, ctx, [{ name, description: req.description }], req, retention);
      const users = await this.resolvePrincipals(tx, realmId, req.subscribers);
      await this.subscribeUsers(tx, realmId, users.map((u) => u.id), [channel], new Map());
      return channel.id;
    });
  }

  private canSetTopicsPolicy(ctx: Context): boolean {
    return isAdmin(ctx.viewer.role) || this.holdsRealm(ctx, 'can_set_topics_policy_group');
  }

  private async createChannels(
    tx: Tx,
    actor: Actor,
    ctx: Context,
    items: SubscriptionRequestItem[],
    req: ChannelCreationOptions,
    retention: number | null,
  ): Promise<Channel[]> {
    const realmId = actor.realmId;
    const nobody = ctx.systemGroups.get(SystemGroup.NOBODY)!;
    const given: Partial<Record<ChannelGroupSettingName, GroupSettingValue>> = {};
    for (const [name, value] of Object.entries(req.groupSettings) as [ChannelGroupSettingName, GroupSettingValue][]) {
      if (value === undefined) continue;
      given[name] = normaliseGroupSetting(value, nobody);
      await this.validateSetting(tx, realmId, name, given[name]);
    }
    const request = {
      inviteOnly: req.inviteOnly,
      isWebPublic: req.isWebPublic,
      historyPublicToSubscribers: req.historyPublicToSubscribers,
      isDefault: req.isDefaultStream,
      messageRetentionDays: retention,
      groupSettings: given,
    };
    assertCanCreateChannel(request, {
      everyoneGroupId: ctx.systemGroups.get(SystemGroup.EVERYONE)!,
      nobodyGroupId: nobody,
      isAdmin: isAdmin(actor.role),
      isOwner: isOwner(actor.role),
      canSetDeleteMessagePolicy: isAdmin(actor.role) || this.holdsRealm(ctx, 'can_set_delete_message_policy_group'),
      canCreatePrivate: this.holdsRealm(ctx, 'can_create_private_channel_group'),
      canCreatePublic: this.holdsRealm(ctx, 'can_create_public_channel_group'),
      webPublicEnabled: ctx.webPublicEnabled,
      canCreateWebPublic: this.holdsRealm(ctx, 'can_create_web_public_channel_group'),
    });
    if (req.folderId !== undefined && req.folderId !== null && !(await tx.channels.folderExists(realmId, req.folderId))) {
      throw badRequest('Invalid channel folder ID');
    }
    const isWebPublic = req.isWebPublic;
    const inviteOnly = req.inviteOnly && !isWebPublic;
    const history = isWebPublic ? true : effectiveHistory({ inviteOnly, historyPublicToSubscribers: req.historyPublicToSubscribers });
    const now = this.clock.now();
    const created: Channel[] = [];
    for (const item of items) {
      const groupIds = {} as Record<ChannelGroupSettingName, number>;
      for (const [name, def] of Object.entries(CHANNEL_GROUP_SETTINGS) as [ChannelGroupSettingName, (typeof CHANNEL_GROUP_SETTINGS)[ChannelGroupSettingName]][]) {
        const value: GroupSettingValue =
          given[name] ??
          (def.default === 'channel_creator'
            ? { directMembers: [actor.userId], directSubgroups: [] }
            : ctx.systemGroups.get(def.default)!);
        groupIds[name] = await tx.groups.storeSettingValue(realmId, value);
      }
      const description = normaliseDescription(item.description ?? '');
      const id = await tx.channels.insert({
        realmId,
        name: item.name,
        description,
        renderedDescription: paragraphHtml(description),
        inviteOnly,
        isWebPublic,
        historyPublicToSubscribers: history,
        messageRetentionDays: retention,
        topicsPolicy: req.topicsPolicy ?? 'inherit',
        folderId: req.folderId ?? null,
        dateCreated: now,
        creatorId: actor.userId,
        groupIds,
      });
      created.push((await tx.channels.findById(realmId, id))!);
    }
    if (req.isDefaultStream) await tx.channels.setDefault(realmId, created.map((c) => c.id), true);
    tx.afterCommit(await streamCreateEvents(tx, realmId, created.map((c) => c.id)));
    return created;
  }

  /** DELETE /users/me/subscriptions (spec 20 §6). */
  async unsubscribe(actor: Actor, rawNames: string[], principals: number[] | string[] | null): Promise<{ removed: string[]; notRemoved: string[] }> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const targets =
        principals && principals.length > 0
          ? await this.resolvePrincipals(tx, realmId, principals)
          : [(await tx.users.findById(realmId, actor.userId))!];
      const othersToo = targets.some((u) => u.id !== actor.userId && !(u.isBot && u.botOwnerId === actor.userId));
      const names = rawNames.map(parseChannelName);
      const found = await tx.channels.findByNames(realmId, names, true);
      const byLower = new Map(found.map((c) => [c.name.toLowerCase(), c]));
      if (othersToo) {
        const ctx = await this.context(tx, actor);
        const mine = await tx.channels.subscriptionRows([actor.userId], found.map((c) => c.id));
        assertCanRemoveSubscribers(
          found.map((c) => ({ channel: c, subscribed: mine.get(pairKey(actor.userId, c.id))?.active === true })),
          ctx.viewer,
        );
      }
      const missing = names.find((n) => !byLower.has(n.toLowerCase()));
      if (missing !== undefined) {
        throw new DomainError(`Channel '${missing}' does not exist`, 'STREAM_DOES_NOT_EXIST', 'invalid', {
          stream: missing,
          channel_name: missing,
        });
      }
      const channels = [...new Map(names.map((n) => [n.toLowerCase(), byLower.get(n.toLowerCase())!])).values()];
      const rows = await tx.channels.subscriptionRows(targets.map((u) => u.id), channels.map((c) => c.id));
      const removed: string[] = [];
      const notRemoved: string[] = [];
      const pairs: { userId: number; channelId: number }[] = [];
      for (const c of channels) {
        for (const u of targets) {
          if (rows.get(pairKey(u.id, c.id))?.active) {
            removed.push(c.name);
            pairs.push({ userId: u.id, channelId: c.id });
          } else notRemoved.push(c.name);
        }
      }
      await tx.channels.unsubscribe(pairs);
      tx.afterCommit(await subscriptionRemoveEvents(tx, realmId, pairs, new Map(channels.map((c) => [c.id, c.name]))));
      return { removed, notRemoved };
    });
  }

  /** Access for PATCH and DELETE /streams/{id} (spec 20 §3.2): channel administrators only. */
  private async loadForAdministration(tx: Tx, actor: Actor, ctx: Context, channelId: number): Promise<{ channel: Channel; contentAccess: boolean }> {
    const channel = await tx.channels.findById(actor.realmId, channelId, true);
    if (channel === null) throw invalidChannelId();
    const sub = await tx.channels.subscriptionRows([actor.userId], [channel.id]);
    const contentAccess = hasContentAccess(channel, ctx.viewer, sub.get(pairKey(actor.userId, channel.id))?.active === true);
    if (!isChannelAdministrator(channel, ctx.viewer)) {
      if (contentAccess) {
        throw new DomainError('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
      }
      throw invalidChannelId();
    }
    return { channel, contentAccess };
  }

  /** PATCH /streams/{id} (spec 20 §3), all in one transaction. */
  async updateChannel(actor: Actor, channelId: number, req: UpdateChannelRequest): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const ctx = await this.context(tx, actor);
      const { channel, contentAccess } = await this.loadForAdministration(tx, actor, ctx, channelId);
      const defaults = await tx.channels.defaultChannelIds(realmId);
      channel.changePrivacy(
        { isPrivate: req.isPrivate, isWebPublic: req.isWebPublic, historyPublicToSubscribers: req.historyPublicToSubscribers },
        {
          contentAccess,
          canCreatePrivate: this.holdsRealm(ctx, 'can_create_private_channel_group'),
          canCreatePublic: this.holdsRealm(ctx, 'can_create_public_channel_group'),
          webPublicEnabled: ctx.webPublicEnabled,
          canCreateWebPublic: this.holdsRealm(ctx, 'can_create_web_public_channel_group'),
          isDefaultChannel: defaults.has(channel.id) && req.isDefaultStream !== false,
          isModerationRequestChannel: false,
          everyoneGroupId: ctx.systemGroups.get(SystemGroup.EVERYONE)!,
        },
      );
      if (req.isDefaultStream !== undefined) {
        if (!isAdmin(actor.role)) throw badRequest('You do not have permission to change default channels.');
        if (req.isDefaultStream && channel.inviteOnly) throw badRequest('A default channel cannot be private.');
        await tx.channels.setDefault(realmId, [channel.id], req.isDefaultStream);
      }
      if (req.messageRetentionDays !== undefined) {
        Channel.assertCanSetRetention(isOwner(actor.role));
        channel.setRetention(parseRetentionDays(req.messageRetentionDays));
      }
      if (req.isArchived === true) throw badRequest('Channels are archived with DELETE /streams/{stream_id}');
      if (req.isArchived === false) {
        channel.unarchive();
      }
      if (req.topicsPolicy !== undefined) {
        channel.setTopicsPolicy(req.topicsPolicy, this.canSetTopicsPolicy(ctx), !(await tx.channels.hasMessagesOutsideEmptyTopic(channel.id)));
      }
      if (req.description !== undefined) channel.changeDescription(normaliseDescription(req.description));
      if (req.newName !== undefined) {
        const name = parseChannelName(req.newName);
        const taken = name === channel.name ? false : await tx.channels.nameTaken(realmId, name, channel.id);
        channel.rename(name, taken);
      }
      if (req.folderId !== undefined) {
        if (req.folderId !== null && !(await tx.channels.folderExists(realmId, req.folderId))) {
          throw badRequest('Invalid channel folder ID');
        }
        channel.setFolder(req.folderId);
      }
      await this.updateGroupSettings(tx, actor, ctx, channel, contentAccess, req.groupSettings);

      const stored: Partial<Record<ChannelGroupSettingName, number>> = {};
      for (const name of channel.settingsToStore()) {
        stored[name] = await tx.groups.storeSettingValue(realmId, channel.groupSettings[name]);
      }
      await tx.channels.save(channel, paragraphHtml(channel.snapshot().description), stored);
      tx.afterCommit(await this.streamChangeEvents(tx, realmId, channel));
    });
  }

  /** The `stream` events of the changes the channel aggregate recorded (spec 30 §7.7). */
  private async streamChangeEvents(tx: Tx, realmId: number, channel: Channel): Promise<ClientEvent[]> {
    const recorded = channel.pullEvents();
    const record = await tx.channelQueries.channel(realmId, channel.id);
    if (record === null || recorded.length === 0) return [];
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
      else if (e.type === 'archived' || e.type === 'unarchived') {
        const archived = e.type === 'archived';
        const [update] = await streamUpdateEvents(tx, realmId, channel.id, channel.name, [{ property: 'is_archived', value: archived }]);
        events.push({ ...update, capability: { name: 'archived_channels', has: true } });
        const legacy = archived
          ? { type: 'stream', op: 'delete', stream_ids: [channel.id], streams: [{ stream_id: channel.id }] }
          : { type: 'stream', op: 'create', streams: [view] };
        events.push({ realmId, event: legacy, userIds: update.userIds, capability: { name: 'archived_channels', has: false } });
      }
    }
    return [...(await streamUpdateEvents(tx, realmId, channel.id, channel.name, changes)), ...events];
  }

  private async updateGroupSettings(
    tx: Tx,
    actor: Actor,
    ctx: Context,
    channel: Channel,
    contentAccess: boolean,
    updates: UpdateChannelRequest['groupSettings'],
  ): Promise<void> {
    const nobody = ctx.systemGroups.get(SystemGroup.NOBODY)!;
    for (const [name, update] of Object.entries(updates) as [ChannelGroupSettingName, UpdateChannelRequest['groupSettings'][ChannelGroupSettingName]][]) {
      if (update === undefined) continue;
      const current = channel.groupSettings[name];
      const next = normaliseGroupSetting(update.new, nobody);
      if (update.old !== undefined && !groupSettingEquals(normaliseGroupSetting(update.old, nobody), current)) {
        throw expectationMismatch();
      }
      const unchanged = groupSettingEquals(next, current);
      if (!unchanged) {
        if (CHANNEL_GROUP_SETTINGS[name].needsContentAccess && !contentAccess) {
          throw badRequest('Channel content access is required.');
        }
        if (
          (name === 'can_delete_any_message_group' || name === 'can_delete_own_message_group') &&
          !(isAdmin(actor.role) || this.holdsRealm(ctx, 'can_set_delete_message_policy_group'))
        ) {
          throw insufficientPermission();
        }
        await this.validateSetting(tx, actor.realmId, name, next);
      }
      channel.setGroupSetting(name, next, unchanged);
    }
  }

  /** DELETE /streams/{id}: archive (subscriptions and messages stay). */
  async archiveChannel(actor: Actor, channelId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const ctx = await this.context(tx, actor);
      const { channel } = await this.loadForAdministration(tx, actor, ctx, channelId);
      channel.archive();
      await tx.channels.setDefault(actor.realmId, [channel.id], false);
      await tx.channels.save(channel, paragraphHtml(channel.snapshot().description), {});
      tx.afterCommit(await this.streamChangeEvents(tx, actor.realmId, channel));
    });
  }

  /** POST /users/me/subscriptions/properties: validate every entry, then apply them in order. */
  async updateSubscriptionProperties(
    actor: Actor,
    entries: { stream_id: number; property: string; value: unknown }[],
    validate: (property: string, value: unknown, index: number) => SubscriptionChange = (p, v) => parseSubscriptionChange(p, v),
  ): Promise<void> {
    const changes = entries.map((e, i) => ({ channelId: e.stream_id, change: validate(e.property, e.value, i) }));
    await this.uow.run(async (tx) => {
      const ctx = await this.context(tx, actor);
      for (const { channelId, change } of changes) {
        const channel = await tx.channels.findById(actor.realmId, channelId);
        const row = channel ? (await tx.channels.subscriptionRows([actor.userId], [channelId])).get(pairKey(actor.userId, channelId)) : undefined;
        if (channel === null || !hasContentAccess(channel, ctx.viewer, row?.active === true)) throw invalidChannelId();
        if (!row?.active) throw badRequest(`Not subscribed to channel ID ${channelId}`);
        await tx.channels.updateSubscription(actor.userId, channelId, change.column, change.value);
        tx.afterCommit(subscriptionUpdateEvents(actor.realmId, actor.userId, channelId, change.column, change.value));
      }
    });
  }

  /**
   * GET /streams/{id}/email_address: the address that posts into the channel as `sender`
   * (default: the email-gateway bot). One token per (channel, caller, sender), made on first use.
   */
  async channelEmailAddress(actor: Actor, channelId: number, senderId: number | undefined): Promise<string> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const ctx = await this.context(tx, actor);
      const channel = await tx.channels.findById(realmId, channelId);
      const row = channel ? (await tx.channels.subscriptionRows([actor.userId], [channelId])).get(pairKey(actor.userId, channelId)) : undefined;
      if (channel === null || channel.isArchived || !hasContentAccess(channel, ctx.viewer, row?.active === true)) {
        throw invalidChannelId();
      }
      if (!holds(ctx.viewer, channel.groupSettings.can_send_message_group)) {
        throw badRequest('You do not have permission to post in this channel.');
      }
      const gatewayBot = await tx.users.systemBot(realmId, 'emailgateway');
      let sender = senderId ?? gatewayBot.id;
      if (sender !== gatewayBot.id && sender !== actor.userId) {
        const bot = await tx.users.findById(realmId, sender);
        if (bot === null || !bot.isBot || bot.isSystemBot) throw badRequest('No such bot');
        if (!isAdmin(actor.role) && bot.botOwnerId !== actor.userId) throw insufficientPermission();
        sender = bot.id;
      }
      const token = await tx.channels.emailToken(realmId, channelId, actor.userId, sender, this.secrets.hexToken(16), this.clock.now());
      return `${channelEmailLocalPart(channel.name, token)}@${this.config.emailGatewayDomain}`;
    });
  }

  /** POST /channel_folders/create (administrators). */
  async createFolder(actor: Actor, rawName: string, description: string): Promise<number> {
    const name = parseChannelFolderName(rawName);
    return this.uow.run(async (tx) => {
      if (await tx.channels.folderNameTaken(actor.realmId, name)) throw badRequest('Channel folder name already in use');
      return tx.channels.createFolder({
        realmId: actor.realmId,
        name,
        description,
        renderedDescription: paragraphHtml(description),
        creatorId: actor.userId,
        now: this.clock.now(),
      });
    });
  }

  /** PATCH /users/me/subscriptions/muted_topics. */
  async muteTopic(actor: Actor, channel: { id?: number; name?: string }, topic: string, op: 'add' | 'remove'): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const found =
        channel.id !== undefined
          ? await tx.channels.findById(realmId, channel.id)
          : ((await tx.channels.findByNames(realmId, [channel.name!.trim()]))[0] ?? null);
      if (op === 'remove') {
        if (found === null) throw badRequest('Topic is not muted');
        if (await tx.channels.setTopicVisibility(realmId, actor.userId, found.id, topic, null, this.clock.now())) {
          tx.afterCommit([userTopicEvent(realmId, actor.userId, found.id, topic, 0, this.clock.now())]);
        }
        return;
      }
      const ctx = await this.context(tx, actor);
      const row = found ? (await tx.channels.subscriptionRows([actor.userId], [found.id])).get(pairKey(actor.userId, found.id)) : undefined;
      if (found === null || found.isArchived || !hasContentAccess(found, ctx.viewer, row?.active === true)) {
        throw channel.id !== undefined ? invalidChannelId() : badRequest(`Invalid channel name '${channel.name}'`);
      }
      if (!row?.active) throw badRequest('Not subscribed to channel');
      if (await tx.channels.setTopicVisibility(realmId, actor.userId, found.id, topic, 1, this.clock.now())) {
        tx.afterCommit([userTopicEvent(realmId, actor.userId, found.id, topic, 1, this.clock.now())]);
      }
    });
  }
}
