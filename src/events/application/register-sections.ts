import { type ChannelGroupSettingName, type DefaultChannelGroup, hasMetadataAccess, STREAM_ASSIGNMENT_COLORS, type Viewer } from '@app/domain/channels';
import { displayTopic, type MuteState, topicKey, type UnreadRow, UNREADS_CAP, unreadSummary } from '@app/domain/messages';
import { type Actor, type GroupSettingValue, isGuest, type MutedUserEntry, type NavigationView, nextOnboardingSteps } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import {
  ChannelQueries,
  type ChannelRecord,
  presentChannel,
  presentDefaultChannelGroups,
  presentFolder,
  presentSubscription,
  type SubscriptionRecord,
} from '../../channels/index.js';
import {
  DraftsService,
  presentDraft,
  presentSavedSnippet,
  presentScheduledMessage,
} from '../../drafts/index.js';
import { OrganizationSettingsCache } from '../../shared/application/settings-cache.js';
import { presentNavigationView } from '../../users/index.js';

export interface UserTopicRow {
  channelId: number;
  channelName: string;
  topic: string;
  lastUpdated: Date;
  policy: number;
}

/** The parts of a user's register state that one `RegisterQueries.read` reads (absent: not read). */
export interface RegisterReadParts {
  /** The user's groups (through subgroups). */
  groups: boolean;
  /** The version of the organization's user list. */
  userListVersion: boolean;
  /** The organization's channels. */
  channels: boolean;
  /** The user's subscriptions, active and former. */
  subscriptions: boolean;
  maxMessageId: boolean;
  /** Unread rows, at most this many. */
  unreadLimit: number | null;
  /** Starred message ids, at most this many (the newest). */
  starredLimit: number | null;
  userTopics: boolean;
  alertWords: boolean;
  mutedUsers: boolean;
  /** The organization's default channels that are not archived. */
  defaultChannels: boolean;
  /** The user's direct-message conversations with their newest message ids, at most this many (the most recent). */
  recentConversationsLimit: number | null;
  /** The onboarding steps the user has seen. */
  onboardingSteps: boolean;
  /** The organization's default channel groups. */
  defaultChannelGroups: boolean;
  /** The user's navigation views. */
  navigationViews: boolean;
}

/** One direct-message conversation of `recent_private_conversations`: the other participants (none: with oneself). */
export interface RecentConversation {
  max_message_id: number;
  user_ids: number[];
}

/**
 * A user's register state as of one snapshot, taken right after the event queue: the
 * organization's settings version it saw (the settings cache serves the organization-wide
 * sections at that version or newer) and the per-user reads asked for (empty when not asked).
 */
export interface RegisterRead {
  settingsVersion: number;
  /** The organization's user list version (0: none; the list is then read, not cached). */
  userListVersion: number;
  groupIds: Set<number>;
  /** By name, as the database orders them; their permission settings as group ids (see `groupSettingValues`). */
  channels: RegisterChannel[];
  subscriptions: SubscriptionRecord[];
  formerSubscriptions: SubscriptionRecord[];
  maxMessageId: number;
  /** Ascending. */
  unreadRows: UnreadRow[];
  starredIds: number[];
  userTopics: UserTopicRow[];
  /** In the order they were added. */
  alertWords: string[];
  /** By when they were muted. */
  mutedUsers: MutedUserEntry[];
  /** Ascending. */
  defaultChannelIds: number[];
  /** Newest first. */
  recentConversations: RecentConversation[];
  /** The onboarding steps the user has seen (any order). */
  seenOnboardingSteps: string[];
  /** Each group's channels by channel name (any order of groups). */
  defaultChannelGroups: DefaultChannelGroup[];
  /** In the order they were added. */
  navigationViews: NavigationView[];
}

/** What POST /register reads after its queue: the one read, and the user's draft lists (empty unless asked). */
export type RegisterSnapshot = RegisterRead & { lists: Awaited<ReturnType<DraftsService['userLists']>> };

