import { type Channel, hasContentAccess, type Viewer } from '@app/domain/channels';
import { type EffectiveTopicsPolicy, type RealmMessageRules } from '@app/domain/messages';
import { RealmTopicsPolicy } from '@app/domain/realm';
import { type Actor, SystemGroup } from '@app/domain/users';
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
