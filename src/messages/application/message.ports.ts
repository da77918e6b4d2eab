import type { UserRecord } from '../../users/index.js';
import type { AudienceCandidate, MentionFlags, Message, MessageReactions, MessageState, Reaction, TopicMessage, TopicMove } from '@app/domain/messages';

export type { EditHistoryEntry } from '@app/domain/messages';

/** A stored message as reads and presenters see it (the aggregate's state). */
export type MessageRecord = MessageState;

export interface AttachmentRecord {
  id: number;
  ownerId: number;
  pathId: string;
  name: string;
  size: number;
  contentType: string;
  createTime: Date;
  messageIds: number[];
}

export interface TopicFacts {
  exists: boolean;
  /** Distinct senders of the topic's messages. */
  participants: number[];
}

export interface UserMessageRow {
  userId: number;
  flags: number;
}

export interface MentionCandidates {
  users: { id: number; fullName: string; isBot: boolean }[];
  groups: { id: number; name: string; canMentionGroupId: number }[];
}

/** The Message aggregate: loading, storing, and applying the moves it decides; the topic facts its rules read. */
export abstract class MessageRepository {
  abstract find(realmId: number, messageId: number): Promise<MessageRecord | null>;
  /** Several messages at once (ids not found are left out). */
  abstract findMany(realmId: number, ids: readonly number[]): Promise<Map<number, MessageRecord>>;
  /** The message, row-locked for the rest of the transaction. */
  abstract getForUpdate(realmId: number, messageId: number): Promise<Message | null>;
  /**
   * Stores a new message and its recipients' rows (its flag plan) in one statement, and for a
   * channel message its channel's first message if unset (Zulip's do_send_messages, whoever
   * sends: the Notification Bot's creation notice too); identifies it; returns the rows.
   */
  abstract add(message: Message): Promise<UserMessageRow[]>;
  /**
   * Stores many direct notices at once (two statements whatever their number): each goes to a
   * different conversation of its sender and one user, read for the sender. Identifies them;
   * returns each one's rows, in order.
   */
  abstract addDirectNotices(messages: readonly Message[]): Promise<UserMessageRow[][]>;
  /** Stores an edited content: rendering, edit time and history; has_attachment from its links. */
  abstract saveContent(message: Message): Promise<void>;
  /**
   * Applies a move to every listed message in one statement; when the channel changes, also
   * drops the rows of users who are not subscribed to the destination (returned), gives
   * subscribers of a protected destination read rows, and sets its first message if unset.
   */
  abstract move(move: TopicMove): Promise<{ dropped: number[] }>;
  abstract delete(messageId: number): Promise<boolean>;
  /**
   * The newest `limit` messages of a channel topic (case-insensitive), row-locked; with
   * `visibleTo`, only those that user holds a row for (protected history). Descending ids.
   */
  abstract lockTopicBatch(channelId: number, topic: string, visibleTo: number | null, limit: number): Promise<{ id: number; topic: string }[]>;
  /** Deletes these messages (their rows, reactions and upload links go with them) in one statement; returns the deleted ids. */
  abstract deleteMany(messageIds: readonly number[]): Promise<number[]>;
  /** Of these users, those who still hold a row for some message of the channel topic. */
  abstract usersWithRowsInTopic(userIds: readonly number[], channelId: number, topic: string): Promise<number[]>;
  abstract topicFacts(channelId: number, topic: string): Promise<TopicFacts>;
  /** Ids (and send dates) of a channel topic's messages, oldest first; `visibleTo` limits to the user's rows. */
  abstract topicMessages(channelId: number, topic: string, visibleTo: number | null): Promise<TopicMessage[]>;
  /** The newest message of a channel topic. */
  abstract lastTopicMessage(channelId: number, topic: string): Promise<MessageRecord | null>;
  /** Recomputes a channel's first_message_id after messages left it; says whether it changed. */
  abstract refreshChannelFirstMessage(channelId: number): Promise<{ changed: boolean; firstMessageId: number | null }>;
}

