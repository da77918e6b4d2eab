import type { TopicsPolicy } from '../channels/channel-settings.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import type { Channel } from '../channels/channel.js';
import { holds, type Viewer } from '../channels/channel-access.policy.js';
import { badRequest, DomainError } from '../shared/domain-error.js';
import type { GroupSettingValue } from '../users/group-setting.js';
import { isGuest } from '../users/role.js';

export const WILDCARD_MENTION_THRESHOLD = 15;

/** What decides whether a user may post in a channel (spec 10 §2.5), resolved by the service. */
export interface ChannelPostFacts {
  channelName: string;
  /** In can_send_message_group (a bot also counts when its owner is). */
  canSendMessage: boolean;
  isArchived: boolean;
  isWebPublic: boolean;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  senderIsGuest: boolean;
  subscribed: boolean;
  botOwnerSubscribed: boolean;
  /** In can_subscribe_group or can_add_subscribers_group (grants content access). */
  inContentGrantingGroup: boolean;
}

export function assertCanPostToChannel(f: ChannelPostFacts): void {
  if (!f.canSendMessage) throw badRequest('You do not have permission to post in this channel.');
  const notAuthorized = () => badRequest(`Not authorized to send to channel '${f.channelName}'`);
  if (f.isArchived) throw notAuthorized();
  if (f.isWebPublic) return;
  if (!f.inviteOnly && !f.senderIsGuest) return;
  if (f.subscribed || f.botOwnerSubscribed) return;
  if (f.historyPublicToSubscribers && !f.senderIsGuest && f.inContentGrantingGroup) return;
  throw notAuthorized();
}

export type EffectiveTopicsPolicy = Exclude<TopicsPolicy, 'inherit'>;

/** The channel's topics policy, or the organization's when the channel inherits it. */
export function effectiveTopicsPolicy(channel: TopicsPolicy, realm: EffectiveTopicsPolicy): EffectiveTopicsPolicy {
  return channel === 'inherit' ? realm : channel;
}

export function assertTopicAllowed(topic: string, policy: EffectiveTopicsPolicy): void {
  const data = { empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME };
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest(`Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} is not allowed in this channel.`, data);
  }
  if (policy === 'empty_topic_only' && topic !== '') {
    throw badRequest(`Only the ${EMPTY_TOPIC_DISPLAY_NAME} topic is allowed in this channel.`, data);
  }
}

/** A new topic needs can_create_topic_group (`canCreateTopic`). */
export function assertCanUseTopic(topicExists: boolean, canCreateTopic: boolean): void {
  if (!topicExists && !canCreateTopic) {
    throw badRequest('You do not have permission to create new topics in this channel.');
  }
}

export interface WildcardFacts {
  streamWildcard: boolean;
  topicWildcard: boolean;
  activeSubscribers: number;
  topicParticipants: number;
  /** The sender holds can_mention_many_users_group. */
  canMentionManyUsers: boolean;
}

