import type { Channel } from '../../src/channels/channel.js';
import type { Viewer } from '../../src/channels/channel-access.policy.js';
import { extractMentions, type MentionSyntax } from '../../src/messages/mentions.js';
import {
  type ChannelSendFacts,
  type DirectSendFacts,
  type EditFacts,
  Message,
  type MessageState,
  type NewMessage,
  type ResolvedMentions,
} from '../../src/messages/message.js';
import type { EditRequest, RealmMessageGroups, RealmMessageRules } from '../../src/messages/message-edit.policy.js';
import type { MentionedGroup } from '../../src/messages/message-send.policy.js';
import { CustomEmojiCatalog } from '../../src/emoji/emoji.js';
import { UnicodeEmojiTable } from '../../src/emoji/unicode-emoji.js';
import { type EmojiLookups, MessageReactions, type Reaction } from '../../src/messages/reactions.js';
import { DomainError } from '../../src/shared/domain-error.js';
import { aChannel } from './channels.js';
import { aViewer, GROUP, T0 } from './common.js';

/** A channel message (id 100) by member 60 in #general (9) > lunch, sent at T0. */
export const messageState = (o: Partial<MessageState> = {}): MessageState => ({
  id: 100,
  realmId: 1,
  senderId: 60,
  recipientId: 30,
  channelId: 9,
  topic: 'lunch',
  content: 'hello',
  renderedContent: '<p>hello</p>',
  dateSent: T0,
  sendingClient: 'website',
  lastEditTime: null,
  lastMovedTime: null,
  editHistory: [],
  hasAttachment: false,
  hasSubmessages: false,
  ...o,
});

/** A stored message in one line: `aMessage({ senderId: 61 })`. */
export const aMessage = (o: Partial<MessageState> = {}): Message => Message.restore(messageState(o));

/** A direct message (id 100) from member 60 in conversation recipient 31. */
export const aDirectMessage = (o: Partial<MessageState> = {}): Message => aMessage({ channelId: null, topic: '', recipientId: 31, ...o });

/**
 * The organization's message rules: editing on with 10 minutes, deleting 10 minutes, moves
 * 7 days; resolving and renaming for everyone, channel moves for members, wildcards for
 * administrators, deleting any for administrators, own for everyone.
 */
export const realmRules = (o: Partial<Omit<RealmMessageRules, 'groups'>> & { groups?: Partial<RealmMessageGroups> } = {}): RealmMessageRules => ({
  allowMessageEditing: true,
  contentEditLimitSeconds: 600,
  deleteLimitSeconds: 600,
  moveWithinChannelLimitSeconds: 604_800,
  moveBetweenChannelsLimitSeconds: 604_800,
  topicsPolicy: 'allow_empty_topic',
  everyoneGroupId: GROUP.EVERYONE,
  ...o,
  groups: {
    canResolveTopics: GROUP.EVERYONE,
    canMoveBetweenTopics: GROUP.EVERYONE,
    canMoveBetweenChannels: GROUP.MEMBERS,
    canMentionManyUsers: GROUP.ADMINS,
    canDeleteAny: GROUP.ADMINS,
    canDeleteOwn: GROUP.EVERYONE,
    ...o.groups,
  },
});

/** Mentions as the resolver hands them over: the syntax of `markdown`, the users it reached, its loud groups. */
export const mentionsOf = (markdown: string, mentioned: number[] = [], loudGroups: MentionedGroup[] = []): ResolvedMentions => ({
  syntax: extractMentions(markdown),
  mentionedUserIds: mentioned,
  loudGroups,
});

export const noMentions = (o: Partial<MentionSyntax> = {}): ResolvedMentions => ({
  syntax: { ...extractMentions(''), ...o },
  mentionedUserIds: [],
  loudGroups: [],
});

