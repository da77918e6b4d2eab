import { hasMetadataAccess, type Viewer } from '@app/domain/channels';
import { displayTopic, type MuteState, topicKey, type UnreadRow, UNREADS_CAP, unreadSummary } from '@app/domain/messages';
import { type Actor, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { ChannelQueries, type ChannelRecord, presentChannel, presentFolder, presentSubscription } from '../../channels/index.js';
import {
  DraftsService,
  presentDraft,
  presentSavedSnippet,
  presentScheduledMessage,
  SavedSnippetsService,
  ScheduledMessagesService,
} from '../../drafts/index.js';
import { UserQueries } from '../../users/index.js';

export interface UserTopicRow {
  channelId: number;
  channelName: string;
  topic: string;
  lastUpdated: Date;
  policy: number;
}

/** The reads behind the per-user register sections. */
export abstract class RegisterQueries {
  /** Unread rows in ascending id order, at most `limit`, of DMs and of channels the user is subscribed to. */
  abstract unreadRows(userId: number, limit: number): Promise<UnreadRow[]>;
  abstract starredIds(userId: number, limit: number): Promise<number[]>;
  abstract userTopics(userId: number): Promise<UserTopicRow[]>;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** POST /register sections about channels and messages (spec 30 §2.5). */
@Injectable()
export class RegisterSections {
  constructor(
    private readonly queries: RegisterQueries,
    private readonly channels: ChannelQueries,
    private readonly users: UserQueries,
    private readonly drafts: DraftsService,
    private readonly snippets: SavedSnippetsService,
    private readonly scheduled: ScheduledMessagesService,
  ) {}

  /** `emptyTopicName`: the client's empty_topic_name capability (else the empty topic shows as "general chat"). */
  async fill(
    actor: Actor,
    want: (s: string) => boolean,
    explicit: boolean,
    includeSubscribers: boolean,
    state: Record<string, unknown>,
    emptyTopicName = true,
  ): Promise<void> {
    if (want('subscription') || want('stream')) await this.channelSections(actor, want, includeSubscribers, state);
    if (want('message')) state.max_message_id = await this.users.maxMessageId(actor.userId);
    if (want('message') && want('update_message_flags')) state.unread_msgs = await this.unreads(actor);
    if (want('starred_messages')) state.starred_messages = await this.queries.starredIds(actor.userId, 10_000);
    if (want('user_topic') || want('muted_topics')) {
      const topics = await this.queries.userTopics(actor.userId);
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
    if (want('drafts')) state.drafts = (await this.drafts.listDrafts(actor)).slice(0, 1000).map(presentDraft);
    if (want('saved_snippets')) state.saved_snippets = (await this.snippets.listSavedSnippets(actor)).map(presentSavedSnippet);
    if (want('scheduled_messages')) state.scheduled_messages = (await this.scheduled.listScheduledMessages(actor)).map(presentScheduledMessage);
    if (want('default_streams')) state.realm_default_streams = isGuest(actor.role) ? [] : await this.channels.defaultChannelIds(actor.realmId);
    // Zulip's get_channel_folders_in_realm(realm, include_archived=True), in their order.
    if (want('channel_folders')) state.channel_folders = (await this.channels.folders(actor.realmId)).map(presentFolder);
  }

  private async channelSections(actor: Actor, want: (s: string) => boolean, includeSubscribers: boolean, state: Record<string, unknown>): Promise<void> {
    const all = await this.channels.channels(actor.realmId);
    const groups = await this.channels.systemGroupNames(actor.realmId);
    const mine = new Map((await this.channels.subscriptionsOf(actor.userId)).map((s) => [s.channelId, s]));
    const viewer: Viewer = { userId: actor.userId, role: actor.role, groupIds: await this.channels.groupIdsOfUser(actor.userId) };
    const visible = all.filter((c) => hasMetadataAccess(c, viewer, mine.has(c.id)));
    const subscribers = includeSubscribers ? await this.channels.subscribers(visible.map((c) => c.id)) : new Map<number, number[]>();
    const withSubscribers = (c: ChannelRecord, o: Record<string, unknown>) => (includeSubscribers ? { ...o, subscribers: subscribers.get(c.id) ?? [] } : o);
    const byName = (a: ChannelRecord, b: ChannelRecord) => a.name.localeCompare(b.name);
    if (want('subscription')) {
      const former = new Map((await this.channels.formerSubscriptionsOf(actor.userId)).map((s) => [s.channelId, s]));
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

  private async unreads(actor: Actor) {
    const rows = await this.queries.unreadRows(actor.userId, UNREADS_CAP + 1);
    const subs = await this.channels.subscriptionsOf(actor.userId);
    const topics = await this.queries.userTopics(actor.userId);
    const mutes: MuteState = {
      mutedChannels: new Set(subs.filter((s) => s.isMuted).map((s) => s.channelId)),
      topicPolicies: new Map(topics.map((t) => [topicKey(t.channelId, t.topic), t.policy])),
    };
    return unreadSummary(actor.userId, rows, mutes);
  }
}