/** A channel as ChannelQueries answers it, but with its permission settings as the groups' ids. */
export type RegisterChannel = Omit<ChannelRecord, 'groupSettings'> & { groupSettingIds: Record<ChannelGroupSettingName, number> };

/** The reads behind the per-user register sections. */
export abstract class RegisterQueries {
  /** The asked parts and the organization's settings version, in one statement. */
  abstract read(userId: number, realmId: number, parts: RegisterReadParts): Promise<RegisterRead>;
  /** Every user group of the organization as a permission setting's value: a named group's id, an anonymous group's members and subgroups. */
  abstract groupSettingValues(realmId: number): Promise<Map<number, GroupSettingValue>>;
}

/** A read of no per-user part (the settings version only), to which a caller adds what it needs. */
const NOTHING: RegisterReadParts = {
  groups: false,
  userListVersion: false,
  channels: false,
  subscriptions: false,
  maxMessageId: false,
  unreadLimit: null,
  starredLimit: null,
  userTopics: false,
  alertWords: false,
  mutedUsers: false,
  defaultChannels: false,
  recentConversationsLimit: null,
  onboardingSteps: false,
  defaultChannelGroups: false,
  navigationViews: false,
};

/** The personal settings a spectator's channel shows: Zulip's defaults, the assignment colors in turn. */
const spectatorSubscription = (channelId: number, index: number): SubscriptionRecord => ({
  userId: 0,
  channelId,
  active: true,
  color: STREAM_ASSIGNMENT_COLORS[index % STREAM_ASSIGNMENT_COLORS.length],
  isMuted: false,
  pinToTop: false,
  desktopNotifications: null,
  audibleNotifications: null,
  pushNotifications: null,
  emailNotifications: null,
  wildcardMentionsNotify: null,
});

/** As Zulip's RECENT_CONVERSATIONS_LIMIT. */
export const RECENT_CONVERSATIONS_LIMIT = 1000;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** POST /register sections about channels and messages (spec 30 §2.5). */
@Injectable()
export class RegisterSections {
  constructor(
    private readonly queries: RegisterQueries,
    private readonly channels: ChannelQueries,
    private readonly drafts: DraftsService,
    private readonly cache: OrganizationSettingsCache,
  ) {}

  /**
   * The user's state the requested sections need, in one statement (and one more, concurrent,
   * for the draft lists when asked): called right after the queue is created, so that it
   * includes every change the queue's snapshot leaves out.
   */
  async read(actor: Actor, want: (s: string) => boolean): Promise<RegisterSnapshot> {
    const channels = want('subscription') || want('stream');
    const unreads = want('message') && want('update_message_flags');
    const parts = { drafts: want('drafts'), savedSnippets: want('saved_snippets'), reminders: want('reminders'), scheduledMessages: want('scheduled_messages') };
    const noLists = { drafts: [], savedSnippets: [], reminders: [], scheduledMessages: [] };
    const [read, lists] = await Promise.all([this.readState(actor, want, channels, unreads), Object.values(parts).some(Boolean) ? this.drafts.userLists(actor, parts) : noLists]);
    return { ...read, lists };
  }

  private readState(actor: Actor, want: (s: string) => boolean, channels: boolean, unreads: boolean): Promise<RegisterRead> {
    return this.queries.read(actor.userId, actor.realmId, {
      groups: channels || want('realm_user'),
      userListVersion: want('realm_user'),
      channels,
      subscriptions: channels || unreads,
      maxMessageId: want('message'),
      unreadLimit: unreads ? UNREADS_CAP + 1 : null,
      starredLimit: want('starred_messages') ? 10_000 : null,
      userTopics: unreads || want('user_topic') || want('muted_topics'),
      alertWords: want('alert_words'),
      mutedUsers: want('muted_users'),
      defaultChannels: want('default_streams') && !isGuest(actor.role),
      recentConversationsLimit: want('recent_private_conversations') ? RECENT_CONVERSATIONS_LIMIT : null,
      onboardingSteps: want('onboarding_steps'),
      defaultChannelGroups: want('default_stream_groups') && !isGuest(actor.role),
      navigationViews: want('navigation_views'),
    });
  }