/** Users' per-message rows: flags, unreads, who holds a message. */
export abstract class UserMessageRepository {
  /** The user's flags for the message, or null without a row. */
  abstract flags(userId: number, messageId: number): Promise<number | null>;
  abstract existingFlags(userId: number, messageIds: readonly number[]): Promise<Map<number, number>>;
  /** Sets or clears a bit where it changes; returns the changed ids, ascending. */
  abstract setFlag(userId: number, messageIds: readonly number[], bit: number, add: boolean): Promise<number[]>;
  abstract insertHistoricalRows(userId: number, messageIds: readonly number[], flags: number): Promise<void>;
  /** Marks the user's unread rows read (all, one channel, or one topic); returns the changed ids. */
  abstract markAllRead(userId: number, channelId: number | null, topic: string | null): Promise<number[]>;
  /** Marks at most `limit` of the user's unread rows read, newest first, locking them; returns the changed ids. */
  abstract markReadBatch(userId: number, limit: number): Promise<number[]>;
  /** Marks the user's unread rows of messages the sender sent read; returns the changed ids, ascending. */
  abstract markReadFromSender(userId: number, senderId: number): Promise<number[]>;
  /**
   * Who read the message and lets others know (Zulip's read_receipts query): active users with
   * `send_read_receipts` whose row is read, the sender excepted; ascending ids.
   */
  abstract readReceipts(messageId: number, senderId: number): Promise<number[]>;
  abstract userHasTopic(userId: number, channelId: number, topic: string): Promise<boolean>;
  /** The mention and alert-word bits of every row of the message, re-evaluated after an edit. */
  abstract updateMentionFlags(messageId: number, f: MentionFlags): Promise<void>;
  /** Users holding a row for the message, with their flags. */
  abstract readers(messageId: number): Promise<UserMessageRow[]>;
  /**
   * Who may hear about an action on the message, in one statement: users holding a row for it
   * and, for a channel message, the channel's active subscribers who are active users.
   */
  abstract audienceCandidates(messageId: number, channelId: number | null): Promise<AudienceCandidate[]>;
  /** The same for an action on several messages of one channel at once (a row for any of them counts). */
  abstract audienceCandidatesOfMany(messageIds: readonly number[], channelId: number): Promise<AudienceCandidate[]>;
}

/** A message's reactions (Zulip's Reaction rows), changed only while the message row is locked. */
export abstract class ReactionRepository {
  /** The message's reactions, oldest first. */
  abstract ofMessage(message: { id: number; realmId: number }): Promise<MessageReactions>;
  abstract insert(realmId: number, messageId: number, reaction: Reaction): Promise<void>;
  abstract delete(messageId: number, reaction: Pick<Reaction, 'userId' | 'emojiCode' | 'reactionType'>): Promise<void>;
}

/** Uploads and their links to messages. */
export abstract class AttachmentRepository {
  abstract byPaths(realmId: number, pathIds: readonly string[]): Promise<AttachmentRecord[]>;
  abstract byPath(realmId: number, pathId: string): Promise<AttachmentRecord | null>;
  abstract ofMessage(messageId: number): Promise<AttachmentRecord[]>;
  abstract link(messageId: number, attachmentIds: readonly number[]): Promise<void>;
  abstract unlink(messageId: number, attachmentIds: readonly number[]): Promise<void>;
  abstract insert(a: Omit<AttachmentRecord, 'id' | 'messageIds'> & { realmId: number }): Promise<number>;
  /** These attachments of the organization (ids not found are left out), by id. */
  abstract byIds(realmId: number, ids: readonly number[]): Promise<AttachmentRecord[]>;
  /** Everything the user uploaded, by id. */
  abstract ofOwner(realmId: number, ownerId: number): Promise<AttachmentRecord[]>;
  /** The user's own attachment of that id, row-locked; null for anyone else's or an unknown id. */
  abstract lockOwned(realmId: number, ownerId: number, id: number): Promise<AttachmentRecord | null>;
  /** Deletes the attachment (its links to messages go with it). */
  abstract remove(realmId: number, id: number): Promise<void>;
  /** Bytes of all the organization's uploads (Zulip's currently_used_upload_space_bytes). */
  abstract usedSpace(realmId: number): Promise<number>;
  /** Until the transaction ends, no other upload to the organization may check its quota. */
  abstract lockUsedSpace(realmId: number): Promise<void>;
}

/** What sending to a channel topic reads about its sender, the channel and the topic (one statement). */
export interface ChannelSendReads {
  sender: UserRecord;
  subscribed: boolean;
  muted: boolean;
  /** For a bot's message: whether its owner is subscribed. */
  ownerSubscribed: boolean;
  topicExists: boolean;
  /** Distinct senders of the topic's messages, only when asked for (an @**topic** mention). */
  topicParticipants: number[];
  /** The sender's visibility policy for the topic (0: inherit). */
  senderTopicPolicy: number;
  /** Active subscribers who are active users, only when asked for (a channel-wide mention); else 0. */
  activeSubscribers: number;
  /** The channel's recipient id, null until its first message creates it. */
  recipientId: number | null;
}

