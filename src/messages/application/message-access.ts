import { type Channel, hasContentAccess, invalidChannelId, pairKey, type Viewer } from '@app/domain/channels';
import { type EffectiveTopicsPolicy, invalidMessage, type Message, type RealmMessageRules } from '@app/domain/messages';
import { RealmTopicsPolicy } from '@app/domain/realm';
import { type Actor, SystemGroup } from '@app/domain/users';
import type { SubscriptionRecord } from '../../channels/index.js';
import { isStorableId } from '../../shared/application/ids.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { ActorContext } from '../../users/index.js';
import type { MessageRecord } from './message.ports.js';

/**
 * Can the viewer read this message (spec 10 §5)? Direct messages: participants (a per-user
 * row). Channel messages: content access to the channel, and for protected history a row.
 * `forModification`: messages in archived channels are out of reach.
 */
export function canAccessMessage(
  m: MessageRecord,
  hasRow: boolean,
  channel: Channel | null,
  viewer: Viewer,
  subscribed: boolean,
  forModification: boolean,
): boolean {
  if (m.channelId === null) return hasRow;
  if (channel === null) return false;
  if (forModification && channel.isArchived) return false;
  if (!hasContentAccess(channel, viewer, subscribed)) return false;
  return channel.snapshot().historyPublicToSubscribers || hasRow;
}

/** A message loaded for a change, with what its access check read. */
export interface MessageForModification {
  message: Message;
  channel: Channel | null;
  /** Whether the actor holds a per-user row for it. */
  hasRow: boolean;
  /** The actor's subscription to its channel (active or left), if any. */
  subscription: SubscriptionRecord | undefined;
}

/**
 * Zulip's access_message(…, lock_message=True, is_modifying_message=True): the message with a
 * row lock, if the actor can access it for modification (not in an archived channel); missing
 * and invisible look the same ("Invalid message(s)"). `viewer` is asked only for a channel message.
 */
export async function loadForModification(
  tx: Tx,
  actor: Actor,
  messageId: number,
  viewer: () => Viewer | Promise<Viewer>,
): Promise<MessageForModification> {
  const message = await tx.messages.getForUpdate(actor.realmId, messageId);
  if (message === null) throw invalidMessage();
  const m = message.snapshot();
  const hasRow = (await tx.userMessages.flags(actor.userId, m.id)) !== null;
  if (m.channelId === null) {
    if (!hasRow) throw invalidMessage();
    return { message, channel: null, hasRow, subscription: undefined };
  }
  const channel = await tx.channels.findById(actor.realmId, m.channelId);
  const subscription = (await tx.subscriptions.records([actor.userId], [m.channelId])).get(pairKey(actor.userId, m.channelId));
  if (!canAccessMessage(m, hasRow, channel, await viewer(), subscription?.active === true, true)) throw invalidMessage();
  return { message, channel, hasRow, subscription };
}

/** A channel the actor reached through Zulip's access_stream_by_id, with the actor's subscription. */
export interface AccessedChannel {
  channel: Channel;
  subscription: SubscriptionRecord | undefined;
  viewer: Viewer;
}

/**
 * Zulip's access_stream_by_id: a channel of the actor's organization, not archived (unless
 * `allowArchived`), whose content the actor may read; otherwise "Invalid channel ID", the same
 * answer for unknown channels, other organizations' channels and inaccessible ones.
 */
export async function accessChannel(tx: Tx, actor: Actor, channelId: number, o: { allowArchived?: boolean } = {}): Promise<AccessedChannel> {
  const channel = isStorableId(channelId) ? await tx.channels.findById(actor.realmId, channelId) : null;
  if (channel === null || (channel.isArchived && o.allowArchived !== true)) throw invalidChannelId();
  const subscription = (await tx.subscriptions.records([actor.userId], [channelId])).get(pairKey(actor.userId, channelId));
  const viewer: Viewer = { userId: actor.userId, role: actor.role, groupIds: await tx.groups.groupIdsOfUser(actor.userId) };
  if (!hasContentAccess(channel, viewer, subscription?.active === true)) throw invalidChannelId();
  return { channel, subscription, viewer };
}

/** The Viewer of the domain's channel rules. */
export const viewerOf = (actor: Actor, ctx: ActorContext): Viewer => ({
  userId: actor.userId,
  role: actor.role,
  groupIds: ctx.groupIds,
});

/** The organization's topics policy as the channel rules read it. */
export const realmTopicsPolicy = (ctx: ActorContext): EffectiveTopicsPolicy =>
  ctx.realm.topicsPolicy === RealmTopicsPolicy.disable_empty_topic ? 'disable_empty_topic' : 'allow_empty_topic';

/** The organization's message settings for the Message aggregate. */
export function realmMessageRules(ctx: ActorContext): RealmMessageRules {
  const r = ctx.realm;
  const g = ctx.realmSettings;
  return {
    allowMessageEditing: r.allowMessageEditing,
    contentEditLimitSeconds: r.messageContentEditLimitSeconds,
    deleteLimitSeconds: r.messageContentDeleteLimitSeconds,
    moveWithinChannelLimitSeconds: r.moveMessagesWithinStreamLimitSeconds,
    moveBetweenChannelsLimitSeconds: r.moveMessagesBetweenStreamsLimitSeconds,
    topicsPolicy: realmTopicsPolicy(ctx),
    everyoneGroupId: ctx.systemGroups.get(SystemGroup.EVERYONE),
    groups: {
      canResolveTopics: g.can_resolve_topics_group,
      canMoveBetweenTopics: g.can_move_messages_between_topics_group,
      canMoveBetweenChannels: g.can_move_messages_between_channels_group,
      canMentionManyUsers: g.can_mention_many_users_group,
      canDeleteAny: g.can_delete_any_message_group,
      canDeleteOwn: g.can_delete_own_message_group,
    },
  };
}