  /** `emptyTopicName`: the client's empty_topic_name capability (else the empty topic shows as "general chat"). */
  async fill(
    actor: Actor,
    want: (s: string) => boolean,
    explicit: boolean,
    includeSubscribers: boolean,
    state: Record<string, unknown>,
    emptyTopicName: boolean,
    read: RegisterSnapshot,
  ): Promise<void> {
    if (want('subscription') || want('stream')) await this.channelSections(actor, want, includeSubscribers, state, read);
    if (want('message')) state.max_message_id = read.maxMessageId;
    if (want('message') && want('update_message_flags')) state.unread_msgs = this.unreads(actor, read);
    if (want('starred_messages')) state.starred_messages = read.starredIds;
    if (want('recent_private_conversations')) state.recent_private_conversations = read.recentConversations;
    if (want('onboarding_steps')) {
      state.onboarding_steps = nextOnboardingSteps(read.seenOnboardingSteps);
      state.navigation_tour_video_url = null; // this server has no navigation tour video
    }
    if (want('user_topic') || want('muted_topics')) {
      const topics = read.userTopics;
      if (want('user_topic')) {
        state.user_topics = topics.map((t) => ({
          stream_id: t.channelId,
          topic_name: emptyTopicName ? t.topic : displayTopic(t.topic, false),
          last_updated: seconds(t.lastUpdated),
          visibility_policy: t.policy,
        }));
      }
      if (want('muted_topics') && !(explicit && want('user_topic'))) {
        state.muted_topics = topics.filter((t) => t.policy === 1).map((t) => [t.channelName, t.topic, seconds(t.lastUpdated)]);
      }
    }
    if (want('drafts')) state.drafts = read.lists.drafts.slice(0, 1000).map(presentDraft);
    if (want('saved_snippets')) state.saved_snippets = read.lists.savedSnippets.map(presentSavedSnippet);
    if (want('scheduled_messages')) state.scheduled_messages = read.lists.scheduledMessages.map(presentScheduledMessage);
    if (want('default_streams')) state.realm_default_streams = isGuest(actor.role) ? [] : read.defaultChannelIds;
    if (want('default_stream_groups')) state.realm_default_stream_groups = isGuest(actor.role) ? [] : presentDefaultChannelGroups(read.defaultChannelGroups);
    if (want('navigation_views')) state.navigation_views = read.navigationViews.map(presentNavigationView);
    // Zulip's get_channel_folders_in_realm(realm, include_archived=True), in their order.
    // channel_folders is versioned.
    if (want('channel_folders')) {
      state.channel_folders = await this.cache
        .at(actor.realmId, read.settingsVersion)
        .value('register.channelFolders', async () => (await this.channels.folders(actor.realmId)).map(presentFolder));
    }
  }

  /**
   * A spectator's channel section (no account; Zulip's get_web_public_subs): the organization's
   * web-public channels as subscriptions with default personal settings and the assignment colors
   * in turn, nothing unsubscribed or never subscribed; no subscriber lists.
   */
  async fillForSpectator(realmId: number, want: (s: string) => boolean, state: Record<string, unknown>): Promise<void> {
    if (!want('subscription')) return;
    const read = await this.queries.read(0, realmId, { ...NOTHING, channels: true });
    const entry = this.cache.at(realmId, read.settingsVersion);
    const groups = await entry.value('register.systemGroupNames', () => this.channels.systemGroupNames(realmId));
    const all = await this.withGroupSettings(read.channels, await entry.value('register.groupSettingValues', () => this.queries.groupSettingValues(realmId)), realmId);
    state.subscriptions = all
      .filter((c) => c.isWebPublic && !c.isArchived)
      .sort((a, b) => a.id - b.id)
      .map((c, i) => presentSubscription(c, spectatorSubscription(c.id, i), groups));
    state.unsubscribed = [];
    state.never_subscribed = [];
  }

