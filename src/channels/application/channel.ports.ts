import type { Channel, ChannelGroupSettingName, ChannelState, TopicsPolicy } from '@app/domain/channels';

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
  creatorId: number;
  groupIds: Record<ChannelGroupSettingName, number>;
}

export interface SubscriptionRecord {
  userId: number;
  channelId: number;
  active: boolean;
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

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

export const pairKey = (userId: number, channelId: number) => `${userId}:${channelId}`;

export abstract class ChannelRepository {
  abstract findById(realmId: number, channelId: number, forUpdate?: boolean): Promise<Channel | null>;
  /** Case-insensitive, archived channels included. */
  abstract findByNames(realmId: number, names: readonly string[], forUpdate?: boolean): Promise<Channel[]>;
  abstract nameTaken(realmId: number, name: string, exceptChannelId?: number): Promise<boolean>;
  abstract insert(c: NewChannel): Promise<number>;
  /** Writes the channel's columns; `groupIds` holds the stored ids of settings that changed. */
  abstract save(c: Channel, renderedDescription: string, groupIds: Partial<Record<ChannelGroupSettingName, number>>): Promise<void>;
  abstract defaultChannelIds(realmId: number): Promise<Set<number>>;
  abstract setDefault(realmId: number, channelIds: readonly number[], isDefault: boolean): Promise<void>;
  /** Existing subscription rows (active or not) of these users in these channels, by pairKey. */
  abstract subscriptionRows(userIds: readonly number[], channelIds: readonly number[]): Promise<Map<string, SubscriptionRecord>>;
  abstract usedColors(userIds: readonly number[]): Promise<Map<number, Set<string>>>;
  /** Activates (or creates, with the given colour) every pair; existing rows keep their colour. */
  abstract subscribe(realmId: number, rows: readonly { userId: number; channelId: number; color: string }[]): Promise<void>;
  abstract unsubscribe(pairs: readonly { userId: number; channelId: number }[]): Promise<void>;
  abstract updateSubscription(userId: number, channelId: number, column: string, value: string | boolean): Promise<void>;
  abstract setTopicVisibility(
    realmId: number,
    userId: number,
    channelId: number,
    topic: string,
    policy: number | null,
    now: Date,
  ): Promise<boolean>;
  abstract emailToken(
    realmId: number,
    channelId: number,
    creatorId: number,
    senderId: number,
    candidate: string,
    now: Date,
  ): Promise<string>;
  abstract folderExists(realmId: number, folderId: number): Promise<boolean>;
  abstract folderNameTaken(realmId: number, name: string): Promise<boolean>;
  abstract createFolder(f: { realmId: number; name: string; description: string; renderedDescription: string; creatorId: number; now: Date }): Promise<number>;
  /** Whether any message of the channel is in a non-empty topic (empty_topic_only). */
  abstract hasMessagesOutsideEmptyTopic(channelId: number): Promise<boolean>;
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
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly channels: ChannelRepository;
    /** The channel read model, seeing this transaction's writes (event payloads). */
    readonly channelQueries: ChannelQueries;
  }
}
