import { parseSubscriptionChange } from '@app/domain/channels';
import { badRequest, DomainError } from '@app/domain/shared';
import type { Actor, GroupSettingValue } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { UserQueries } from '../../users/index.js';
import { ChannelReadsService } from '../application/channel-reads.service.js';
import { ChannelsService } from '../application/channels.service.js';
import { SubscriptionsService } from '../application/subscriptions.service.js';
import { presentChannel, presentFolder, presentSubscription } from '../application/channel.views.js';
import {
  CreateChannelDto,
  CreateFolderDto,
  DefaultStreamDto,
  EmailAddressDto,
  FoldersDto,
  ReorderFoldersDto,
  UpdateFolderDto,
  MutedTopicDto,
  settingValuesOf,
  StreamIdDto,
  StreamsDto,
  SubscribeDto,
  SubscriptionPropertiesDto,
  SubscriptionPropertyDto,
  SubscriptionsDto,
  UnsubscribeDto,
  UpdateChannelDto,
  UpdateSubscriptionsDto,
} from './channels.dto.js';

@Controller('api/v1')
export class ChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly subscriptions: SubscriptionsService,
    private readonly reads: ChannelReadsService,
    private readonly users: UserQueries,
  ) {}

  @Get('users/me/subscriptions')
  async mySubscriptions(@CurrentActor() actor: Actor, @ZulipParams() p: SubscriptionsDto) {
    const subs = await this.reads.subscriptions(actor);
    const groups = await this.reads.systemGroupNames(actor.realmId);
    const subscribers = p.include_subscribers ? await this.reads.subscribers(subs.map((s) => s.channel.id)) : null;
    return {
      subscriptions: subs.map(({ channel, subscription }) => ({
        ...presentSubscription(channel, subscription, groups),
        ...(subscribers ? { subscribers: subscribers.get(channel.id) } : {}),
      })),
    };
  }

  @ApiPost('users/me/subscriptions')
  @Require('no_guest')
  async subscribe(@CurrentActor() actor: Actor, @ZulipParams() p: SubscribeDto) {
    const r = await this.subscriptions.subscribe(actor, {
      subscriptions: p.subscriptions,
      principals: p.principals,
      authorizationErrorsFatal: p.authorization_errors_fatal,
      inviteOnly: p.invite_only,
      isWebPublic: p.is_web_public,
      isDefaultStream: p.is_default_stream,
      historyPublicToSubscribers: p.history_public_to_subscribers,
      messageRetentionDays: p.message_retention_days,
      topicsPolicy: p.topics_policy,
      folderId: p.folder_id,
      groupSettings: settingValuesOf(p),
      sendNewSubscriptionMessages: p.send_new_subscription_messages,
      announce: p.announce,
    });
    return {
      subscribed: r.subscribed,
      already_subscribed: r.alreadySubscribed,
      ...(r.unauthorized !== undefined ? { unauthorized: r.unauthorized } : {}),
      ...(r.newSubscriptionMessagesSent !== undefined ? { new_subscription_messages_sent: r.newSubscriptionMessagesSent } : {}),
    };
  }

  /** POST /default_streams (Zulip's add_default_stream). Zulip has no GET here: the route answers 405. */
  @ApiPost('default_streams')
  @Require('admin')
  async addDefaultStream(@CurrentActor() actor: Actor, @ZulipParams() p: DefaultStreamDto) {
    await this.channels.addDefaultChannel(actor, p.stream_id);
    return {};
  }

  /** DELETE /default_streams (Zulip's remove_default_stream). */
  @Delete('default_streams')
  @Require('admin')
  async removeDefaultStream(@CurrentActor() actor: Actor, @ZulipParams() p: DefaultStreamDto) {
    await this.channels.removeDefaultChannel(actor, p.stream_id);
    return {};
  }

  @Delete('users/me/subscriptions')
  async unsubscribe(@CurrentActor() actor: Actor, @ZulipParams() p: UnsubscribeDto) {
    const r = await this.subscriptions.unsubscribe(actor, p.subscriptions, p.principals);
    return { removed: r.removed, not_removed: r.notRemoved };
  }

  /** PATCH /users/me/subscriptions: subscribe to `add` and unsubscribe from `delete` in one transaction. */
  @Patch('users/me/subscriptions')
  async updateSubscriptions(@CurrentActor() actor: Actor, @ZulipParams() p: UpdateSubscriptionsDto) {
    const r = await this.subscriptions.updateSubscriptions(actor, p.add ?? [], p.delete ?? []);
    return {
      subscribed: r.subscribed,
      already_subscribed: r.alreadySubscribed,
      ...(r.newSubscriptionMessagesSent !== undefined ? { new_subscription_messages_sent: r.newSubscriptionMessagesSent } : {}),
      removed: r.removed,
      not_removed: r.notRemoved,
    };
  }

  @Patch('users/me/subscriptions/muted_topics')
  async mutedTopics(@CurrentActor() actor: Actor, @ZulipParams() p: MutedTopicDto) {
    if (p.stream_id === undefined && p.stream === undefined) {
      throw new DomainError("Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', 'invalid', { var_name: 'stream_id' });
    }
    if (p.stream_id !== undefined && p.stream !== undefined) {
      throw badRequest('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' });
    }
    await this.subscriptions.muteTopic(actor, { id: p.stream_id, name: p.stream }, p.topic, p.op);
    return {};
  }

  @ApiPost('users/me/subscriptions/properties')
  async subscriptionProperties(@CurrentActor() actor: Actor, @ZulipParams() p: SubscriptionPropertiesDto) {
    await this.subscriptions.updateSubscriptionProperties(actor, p.subscription_data, (property, value, i) => {
      try {
        return parseSubscriptionChange(property, value);
      } catch (e) {
        if (property === 'color' && e instanceof DomainError) {
          throw badRequest(`Invalid subscription_data[${i}]: Value error, ${e.msg}`);
        }
        throw e;
      }
    });
    return {};
  }

  /** Zulip's route for one subscription property (update_subscriptions_property). */
  @Patch('users/me/subscriptions/:stream_id')
  async patchSubscriptionProperty(
    @CurrentActor() actor: Actor,
    @Param('stream_id', PathIntPipe) channelId: number,
    @ZulipParams() p: SubscriptionPropertyDto,
  ) {
    await this.subscriptions.updateSubscriptionProperties(actor, [{ stream_id: channelId, property: p.property, value: p.value }]);
    return {};
  }

  /** Kept answering as before (existing tests and clients of this server use it); Zulip itself routes only PATCH. */
  @ApiPost('users/me/subscriptions/:stream_id')
  async subscriptionProperty(
    @CurrentActor() actor: Actor,
    @Param('stream_id', PathIntPipe) channelId: number,
    @ZulipParams() p: SubscriptionPropertyDto,
  ) {
    return this.patchSubscriptionProperty(actor, channelId, p);
  }

  @Get('users/:user_id/subscriptions/:stream_id')
  async subscriptionStatus(
    @CurrentActor() actor: Actor,
    @Param('user_id', PathIntPipe) userId: number,
    @Param('stream_id', PathIntPipe) channelId: number,
  ) {
    return { is_subscribed: await this.reads.isSubscribed(actor, userId, channelId) };
  }

  @Get('users/:user_id/channels')
  async channelsOfUser(@CurrentActor() actor: Actor, @Param('user_id', PathIntPipe) userId: number) {
    return { subscribed_channel_ids: await this.reads.channelsOfUser(actor, userId) };
  }

  @Get('streams')
  async streams(@CurrentActor() actor: Actor, @ZulipParams() p: StreamsDto) {
    const ownerId = actor.isBot ? ((await this.users.get(actor.realmId, actor.userId))?.botOwnerId ?? null) : null;
    const channels = await this.reads.streams(
      actor,
      {
        includePublic: p.include_public,
        includeWebPublic: p.include_web_public,
        includeSubscribed: p.include_subscribed,
        excludeArchived: p.exclude_archived,
        includeAll: p.include_all || p.include_all_active,
        includeOwnerSubscribed: p.include_owner_subscribed,
        includeCanAccessContent: p.include_can_access_content,
      },
      ownerId,
    );
    const groups = await this.reads.systemGroupNames(actor.realmId);
    return {
      streams: channels.map((c) => ({ ...presentChannel(c, groups), ...(p.include_default ? { is_default: c.isDefault } : {}) })),
    };
  }

  @Get('streams/:stream_id')
  async stream(@CurrentActor() actor: Actor, @Param('stream_id', PathIntPipe) channelId: number) {
    const c = await this.reads.stream(actor, channelId);
    return { stream: presentChannel(c, await this.reads.systemGroupNames(actor.realmId)) };
  }

  @Get('streams/:stream_id/members')
  async members(@CurrentActor() actor: Actor, @Param('stream_id', PathIntPipe) channelId: number) {
    return { subscribers: await this.reads.members(actor, channelId) };
  }

  @Get('streams/:stream_id/email_address')
  async emailAddress(
    @CurrentActor() actor: Actor,
    @Param('stream_id', PathIntPipe) channelId: number,
    @ZulipParams() p: EmailAddressDto,
  ) {
    return { email: await this.channels.channelEmailAddress(actor, channelId, p.sender_id) };
  }

  @Patch('streams/:stream_id')
  async update(@CurrentActor() actor: Actor, @Param('stream_id', PathIntPipe) channelId: number, @ZulipParams() p: UpdateChannelDto) {
    const updates: Record<string, { new: GroupSettingValue; old?: GroupSettingValue }> = {};
    for (const [k, v] of Object.entries(p)) if (k.startsWith('can_') && v !== undefined) updates[k] = v;
    await this.channels.updateChannel(actor, channelId, {
      description: p.description,
      newName: p.new_name,
      isPrivate: p.is_private,
      isWebPublic: p.is_web_public,
      historyPublicToSubscribers: p.history_public_to_subscribers,
      isDefaultStream: p.is_default_stream,
      messageRetentionDays: p.message_retention_days,
      isArchived: p.is_archived,
      folderId: p.folder_id,
      topicsPolicy: p.topics_policy,
      groupSettings: updates,
    });
    return {};
  }

  @Delete('streams/:stream_id')
  async archive(@CurrentActor() actor: Actor, @Param('stream_id', PathIntPipe) channelId: number) {
    await this.channels.archiveChannel(actor, channelId);
    return {};
  }

  @Get('get_stream_id')
  async streamId(@CurrentActor() actor: Actor, @ZulipParams() p: StreamIdDto) {
    return { stream_id: await this.reads.streamId(actor, p.stream) };
  }

  @ApiPost('channels/create')
  @Require('no_guest')
  async createChannel(@CurrentActor() actor: Actor, @ZulipParams() p: CreateChannelDto) {
    const id = await this.channels.createChannel(actor, {
      name: p.name,
      description: p.description,
      subscribers: p.subscribers,
      inviteOnly: p.invite_only,
      isWebPublic: p.is_web_public,
      isDefaultStream: p.is_default_stream,
      historyPublicToSubscribers: p.history_public_to_subscribers ?? undefined,
      messageRetentionDays: p.message_retention_days,
      folderId: p.folder_id,
      topicsPolicy: p.topics_policy,
      groupSettings: settingValuesOf(p),
      announce: p.announce,
    });
    return { id };
  }

  @Get('channel_folders')
  async folders(@CurrentActor() actor: Actor, @ZulipParams() p: FoldersDto) {
    return { channel_folders: (await this.reads.folders(actor, p.include_archived)).map(presentFolder) };
  }

  @ApiPost('channel_folders/create')
  @Require('admin')
  async createFolder(@CurrentActor() actor: Actor, @ZulipParams() p: CreateFolderDto) {
    return { channel_folder_id: await this.channels.createFolder(actor, p.name, p.description) };
  }

  @Patch('channel_folders')
  @Require('admin')
  async reorderFolders(@CurrentActor() actor: Actor, @ZulipParams() p: ReorderFoldersDto) {
    await this.channels.reorderFolders(actor, p.order);
    return {};
  }

  @Patch('channel_folders/:channel_folder_id')
  @Require('admin')
  async updateFolder(@CurrentActor() actor: Actor, @Param('channel_folder_id', PathIntPipe) folderId: number, @ZulipParams() p: UpdateFolderDto) {
    await this.channels.updateFolder(actor, folderId, { name: p.name, description: p.description, isArchived: p.is_archived });
    return {};
  }
}
