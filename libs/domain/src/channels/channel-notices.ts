import { noticeHashEncode, silentMention } from '../shared/text.js';
import type { ChannelState } from './channel.js';
import type { TopicsPolicy } from './channel-settings.js';

/** Zulip's topic for notices about a channel itself (Realm.STREAM_EVENTS_NOTIFICATION_TOPIC_NAME). */
export const CHANNEL_EVENTS_TOPIC = 'channel events';
/** Zulip's topic for new-channel announcements. */
export const NEW_CHANNELS_TOPIC = 'new channels';
/** Zulip's topic for sign-up announcements. */
export const SIGNUPS_TOPIC = 'signups';

interface Person {
  id: number;
  fullName: string;
}

/** A channel as its creation notice describes it. */
export interface CreatedChannel {
  id: number;
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  topicsPolicy: TopicsPolicy;
}

/** A Notification Bot message into a channel topic (the messages context posts it). */
export interface ChannelNoticeText {
  channelId: number;
  topic: string;
  content: string;
}


/**
 * Zulip's get_stream_link_syntax: `#**name**`, or a plain Markdown link when the name would
 * break that syntax.
 */
export function channelLinkSyntax(c: { id: number; name: string }): string {
  if (!/[`>*&]|\$\$/.test(c.name)) return `#**${c.name}**`;
  const text = c.name.replace(/([\\[\]])/g, '\\$1');
  return `[#${text}](#narrow/channel/${c.id}-${noticeHashEncode(c.name.replace(/ /g, '-'))})`;
}

/**
 * The notice that opens a new channel's `channel events` topic (the empty topic when the channel
 * allows only that): its privacy, its creator and its description. Public channels with protected
 * history (which the API cannot create) get none, as in Zulip.
 */
export function channelCreatedNotice(channel: CreatedChannel, creator: Person): ChannelNoticeText | null {
  const kind = channel.isWebPublic
    ? 'Web-public'
    : !channel.inviteOnly
      ? channel.historyPublicToSubscribers
        ? 'Public'
        : null
      : channel.historyPublicToSubscribers
        ? 'Private, shared history'
        : 'Private, protected history';
  if (kind === null) return null;
  const description = channel.description === '' ? '*No description.*' : channel.description;
  return {
    channelId: channel.id,
    topic: channelEventsTopic(channel.topicsPolicy),
    content: `**${kind}** channel created by ${silentMention(creator)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``,
  };
}

/** The announcement of new channels in the organization's new-channel announcements channel. */
export function newChannelsAnnouncement(announcementsChannelId: number, created: readonly { id: number; name: string }[], creator: Person): ChannelNoticeText {
  const links = created.map(channelLinkSyntax).join(', ');
  const content =
    created.length > 1 ? `${silentMention(creator)} created the following channels: ${links}.` : `${silentMention(creator)} created a new channel ${links}.`;
  return { channelId: announcementsChannelId, topic: NEW_CHANNELS_TOPIC, content };
}

/** Zulip's you_were_just_subscribed_message: one channel inline, several as a sorted list. */
export function youWereSubscribedMessage(actor: Person, channelNames: readonly string[]): string {
  const names = [...channelNames].sort();
  if (names.length === 1) return `${silentMention(actor)} subscribed you to #**${names[0]}**.`;
  return `${silentMention(actor)} subscribed you to the following channels:\n\n${names.map((n) => `* #**${n}**`).join('\n')}`;
}

/**
 * Who gets a "you were subscribed" direct message (Zulip's send_messages_for_new_subscribers):
 * users other than the caller, not bots, newly subscribed to channels that existed before the
 * request; nobody when the caller opted out or more users were subscribed than `maxBulk`.
 * Returns the channel names per user, and whether messages are sent at all.
 */
export function subscriptionMessagePlan(
  newlySubscribed: ReadonlyMap<number, readonly { id: number; name: string }[]>,
  o: { callerId: number; botIds: ReadonlySet<number>; createdChannelIds: ReadonlySet<number>; requested: boolean; maxBulk: number },
): { sent: boolean; messages: Map<number, string[]> } {
  const messages = new Map<number, string[]>();
  if (!o.requested || newlySubscribed.size > o.maxBulk) return { sent: false, messages };
  for (const [userId, channels] of newlySubscribed) {
    if (userId === o.callerId || o.botIds.has(userId)) continue;
    const names = channels.filter((c) => !o.createdChannelIds.has(c.id)).map((c) => c.name);
    if (names.length > 0) messages.set(userId, names);
  }
  return { sent: true, messages };
}

/** Zulip's notify_new_user: the sign-up announcement. */
export const signupAnnouncement = (user: Person): string => `${silentMention(user)} joined this organization.`;

/** Zulip's notify_referrer_on_join direct message, naming the organization instead of the product. */
export const invitationAcceptedNotice = (user: Person, realmName: string): string => `${silentMention(user)} accepted your invitation to join ${realmName}!`;

/** Zulip's Stream.PERMISSION_POLICIES names. */
export function channelPolicyName(c: { inviteOnly: boolean; isWebPublic: boolean; historyPublicToSubscribers: boolean }): string {
  if (c.isWebPublic) return 'Web-public';
  if (!c.inviteOnly) return c.historyPublicToSubscribers ? 'Public' : 'Public, protected history';
  return c.historyPublicToSubscribers ? 'Private, shared history' : 'Private, protected history';
}

/** The topic of a channel's own notices: "channel events", or the empty topic where only that is allowed. */
export const channelEventsTopic = (topicsPolicy: TopicsPolicy): string => (topicsPolicy === 'empty_topic_only' ? '' : CHANNEL_EVENTS_TOPIC);

const TOPICS_POLICY_NAMES: Readonly<Record<TopicsPolicy, string>> = {
  inherit: 'Automatic',
  allow_empty_topic: '*general chat* topic allowed',
  disable_empty_topic: 'No *general chat* topic',
  empty_topic_only: 'Only *general chat* topic allowed',
};

const quoted = (text: string): string => `\`\`\`\` quote\n${text === '' ? '*No description.*' : text}\n\`\`\`\``;

/** A retention period as the notice names it: -1 is forever; null (the organization's) is resolved first. */
function retentionNotice(user: string, oldDays: number, newDays: number): string {
  const period = (d: number) => (d === -1 ? 'Forever' : `${d} days`);
  const summary =
    newDays === -1 ? 'Messages in this channel will now be retained forever.' : `Messages in this channel will now be automatically deleted ${newDays} days after they are sent.`;
  return (
    `${user} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${period(oldDays)}\n* **New retention period**: ${period(newDays)}\n\n${summary}`
  );
}

/**
 * The Notification Bot's notices for a PATCH /streams/{id} (Zulip's do_change_stream_permission,
 * do_change_stream_message_retention_days, do_set_stream_property for the topics policy,
 * do_change_stream_description and do_rename_stream), in the order the update applies them.
 * `realmRetentionDays` resolves a channel's "organization default" (null) retention.
 */
export function channelUpdateNotices(before: Readonly<ChannelStateLike>, after: Readonly<ChannelStateLike>, actor: Person, realmRetentionDays: number): string[] {
  const user = silentMention(actor);
  const out: string[] = [];
  const oldPolicy = channelPolicyName(before);
  const newPolicy = channelPolicyName(after);
  if (oldPolicy !== newPolicy) {
    out.push(`${user} changed the [access permissions](/help/channel-permissions) for this channel from **${oldPolicy}** to **${newPolicy}**.`);
  }
  if (before.messageRetentionDays !== after.messageRetentionDays) {
    out.push(retentionNotice(user, before.messageRetentionDays ?? realmRetentionDays, after.messageRetentionDays ?? realmRetentionDays));
  }
  if (before.topicsPolicy !== after.topicsPolicy) {
    out.push(
      `${user} changed the "Allow posting to the *general chat* topic?" setting from **${TOPICS_POLICY_NAMES[before.topicsPolicy]}** to **${TOPICS_POLICY_NAMES[after.topicsPolicy]}**.`,
    );
  }
  if (before.description !== after.description) {
    out.push(
      `${user} changed the description for this channel.\n\n* **Old description:**\n${quoted(before.description)}\n* **New description:**\n${quoted(after.description)}`,
    );
  }
  if (before.name !== after.name) out.push(`${user} renamed channel **${before.name}** to **${after.name}**.`);
  return out;
}

/** The notice of an archived or unarchived channel. */
export const archiveNotice = (name: string, archived: boolean): string => `Channel #**${name}** has been ${archived ? 'archived' : 'unarchived'}.`;

/** The channel facts the update notices compare. */
export type ChannelStateLike = Pick<
  ChannelState,
  'name' | 'description' | 'inviteOnly' | 'isWebPublic' | 'historyPublicToSubscribers' | 'messageRetentionDays' | 'topicsPolicy'
>;
