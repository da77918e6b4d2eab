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

const silentMention = (u: Person): string => `@_**${u.fullName}|${u.id}**`;
const hashEncode = (s: string): string => encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.');

/**
 * Zulip's get_stream_link_syntax: `#**name**`, or a plain Markdown link when the name would
 * break that syntax.
 */
export function channelLinkSyntax(c: { id: number; name: string }): string {
  if (!/[`>*&]|\$\$/.test(c.name)) return `#**${c.name}**`;
  const text = c.name.replace(/([\\[\]])/g, '\\$1');
  return `[#${text}](#narrow/channel/${c.id}-${hashEncode(c.name.replace(/ /g, '-'))})`;
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
    topic: channel.topicsPolicy === 'empty_topic_only' ? '' : CHANNEL_EVENTS_TOPIC,
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
