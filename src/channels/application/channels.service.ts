import { SubscriptionNotices } from './subscription-notices.js';
import {
  archiveNotice,
  assertCanChangeDefault,
  assertCanMakeDefault,
  assertCanRemoveDefault,
  Channel,
  CHANNEL_GROUP_SETTINGS,
  channelAlreadyExists,
  channelEmailLocalPart,
  channelFolderPositions,
  channelUpdateNotices,
  type ChannelGroupSettingName,
  hasContentAccess,
  holds,
  invalidChannelId,
  isChannelAdministrator,
  normaliseDescription,
  pairKey,
  parseChannelFolderName,
  parseChannelName,
  parseRetentionDays,
  type TopicsPolicy,
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
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { toEveryone } from '../../shared/application/client-event.js';
import { presentFolder } from './channel.views.js';
import {
  type ActorFacts,
  canSetDeleteMessagePolicy,
  canSetTopicsPolicy,
  holdsRealmSetting,
  loadActorFacts,
  resolvePrincipals,
  validateChannelGroupSetting,
} from './actor-facts.js';
import { channelChangeEvents, defaultChannelsEvent } from './channel.events.js';
import { assertCanChooseTopicsPolicy, type ChannelCreationOptions, createChannels } from './channel-creation.js';
import { subscribeUsers } from './subscriptions.service.js';
import { removeArchivedChannelFromGroups } from './default-channel-groups.service.js';

export interface CreateChannelRequest extends ChannelCreationOptions {
  name: string;
  description: string;
  subscribers: number[];
  messageRetentionDays: string | number;
  announce: boolean;
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

/** A channel loaded for administration, with whether the caller can read its content. */
interface Administered {
  channel: Channel;
  contentAccess: boolean;
}

/** Channel administration: create, update, archive; the channel's email address; channel folders. */
@Injectable()
export class ChannelsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly secrets: Secrets,
    private readonly notices: SubscriptionNotices,
  ) {}

  private facts(tx: Tx, actor: Actor): Promise<ActorFacts> {
    return loadActorFacts(tx, actor, this.config.webPublicStreamsEnabled);
  }

  private async isSubscribed(tx: Tx, userId: number, channelId: number): Promise<boolean> {
    return (await tx.subscriptions.records([userId], [channelId])).get(pairKey(userId, channelId))?.active === true;
  }

  /** POST /channels/create: one channel, its subscribers listed explicitly (the creator is not added). */
  async createChannel(actor: Actor, req: CreateChannelRequest): Promise<number> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const name = parseChannelName(req.name);
      if (await tx.channels.nameTaken(realmId, name)) throw channelAlreadyExists(name);
      const facts = await this.facts(tx, actor);
      const retention = parseRetentionDays(req.messageRetentionDays);
      assertCanChooseTopicsPolicy(facts, req.topicsPolicy);
      const now = this.clock.now();
      const [channel] = await createChannels(tx, actor, facts, [{ name, description: req.description }], req, retention, now);
      const users = await resolvePrincipals(tx, realmId, req.subscribers);
      const { joined } = await subscribeUsers(tx, realmId, users.map((u) => u.id), [channel], new Map());
      // Nobody gets a "you were subscribed" message for a channel created by the request.
      await this.notices.post(
        tx,
        realmId,
        { callerId: actor.userId, created: [channel], joined, channelNames: new Map([[channel.id, channel.name]]), announce: req.announce, sendSubscriptionMessages: false },
        now,
      );
      return channel.id;
    });
  }

  /** Access for PATCH and DELETE /streams/{id} (spec 20 §3.2): channel administrators only. */
  private async loadForAdministration(tx: Tx, actor: Actor, facts: ActorFacts, channelId: number): Promise<Administered> {
    const channel = await tx.channels.findById(actor.realmId, channelId, true);
    if (channel === null) throw invalidChannelId();
    const contentAccess = hasContentAccess(channel, facts.viewer, await this.isSubscribed(tx, actor.userId, channel.id));
    if (!isChannelAdministrator(channel, facts.viewer)) {
      if (contentAccess) {
        throw new DomainError('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
      }
      throw invalidChannelId();
    }
    return { channel, contentAccess };
  }

  /** PATCH /streams/{id} (spec 20 §3), all in one transaction, in Zulip's order. */
  async updateChannel(actor: Actor, channelId: number, req: UpdateChannelRequest): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const facts = await this.facts(tx, actor);
      const { channel, contentAccess } = await this.loadForAdministration(tx, actor, facts, channelId);
      const before = channel.snapshot();
      await this.changePrivacyAndDefault(tx, actor, facts, { channel, contentAccess }, req);
      if (req.messageRetentionDays !== undefined) {
        Channel.assertCanSetRetention(isOwner(actor.role));
        channel.setRetention(parseRetentionDays(req.messageRetentionDays));
      }
      if (req.isArchived === true) throw badRequest('Channels are archived with DELETE /streams/{stream_id}');
      if (req.isArchived === false) channel.unarchive();
      if (req.topicsPolicy !== undefined) {
        channel.setTopicsPolicy(req.topicsPolicy, canSetTopicsPolicy(facts), !(await tx.channels.hasMessagesOutsideEmptyTopic(channel.id)));
      }
      if (req.description !== undefined) channel.changeDescription(normaliseDescription(req.description));
      if (req.newName !== undefined) {
        const name = parseChannelName(req.newName);
        const taken = name === channel.name ? false : await tx.channels.nameTaken(realmId, name, channel.id);
        channel.rename(name, taken);
      }
      if (req.folderId !== undefined) {
        if (req.folderId !== null && !(await tx.channelFolders.exists(realmId, req.folderId))) throw badRequest('Invalid channel folder ID');
        channel.setFolder(req.folderId);
      }
      await this.updateGroupSettings(tx, actor, facts, { channel, contentAccess }, req.groupSettings);
      const stored: Partial<Record<ChannelGroupSettingName, number>> = {};
      for (const name of channel.settingsToStore()) {
        stored[name] = await tx.groupSettings.store(realmId, channel.groupSettings[name]);
      }
      await tx.channels.save(channel, paragraphHtml(channel.snapshot().description), stored);
      const unarchived = before.isArchived && !channel.isArchived;
      tx.afterCommit(await channelChangeEvents(tx, realmId, channel, channel.pullEvents()));
      await this.notices.channelChanged(
        tx,
        realmId,
        channel,
        actor.userId,
        (who, realmRetention) => [...(unarchived ? [archiveNotice(channel.name, false)] : []), ...channelUpdateNotices(before, channel.snapshot(), who, realmRetention)],
        [],
        this.clock.now(),
      );
    });
  }

  /** Spec 20 §3.3 and §3.4 step 1: the privacy triple, then the default-channel flag. */
  private async changePrivacyAndDefault(tx: Tx, actor: Actor, facts: ActorFacts, { channel, contentAccess }: Administered, req: UpdateChannelRequest): Promise<void> {
    const defaults = await tx.channels.defaultChannelIds(actor.realmId);
    channel.changePrivacy(
      { isPrivate: req.isPrivate, isWebPublic: req.isWebPublic, historyPublicToSubscribers: req.historyPublicToSubscribers },
      {
        contentAccess,
        canCreatePrivate: holdsRealmSetting(facts, 'can_create_private_channel_group'),
        canCreatePublic: holdsRealmSetting(facts, 'can_create_public_channel_group'),
        webPublicEnabled: facts.webPublicEnabled,
        canCreateWebPublic: holdsRealmSetting(facts, 'can_create_web_public_channel_group'),
        isDefaultChannel: defaults.has(channel.id) && req.isDefaultStream !== false,
        isModerationRequestChannel: (await tx.realms.get(actor.realmId)).moderationRequestChannelId === channel.id,
        everyoneGroupId: facts.systemGroups.get(SystemGroup.EVERYONE)!,
      },
    );
    if (req.isDefaultStream !== undefined) {
      assertCanChangeDefault(actor.role, channel, req.isDefaultStream);
      await this.setDefault(tx, actor.realmId, channel.id, req.isDefaultStream, defaults.has(channel.id));
    }
  }

  /** Spec 20 §3.4 step 8: each setting on its own (expected old value, content access, validity). */
  private async updateGroupSettings(
    tx: Tx,
    actor: Actor,
    facts: ActorFacts,
    { channel, contentAccess }: Administered,
    updates: UpdateChannelRequest['groupSettings'],
  ): Promise<void> {
    const nobody = facts.systemGroups.get(SystemGroup.NOBODY)!;
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
        if ((name === 'can_delete_any_message_group' || name === 'can_delete_own_message_group') && !canSetDeleteMessagePolicy(facts)) {
          throw insufficientPermission();
        }
        await validateChannelGroupSetting(tx, actor.realmId, name, next);
      }
      channel.setGroupSetting(name, next, unchanged);
    }
  }

  /**
   * Zulip's do_add_default_stream / do_remove_default_stream: adding an existing default channel
   * changes nothing and tells nobody; removing always tells the organization's non-guests.
   */
  private async setDefault(tx: Tx, realmId: number, channelId: number, makeDefault: boolean, isDefault: boolean): Promise<void> {
    if (makeDefault && isDefault) return;
    await tx.channels.setDefault(realmId, [channelId], makeDefault);
    tx.afterCommit([await defaultChannelsEvent(tx, realmId)]);
  }

  /** POST /default_streams (administrators; the guard has checked the role). */
  async addDefaultChannel(actor: Actor, channelId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const facts = await this.facts(tx, actor);
      const channel = await tx.channels.findById(actor.realmId, channelId, true);
      assertCanMakeDefault(channel, facts.viewer, channel !== null && (await this.isSubscribed(tx, actor.userId, channelId)));
      const defaults = await tx.channels.defaultChannelIds(actor.realmId);
      await this.setDefault(tx, actor.realmId, channel.id, true, defaults.has(channel.id));
    });
  }

  /** DELETE /default_streams (administrators; the guard has checked the role). */
  async removeDefaultChannel(actor: Actor, channelId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const facts = await this.facts(tx, actor);
      const channel = await tx.channels.findById(actor.realmId, channelId, true);
      assertCanRemoveDefault(channel, facts.viewer, channel !== null && (await this.isSubscribed(tx, actor.userId, channelId)));
      await this.setDefault(tx, actor.realmId, channel.id, false, true);
    });
  }

  /** DELETE /streams/{id}: archive (subscriptions and messages stay). */
  async archiveChannel(actor: Actor, channelId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const facts = await this.facts(tx, actor);
      const { channel } = await this.loadForAdministration(tx, actor, facts, channelId);
      channel.archive();
      // Zulip's do_deactivate_stream: a default channel stops being one, and clients are told.
      const wasDefault = (await tx.channels.defaultChannelIds(actor.realmId)).has(channel.id);
      if (wasDefault) await this.setDefault(tx, actor.realmId, channel.id, false, true);
      await removeArchivedChannelFromGroups(tx, actor.realmId, channel.id);
      await tx.channels.save(channel, paragraphHtml(channel.snapshot().description), {});
      tx.afterCommit(await channelChangeEvents(tx, actor.realmId, channel, channel.pullEvents()));
      // Zulip posts the archiving notice read for everyone.
      const subscribers = (await tx.channelQueries.subscribers([channel.id])).get(channel.id) ?? [];
      await this.notices.channelChanged(tx, actor.realmId, channel, actor.userId, () => [archiveNotice(channel.name, true)], subscribers, this.clock.now());
    });
  }

  /**
   * GET /streams/{id}/email_address: the address that posts into the channel as `sender`
   * (default: the email-gateway bot). One token per (channel, caller, sender), made on first use.
   */
  async channelEmailAddress(actor: Actor, channelId: number, senderId: number | undefined): Promise<string> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const facts = await this.facts(tx, actor);
      const channel = await tx.channels.findById(realmId, channelId);
      const subscribed = channel !== null && (await this.isSubscribed(tx, actor.userId, channelId));
      if (channel === null || channel.isArchived || !hasContentAccess(channel, facts.viewer, subscribed)) {
        throw invalidChannelId();
      }
      if (!holds(facts.viewer, channel.groupSettings.can_send_message_group)) {
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

  /** POST /channel_folders/create (administrators): everyone gets `channel_folder` `add`. */
  async createFolder(actor: Actor, rawName: string, description: string): Promise<number> {
    const name = parseChannelFolderName(rawName);
    return this.uow.run(async (tx) => {
      if (await tx.channelFolders.nameTaken(actor.realmId, name)) throw badRequest('Channel folder name already in use');
      const id = await tx.channelFolders.create({
        realmId: actor.realmId,
        name,
        description,
        renderedDescription: paragraphHtml(description),
        creatorId: actor.userId,
        now: this.clock.now(),
      });
      const folder = (await tx.channelFolders.getForUpdate(actor.realmId, id))!;
      tx.afterCommit(toEveryone(actor.realmId, [{ type: 'channel_folder', op: 'add', channel_folder: presentFolder(folder) }]));
      return id;
    });
  }

  /**
   * PATCH /channel_folders/{id} (administrators; Zulip's update_channel_folder): name, then
   * description, then archiving, each change its own `channel_folder` `update` event.
   */
  async updateFolder(actor: Actor, folderId: number, req: { name?: string; description?: string; isArchived?: boolean }): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const folder = await tx.channelFolders.getForUpdate(realmId, folderId);
      if (folder === null) throw badRequest('Invalid channel folder ID');
      const events: { type: string; op: string; channel_folder_id: number; data: Record<string, unknown> }[] = [];
      const changed = (data: Record<string, unknown>) => events.push({ type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data });
      let currentName = folder.name;
      if (req.name !== undefined && req.name !== folder.name) {
        const name = parseChannelFolderName(req.name);
        currentName = name;
        if (await tx.channelFolders.nameTakenByOther(realmId, name, folder.id)) throw badRequest('Channel folder name already in use');
        await tx.channelFolders.update(folder.id, { name });
        changed({ name });
      }
      if (req.description !== undefined && req.description !== folder.description) {
        const renderedDescription = paragraphHtml(req.description);
        await tx.channelFolders.update(folder.id, { description: req.description, renderedDescription });
        changed({ description: req.description, rendered_description: renderedDescription });
      }
      if (req.isArchived !== undefined && req.isArchived !== folder.isArchived) {
        if (req.isArchived && (await tx.channelFolders.inUse(folder.id))) {
          throw badRequest('You need to remove all the channels from this folder to archive it.');
        }
        // Names are unique among active folders: an archived one may have lost its name meanwhile
        // (Zulip answers this with a database error).
        if (!req.isArchived && (await tx.channelFolders.nameTakenByOther(realmId, currentName, folder.id))) {
          throw badRequest('Channel folder name already in use');
        }
        await tx.channelFolders.update(folder.id, { isArchived: req.isArchived });
        changed({ is_archived: req.isArchived });
      }
      if (events.length > 0) tx.afterCommit(toEveryone(realmId, events));
    });
  }

  /** PATCH /channel_folders (administrators; Zulip's try_reorder_realm_channel_folders). */
  async reorderFolders(actor: Actor, order: number[]): Promise<void> {
    await this.uow.run(async (tx) => {
      const positions = channelFolderPositions(order, await tx.channelFolders.idsForUpdate(actor.realmId));
      await tx.channelFolders.setOrder(actor.realmId, positions);
      tx.afterCommit(toEveryone(actor.realmId, [{ type: 'channel_folder', op: 'reorder', order }]));
    });
  }
}
