export interface EditHistoryEntry {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

export interface MessageRecord {
  id: number;
  realmId: number;
  senderId: number;
  recipientId: number;
  channelId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: Date;
  sendingClient: string;
  lastEditTime: Date | null;
  lastMovedTime: Date | null;
  /** Newest first. */
  editHistory: EditHistoryEntry[];
  hasAttachment: boolean;
}

export interface NewMessage {
  realmId: number;
  senderId: number;
  recipientId: number;
  channelId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: Date;
  sendingClient: string;
  hasAttachment: boolean;
}

/** Initial flags of the recipients' rows, computed in SQL for all of them at once. */
export interface InitialFlags {
  senderId: number;
  senderRead: boolean;
  mentioned: readonly number[];
  streamWildcard: boolean;
  topicWildcardUsers: readonly number[];
}

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

export abstract class MessageRepository {
  /** Active users named (lower-cased full names) or numbered in mentions, and named groups. */
  abstract mentionCandidates(realmId: number, names: readonly string[], ids: readonly number[], groupNames: readonly string[]): Promise<MentionCandidates>;
  /** Active members of these groups, through subgroups. */
  abstract groupMembers(groupIds: readonly number[]): Promise<number[]>;
  abstract activeSubscriberCount(channelId: number): Promise<number>;
  abstract channelRecipient(realmId: number, channelId: number): Promise<number>;
  /** The conversation of exactly these participants, created on first use. */
  abstract directConversation(realmId: number, userIds: readonly number[]): Promise<{ recipientId: number; hasMessages: boolean }>;
  abstract topicFacts(channelId: number, topic: string): Promise<TopicFacts>;
  abstract insert(m: NewMessage): Promise<number>;
  /** One row per active subscriber (and the sender), flags computed in the same statement. */
  abstract insertChannelUserMessages(messageId: number, channelId: number, f: InitialFlags): Promise<UserMessageRow[]>;
  abstract insertDirectUserMessages(messageId: number, userIds: readonly number[], f: InitialFlags): Promise<UserMessageRow[]>;
  /** Marks the user's unread rows read (all, one channel, or one topic); returns the changed ids. */
  abstract markAllRead(userId: number, channelId: number | null, topic: string | null): Promise<number[]>;
  abstract userHasTopic(userId: number, channelId: number, topic: string): Promise<boolean>;
  abstract markRead(userIds: readonly number[], messageIds: readonly number[]): Promise<void>;
  abstract markChannelFirstMessage(channelId: number, messageId: number): Promise<void>;
  /** Recomputes a channel's first_message_id after messages left it; says whether it changed. */
  abstract refreshChannelFirstMessage(channelId: number): Promise<{ changed: boolean; firstMessageId: number | null }>;
  abstract find(realmId: number, messageId: number, forUpdate?: boolean): Promise<MessageRecord | null>;
  abstract userMessageFlags(userId: number, messageId: number): Promise<number | null>;
  abstract directParticipants(recipientId: number): Promise<number[]>;
  /** Participants of several direct conversations at once, ascending, by recipient id. */
  abstract directParticipantsOf(recipientIds: readonly number[]): Promise<Map<number, number[]>>;
  abstract topicVisibility(userId: number, channelId: number, topic: string): Promise<number>;
  abstract setTopicVisibility(realmId: number, userIds: readonly number[], channelId: number, topic: string, policy: number, now: Date, onlyWhereInherit: boolean): Promise<number[]>;
  abstract updateContent(id: number, content: string, rendered: string, editTime: Date, history: EditHistoryEntry[], hasAttachment: boolean): Promise<void>;
  /** Moves these messages to a channel/topic in one statement, prepending the history entry to each. */
  abstract move(
    ids: readonly number[],
    to: { channelId: number; recipientId: number; topic: string },
    entry: EditHistoryEntry | null,
    movedTime: Date | null,
  ): Promise<void>;
  /** Moves the users' topic visibility preferences with a whole topic (the more visible policy wins). */
  abstract moveTopicVisibility(
    from: { channelId: number; topic: string },
    to: { channelId: number; topic: string },
  ): Promise<{ removed: number[]; set: { userId: number; policy: number; lastUpdated: Date }[] }>;
  /** The newest message of a channel topic. */
  abstract lastTopicMessage(channelId: number, topic: string): Promise<MessageRecord | null>;
  /** Ids (and send dates) of a channel topic's messages, oldest first; `visibleTo` limits to the user's rows. */
  abstract topicMessages(channelId: number, topic: string, visibleTo: number | null): Promise<{ id: number; dateSent: Date }[]>;
  abstract delete(messageId: number): Promise<boolean>;
  /** Rows of these recipients for the message: mentions re-evaluated after an edit. */
  abstract updateMentionFlags(messageId: number, f: InitialFlags): Promise<void>;
  /** Users who lost access to moved messages lose their rows. */
  abstract dropRowsOfNonSubscribers(ids: readonly number[], channelId: number): Promise<number[]>;
  /** Users holding a row for the message, with their flags. */
  abstract readers(messageId: number): Promise<UserMessageRow[]>;
  abstract activeSubscribers(channelId: number): Promise<number[]>;
  abstract addRowsForSubscribers(ids: readonly number[], channelId: number): Promise<void>;
  // flags
  abstract existingFlags(userId: number, messageIds: readonly number[]): Promise<Map<number, number>>;
  abstract setFlag(userId: number, messageIds: readonly number[], bit: number, add: boolean): Promise<number[]>;
  abstract insertHistoricalRows(userId: number, messageIds: readonly number[], flags: number): Promise<void>;
  abstract messagesBasics(realmId: number, ids: readonly number[]): Promise<Map<number, MessageRecord>>;
  // attachments
  abstract attachmentsByPath(realmId: number, pathIds: readonly string[]): Promise<AttachmentRecord[]>;
  abstract linkAttachments(messageId: number, attachmentIds: readonly number[]): Promise<void>;
  abstract unlinkAttachments(messageId: number, attachmentIds: readonly number[]): Promise<void>;
  abstract attachmentsOfMessage(messageId: number): Promise<AttachmentRecord[]>;
  abstract insertAttachment(a: Omit<AttachmentRecord, 'id' | 'messageIds'> & { realmId: number }): Promise<number>;
  abstract attachmentByPath(realmId: number, pathId: string): Promise<AttachmentRecord | null>;
}

/** Where uploaded files live (local disk by default). */
export abstract class FileStorage {
  abstract save(pathId: string, tempFile: string): Promise<void>;
  abstract path(pathId: string): string;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly messages: MessageRepository;
  }
}