/** Who a message goes to: recipients, direct conversations, channel audiences, mention lookups. */
export abstract class ConversationRepository {
  /**
   * Everything the channel sending rules and the sender's topic follow read, in one statement:
   * the sender's record, the sender's (and a bot owner's) subscription, the topic's existence
   * (and its senders when asked), the sender's topic policy, the channel's recipient (and its
   * active subscriber count when asked).
   */
  abstract channelSendReads(
    realmId: number,
    senderId: number,
    channelId: number,
    topic: string,
    ask: { participants: boolean; subscriberCount: boolean },
  ): Promise<ChannelSendReads>;
  abstract channelRecipient(realmId: number, channelId: number): Promise<number>;
  /** The conversation of exactly these participants, created on first use. */
  abstract directConversation(realmId: number, userIds: readonly number[]): Promise<{ recipientId: number; hasMessages: boolean }>;
  /** The conversations of several participant sets at once (created on first use), in order: their recipient ids. */
  abstract directConversations(realmId: number, participantSets: readonly (readonly number[])[]): Promise<number[]>;
  /** The direct-message conversation of each set of users (null where they have none), in one statement; creates none. */
  abstract directRecipientsOf(realmId: number, userSets: readonly (readonly number[])[]): Promise<(number | null)[]>;
  /** Participants of several direct conversations at once, ascending, by recipient id. */
  abstract directParticipantsOf(recipientIds: readonly number[]): Promise<Map<number, number[]>>;
  abstract activeSubscriberCount(channelId: number): Promise<number>;
  abstract activeSubscribers(channelId: number): Promise<number[]>;
  /** Active users named (lower-cased full names) or numbered in mentions, and named groups. */
  abstract mentionCandidates(realmId: number, names: readonly string[], ids: readonly number[], groupNames: readonly string[]): Promise<MentionCandidates>;
  /**
   * The channels of these exact names that `viewerId` may see (public ones unless a guest,
   * web-public ones, subscribed ones; every one for a null viewer), archived ones left out:
   * the targets of `#**channel**` links.
   */
  abstract linkableChannels(realmId: number, names: readonly string[], viewerId: number | null): Promise<{ id: number; name: string }[]>;
  /** What every rendering reads: the organization's string id (its URL) and its linkifiers in application order. */
  abstract renderSettings(realmId: number): Promise<{ stringId: string; linkifiers: { pattern: string; urlTemplate: string }[] }>;
  /** Active members of these groups, through subgroups. */
  abstract groupMembers(groupIds: readonly number[]): Promise<number[]>;
}

/** Users' visibility policies for topics (mute, unmute, follow) as sending and moving change them. */
export abstract class TopicVisibilityRepository {
  abstract policy(userId: number, channelId: number, topic: string): Promise<number>;
  abstract set(realmId: number, userIds: readonly number[], channelId: number, topic: string, policy: number, now: Date, onlyWhereInherit: boolean): Promise<number[]>;
  /**
   * Sets the users' policy for the topic (0, inherit, removes their rows) where it differs;
   * returns the users whose stored policy changed.
   */
  abstract change(realmId: number, userIds: readonly number[], channelId: number, topic: string, policy: number, now: Date): Promise<number[]>;
  /** Users with a (non-inherit) policy for the channel topic. */
  abstract usersWithPolicy(channelId: number, topic: string): Promise<number[]>;
  /** Moves the users' preferences with a whole topic (the more visible policy wins). */
  abstract moveWithTopic(
    from: { channelId: number; topic: string },
    to: { channelId: number; topic: string },
  ): Promise<{ removed: number[]; set: { userId: number; policy: number; lastUpdated: Date }[] }>;
}

/** Where uploaded files live (local disk by default). */
export abstract class FileStorage {
  abstract save(pathId: string, tempFile: string): Promise<void>;
  abstract path(pathId: string): string;
  /** Deletes the stored file; a file already gone is not an error. */
  abstract remove(pathId: string): Promise<void>;
  /** Writes a file the server made (a thumbnail) so that no reader ever sees it half written. */
  abstract write(pathId: string, data: Buffer): Promise<void>;
  /** Deletes every thumbnail of the upload (none is no error). */
  abstract removeThumbnails(pathId: string): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly messages: MessageRepository;
    readonly userMessages: UserMessageRepository;
    readonly attachments: AttachmentRepository;
    readonly conversations: ConversationRepository;
    readonly topicVisibility: TopicVisibilityRepository;
    readonly reactions: ReactionRepository;
  }
}