/** Wildcard mentions in channels with more than 15 subscribers / topic participants. */
export function assertCanUseWildcards(f: WildcardFacts): void {
  if (f.canMentionManyUsers) return;
  if (f.streamWildcard && f.activeSubscribers > WILDCARD_MENTION_THRESHOLD) {
    throw new DomainError(
      'You do not have permission to use channel wildcard mentions in this channel.',
      'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
    );
  }
  if (f.topicWildcard && f.topicParticipants > WILDCARD_MENTION_THRESHOLD) {
    throw new DomainError('You do not have permission to use topic wildcard mentions in this topic.', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  }
}

/** Direct-message permission groups (spec 10 §2.6). */
export interface DirectMessageFacts {
  senderIsBot: boolean;
  /** Every other participant is a bot (or the sender alone). */
  onlyBotsOrSelf: boolean;
  /** Some participant (sender or recipient) holds direct_message_permission_group. */
  someoneAuthorizes: boolean;
  permissionGroupIsNobody: boolean;
  senderCanInitiate: boolean;
  conversationExists: boolean;
}

export function assertCanSendDirectMessage(f: DirectMessageFacts): void {
  if (f.senderIsBot || f.onlyBotsOrSelf) return;
  if (!f.someoneAuthorizes) {
    throw badRequest(
      f.permissionGroupIsNobody
        ? 'Direct messages are disabled in this organization.'
        : 'This conversation does not include any users who can authorize it.',
    );
  }
  if (!f.senderCanInitiate && !f.conversationExists) {
    throw badRequest('You do not have permission to initiate direct message conversations.');
  }
}

const READ_BY_SENDER_CLIENTS = new Set([
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'snipe',
  'website',
  'ios',
  'android',
]);

/** Without read_by_sender, messages start read for their sender only from Zulip's own UIs. */
export function readBySenderDefault(clientName: string): boolean {
  const c = clientName.toLowerCase();
  return READ_BY_SENDER_CLIENTS.has(c) || c.includes('desktop app');
}

/** The client name: the `client` parameter, else the User-Agent's product token. */
export function clientName(clientParam: string | undefined, userAgent: string | undefined): string {
  if (clientParam) return clientParam;
  const product = (userAgent ?? '').split('/')[0].trim();
  return product === '' ? 'Unspecified' : product;
}

/** Visibility policies of a user for a topic. */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** A user's automatic-visibility settings (codes 1 participation, 2 send, 3 initiation, 4 never). */
export interface AutomaticVisibilitySettings {
  followPolicy: number;
  unmuteInMutedChannelsPolicy: number;
}
export const DEFAULT_AUTOMATIC_VISIBILITY: AutomaticVisibilitySettings = { followPolicy: 3, unmuteInMutedChannelsPolicy: 2 };

/**
 * Spec 10 §2.9: the sender's new visibility policy for the topic after sending, or null when
 * nothing changes.
 */
export function automaticVisibilityAfterSend(
  s: AutomaticVisibilitySettings,
  current: number,
  channelMuted: boolean,
  initiatesTopic: boolean,
): number | null {
  if (s.followPolicy === 4 && s.unmuteInMutedChannelsPolicy === 4) return null;
  if (current === VisibilityPolicy.FOLLOWED) return null;
  let candidate: number | null = null;
  if (s.followPolicy === 1 || s.followPolicy === 2) candidate = VisibilityPolicy.FOLLOWED;
  else if (channelMuted && (s.unmuteInMutedChannelsPolicy === 1 || s.unmuteInMutedChannelsPolicy === 2)) {
    candidate = VisibilityPolicy.UNMUTED;
  }
  if (current !== VisibilityPolicy.INHERIT) return candidate !== null && candidate !== current ? candidate : null;
  if (candidate !== null) return candidate;
  if (s.followPolicy === 3 && initiatesTopic) return VisibilityPolicy.FOLLOWED;
  if (channelMuted && s.unmuteInMutedChannelsPolicy === 3 && initiatesTopic) return VisibilityPolicy.UNMUTED;
  return null;
}

/**
 * The post facts of a channel for a sender (and, for a bot, its active owner): the owner's
 * can_send_message_group counts for its bots; content-granting groups only for the sender.
 */
export function channelPostFacts(
  channel: Channel,
  sender: Viewer,
  owner: Viewer | null,
  subscription: { subscribed: boolean; botOwnerSubscribed: boolean },
): ChannelPostFacts {
  const s = channel.snapshot();
  const g = s.groupSettings;
  return {
    channelName: s.name,
    canSendMessage: holds(sender, g.can_send_message_group) || (owner !== null && holds(owner, g.can_send_message_group)),
    isArchived: s.isArchived,
    isWebPublic: s.isWebPublic,
    inviteOnly: s.inviteOnly,
    historyPublicToSubscribers: s.historyPublicToSubscribers,
    senderIsGuest: isGuest(sender.role),
    subscribed: subscription.subscribed,
    botOwnerSubscribed: subscription.botOwnerSubscribed,
    inContentGrantingGroup: holds(sender, g.can_subscribe_group) || holds(sender, g.can_add_subscribers_group),
  };
}

/** can_create_topic_group: role:everyone lets anybody; else the sender (or a bot's owner) must hold it. */
export function canCreateTopic(channel: Channel, everyoneGroupId: number | undefined, ...users: readonly (Viewer | null)[]): boolean {
  const group = channel.groupSettings.can_create_topic_group;
  return group === everyoneGroupId || users.some((u) => u !== null && holds(u, group));
}

/** A group mentioned loudly, with who may mention it (its can_mention_group). */
export interface MentionedGroup {
  name: string;
  canMention: GroupSettingValue;
}

/** Loud group mentions need the group's can_mention_group (silent ones never do). */
export function assertCanMentionGroups(sender: Viewer, groups: readonly MentionedGroup[]): void {
  for (const g of groups) {
    if (!holds(sender, g.canMention)) throw badRequest(`You are not allowed to mention user group '${g.name}'.`);
  }
}