/** What member 60 sends from the web app. */
export const newMessage = (o: Partial<NewMessage> = {}): NewMessage => ({
  realmId: 1,
  senderId: 60,
  content: 'hello',
  renderedContent: '<p>hello</p>',
  sendingClient: 'website',
  hasAttachment: false,
  readBySender: true,
  mentions: noMentions(),
  ...o,
});

/** Member 60, subscribed, posting to an existing topic #general > lunch. */
export const channelSend = (o: Partial<ChannelSendFacts> = {}): ChannelSendFacts => ({
  kind: 'channel',
  channel: aChannel(),
  recipientId: 30,
  topic: 'lunch',
  sender: aViewer(),
  botOwner: null,
  subscribed: true,
  botOwnerSubscribed: false,
  topicExists: true,
  topicParticipants: [60],
  activeSubscribers: 0,
  realm: { topicsPolicy: 'allow_empty_topic', everyoneGroupId: GROUP.EVERYONE, canMentionManyUsers: GROUP.ADMINS },
  ...o,
});

/** Member 60 writing to member 61 in a conversation that already has messages; everyone may. */
export const directSend = (o: Partial<DirectSendFacts> = {}): DirectSendFacts => ({
  kind: 'direct',
  recipientId: 31,
  participants: [60, 61],
  sender: aViewer(),
  senderIsBot: false,
  onlyBotsOrSelf: false,
  someoneAuthorizes: true,
  permissionGroupIsNobody: false,
  senderCanInitiate: true,
  conversationExists: true,
  ...o,
});

/** An edit request: change_one, nothing else. */
export const editRequest = (o: Partial<EditRequest> = {}): EditRequest => ({ propagateMode: 'change_one', ...o });

/** Edit facts of member 60 on a message of #general; a destination when `to` is given. */
export function editFacts(o: Partial<EditFacts> & { editor?: Viewer; to?: Channel } = {}): EditFacts {
  const { to, ...rest } = o;
  return {
    editor: aViewer(),
    realm: realmRules(),
    source: aChannel(),
    ...(to ? { destination: { channel: to, subscribed: true, recipientId: 40 } } : {}),
    topicMessages: [{ id: 100, dateSent: T0 }],
    destinationTopicExists: false,
    ...rest,
  };
}

/** The refusal a rule raised (msg, code, data), or null when it let the call through. */
export function refusalOf(run: () => unknown): { msg: string; code: string; data: Readonly<Record<string, unknown>> } | null {
  try {
    run();
  } catch (e) {
    if (e instanceof DomainError) return { msg: e.msg, code: e.code, data: e.data };
    throw e;
  }
  return null;
}

/** Just the text of the refusal, or null. */
export const refusalText = (run: () => unknown): string | null => refusalOf(run)?.msg ?? null;

/**
 * The emoji a reaction spec may name: custom emoji green_tick (7), old_logo (8, deactivated) and
 * car (9, overriding the Unicode car by name); a few Unicode emoji named as the emojibase
 * adapter names them.
 */
export const reactionEmoji = (): EmojiLookups => ({
  custom: new CustomEmojiCatalog([
    { id: 7, name: 'green_tick', deactivated: false },
    { id: 8, name: 'old_logo', deactivated: true },
    { id: 9, name: 'car', deactivated: false },
  ]),
  unicode: new UnicodeEmojiTable([
    { name: 'thumbs_up', code: '1f44d' },
    { name: 'automobile', code: '1f697' },
    { name: 'hamburger', code: '1f354' },
    { name: '+1', code: '1f44d' },
    { name: 'car', code: '1f697' },
  ]),
});

/** A stored reaction: member 60's thumbs up unless told otherwise. */
export const aReaction = (o: Partial<Reaction> = {}): Reaction => ({
  userId: 60,
  emojiName: 'thumbs_up',
  emojiCode: '1f44d',
  reactionType: 'unicode_emoji',
  ...o,
});

/** The reactions of message 100, oldest first. */
export const reactionsOf = (...reactions: Reaction[]): MessageReactions => MessageReactions.restore(100, reactions);
