import type { Tx } from '../../shared/application/unit-of-work.js';
import type { Channel, ChannelGroupSettingName, ChannelNoticeText, ChannelState, Subscription, SubscriptionState, TopicsPolicy } from '@app/domain/channels';

/** A channel as the API shows it. */
export interface ChannelRecord extends ChannelState {
  renderedDescription: string;
  subscriberCount: number;
  isDefault: boolean;
}

export interface NewChannel {
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: TopicsPolicy;
  folderId: number | null;
  dateCreated: Date;
  /** null for the channels a new organization starts with (Zulip's acting_user=None). */
  creatorId: number | null;
  groupIds: Record<ChannelGroupSettingName, number>;
}

/** A subscription as stored and shown (active or left). */
export type SubscriptionRecord = SubscriptionState;

export interface ChannelFolderRecord {
  id: number;
  name: string;
  description: string;
  renderedDescription: string;
  order: number;
  dateCreated: Date;
  creatorId: number | null;
  isArchived: boolean;
}

/** A muted topic of the legacy `muted_topics` list: channel name, topic, when it was muted. */
export type MutedTopic = [channelName: string, topic: string, lastUpdated: Date];

/** The key of a (user, channel) pair in maps of subscriptions (defined by the domain). */

export abstract class ChannelRepository {
  abstract findById(realmId: number, channelId: number, forUpdate?: boolean): Promise<Channel | null>;
  /** These channels of the organization (archived ones included; ids not found are left out), in one statement. */
  abstract findByIds(realmId: number, channelIds: readonly number[]): Promise<Channel[]>;
  /** Channels named by id or by name (case-insensitive), archived ones included, in one lookup. */
  abstract findByIdsOrNames(realmId: number, channelIds: readonly number[], names: readonly string[]): Promise<Channel[]>;
  /** Case-insensitive, archived channels included. */
  abstract findByNames(realmId: number, names: readonly string[], forUpdate?: boolean): Promise<Channel[]>;
  abstract nameTaken(realmId: number, name: string, exceptChannelId?: number): Promise<boolean>;
  abstract insert(c: NewChannel): Promise<number>;
  /** Writes the channel's columns; `groupIds` holds the stored ids of settings that changed. */
  abstract save(c: Channel, renderedDescription: string, groupIds: Partial<Record<ChannelGroupSettingName, number>>): Promise<void>;
  abstract defaultChannelIds(realmId: number): Promise<Set<number>>;
  /** Those of the ids that are channels of the organization and not archived. */
  abstract activeChannelIds(realmId: number, channelIds: readonly number[]): Promise<Set<number>>;
  abstract setDefault(realmId: number, channelIds: readonly number[], isDefault: boolean): Promise<void>;
  abstract setTopicVisibility(
    realmId: number,
    userId: number,
    channelId: number,
    topic: string,
    policy: number | null,
    now: Date,
  ): Promise<boolean>;
  /**
   * Each user's muted topics in channels that are not archived, as the legacy `muted_topics`
   * list shows them: [channel name, topic, last updated] (one statement; users without any get []).
   */
  abstract mutedTopics(userIds: readonly number[]): Promise<Map<number, MutedTopic[]>>;
  abstract emailToken(
    realmId: number,
    channelId: number,
    creatorId: number,
    senderId: number,
    candidate: string,
    now: Date,
  ): Promise<string>;
  /** Whether any message of the channel is in a non-empty topic (empty_topic_only). */
  abstract hasMessagesOutsideEmptyTopic(channelId: number): Promise<boolean>;
}

/** Users' subscriptions: loaded as aggregates for a change, written back in one statement per batch. */
export abstract class SubscriptionRepository {
  /** The subscriptions (active or left) of these users in these channels, by pairKey, locked for the change. */
  abstract getForUpdate(userIds: readonly number[], channelIds: readonly number[]): Promise<Map<string, Subscription>>;
  /** The same rows as read-only records (access checks, event payloads), without locking. */
  abstract records(userIds: readonly number[], channelIds: readonly number[]): Promise<Map<string, SubscriptionRecord>>;
  /** Every colour each user's subscriptions (active or left) use. */
  abstract usedColors(userIds: readonly number[]): Promise<Map<number, Set<string>>>;
  /** Writes the subscriptions' state, inserting the new ones: one statement whatever their number. */
  abstract save(realmId: number, subscriptions: readonly Subscription[]): Promise<void>;
}