  private async channelSections(
    actor: Actor,
    want: (s: string) => boolean,
    includeSubscribers: boolean,
    state: Record<string, unknown>,
    read: RegisterRead,
  ): Promise<void> {
    // User groups (system ones, and the anonymous ones channel settings name) are versioned.
    const entry = this.cache.at(actor.realmId, read.settingsVersion);
    const groups = await entry.value('register.systemGroupNames', () => this.channels.systemGroupNames(actor.realmId));
    const all = await this.withGroupSettings(read.channels, await entry.value('register.groupSettingValues', () => this.queries.groupSettingValues(actor.realmId)), actor.realmId);
    const mine = new Map(read.subscriptions.map((s) => [s.channelId, s]));
    const viewer: Viewer = { userId: actor.userId, role: actor.role, groupIds: read.groupIds };
    const visible = all.filter((c) => hasMetadataAccess(c, viewer, mine.has(c.id)));
    const subscribers = includeSubscribers ? await this.channels.subscribers(visible.map((c) => c.id)) : new Map<number, number[]>();
    const withSubscribers = (c: ChannelRecord, o: Record<string, unknown>) => (includeSubscribers ? { ...o, subscribers: subscribers.get(c.id) ?? [] } : o);
    const byName = (a: ChannelRecord, b: ChannelRecord) => a.name.localeCompare(b.name);
    if (want('subscription')) {
      const former = new Map(read.formerSubscriptions.map((s) => [s.channelId, s]));
      state.subscriptions = all
        .filter((c) => mine.has(c.id))
        .sort(byName)
        .map((c) => withSubscribers(c, presentSubscription(c, mine.get(c.id)!, groups)));
      state.unsubscribed = visible
        .filter((c) => !mine.has(c.id) && former.has(c.id))
        .sort(byName)
        .map((c) => withSubscribers(c, presentSubscription(c, former.get(c.id)!, groups)));
      state.never_subscribed = visible
        .filter((c) => !mine.has(c.id) && !former.has(c.id) && !c.isArchived)
        .sort(byName)
        .map((c) => withSubscribers(c, presentChannel(c, groups)));
    }
    if (want('stream')) state.streams = visible.filter((c) => !c.isArchived).map((c) => presentChannel(c, groups));
  }

  /**
   * The channels' permission settings from the organization's groups. A group the cached ones
   * lack (a setting changed since the read, its old group dropped) is looked up again, uncached;
   * a group that no longer exists stands as its id, as ChannelQueries shows it.
   */
  private async withGroupSettings(channels: RegisterChannel[], cached: Map<number, GroupSettingValue>, realmId: number): Promise<ChannelRecord[]> {
    const complete = channels.every((c) => Object.values(c.groupSettingIds).every((id) => cached.has(id)));
    const values = complete ? cached : await this.queries.groupSettingValues(realmId);
    return channels.map(({ groupSettingIds, ...c }) => ({
      ...c,
      groupSettings: Object.fromEntries(Object.entries(groupSettingIds).map(([s, id]) => [s, values.get(id) ?? id])) as ChannelRecord['groupSettings'],
    }));
  }

  private unreads(actor: Actor, read: RegisterRead) {
    const mutes: MuteState = {
      mutedChannels: new Set(read.subscriptions.filter((s) => s.isMuted).map((s) => s.channelId)),
      topicPolicies: new Map(read.userTopics.map((t) => [topicKey(t.channelId, t.topic), t.policy])),
    };
    return unreadSummary(actor.userId, read.unreadRows, mutes);
  }
}