export abstract class ChannelFolderRepository {
  abstract exists(realmId: number, folderId: number): Promise<boolean>;
  /** Among the folders that are not archived, case-insensitively. */
  abstract nameTaken(realmId: number, name: string): Promise<boolean>;
  abstract create(f: { realmId: number; name: string; description: string; renderedDescription: string; creatorId: number; now: Date }): Promise<number>;
  /** The folder, locked for a change; null when the organization has none with this id. */
  abstract getForUpdate(realmId: number, folderId: number): Promise<ChannelFolderRecord | null>;
  /** Another active folder than `exceptId` has this name, case-insensitively. */
  abstract nameTakenByOther(realmId: number, name: string, exceptId: number): Promise<boolean>;
  abstract update(folderId: number, changes: { name?: string; description?: string; renderedDescription?: string; isArchived?: boolean }): Promise<void>;
  /** Whether a channel that is not archived is in the folder. */
  abstract inUse(folderId: number): Promise<boolean>;
  /** Every folder id of the organization, archived ones included, locked for reordering. */
  abstract idsForUpdate(realmId: number): Promise<number[]>;
  /** Each folder's new position (one statement). */
  abstract setOrder(realmId: number, positions: ReadonlyMap<number, number>): Promise<void>;
}

export abstract class ChannelQueries {
  abstract channels(realmId: number): Promise<ChannelRecord[]>;
  abstract channelsByIds(realmId: number, channelIds: readonly number[]): Promise<ChannelRecord[]>;
  abstract channel(realmId: number, channelId: number): Promise<ChannelRecord | null>;
  abstract subscriptionsOf(userId: number): Promise<SubscriptionRecord[]>;
  /** Subscriptions the user had and left. */
  abstract formerSubscriptionsOf(userId: number): Promise<SubscriptionRecord[]>;
  /** The organization's default channels (archived ones are not), ascending. */
  abstract defaultChannelIds(realmId: number): Promise<number[]>;
  abstract subscribers(channelIds: readonly number[]): Promise<Map<number, number[]>>;
  abstract folders(realmId: number): Promise<ChannelFolderRecord[]>;
  abstract systemGroupNames(realmId: number): Promise<Map<number, string>>;
  /** The organization's active users (bots included) with their roles: event recipients. */
  abstract activeUsers(realmId: number): Promise<{ id: number; role: number }[]>;
  abstract groupIdsOfUser(userId: number): Promise<Set<number>>;
  /** Channels that are not archived whose permission settings hold one of these groups, by id, with those settings. */
  abstract channelsUsingGroups(realmId: number, groupIds: readonly number[]): Promise<{ channelId: number; settings: string[] }[]>;
}

/** Someone a notice mentions (silently), by id and full name. */
export interface NoticePerson {
  id: number;
  fullName: string;
}

/**
 * The Notification Bot's messages about channels and subscriptions, inside the caller's
 * transaction. Owned by channels, implemented by messages.
 */
export abstract class ChannelNotifications {
  /** Notices into channel topics, read for the users in `readBy` (the acting user, if any). */
  abstract postInChannels(
    tx: Tx,
    realmId: number,
    notices: readonly ChannelNoticeText[],
    readBy: readonly number[],
    mentioned: readonly NoticePerson[],
    now: Date,
  ): Promise<void>;
  /** A direct message from the bot to each user. */
  abstract sendDirect(tx: Tx, realmId: number, messages: readonly { userId: number; content: string }[], mentioned: readonly NoticePerson[], now: Date): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly channels: ChannelRepository;
    readonly subscriptions: SubscriptionRepository;
    readonly channelFolders: ChannelFolderRepository;
    /** The channel read model, seeing this transaction's writes (event payloads). */
    readonly channelQueries: ChannelQueries;
  }
}
