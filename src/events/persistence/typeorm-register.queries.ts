import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName, type TopicsPolicy } from '@app/domain/channels';
import type { UnreadRow } from '@app/domain/messages';
import { type GroupSettingValue, mutedUserEntry } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SubscriptionRecord } from '../../channels/index.js';
import { GROUP_MEMBERS_SQL, GROUP_SUBGROUPS_SQL } from '../../shared/persistence/group-setting-values.js';
import { type RecentConversation, type RegisterChannel, type RegisterRead, type RegisterReadParts, RegisterQueries } from '../application/register-sections.js';

/** A channel's permission settings: the ids of the user groups in its `<setting>_id` columns. */
type ChannelGroupSettingColumns = Record<`${ChannelGroupSettingName}_id`, number>;

/** A channel as `channels` holds it, with its setting groups' ids, subscriber count and default flag (JSON: dates are text). */
interface ChannelJson extends ChannelGroupSettingColumns {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  message_retention_days: number | null;
  is_archived: boolean;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  date_created: string;
  creator_id: number | null;
  first_message_id: number | null;
  subscriber_count: number;
  is_default: boolean;
}

/** A followed or muted topic (JSON: the date is text). */
interface UserTopicJson {
  channelId: number;
  channelName: string;
  topic: string;
  lastUpdated: string;
  policy: number;
}

/** A muted user (JSON: the date is text). */
interface MutedUserJson {
  muted_user_id: number;
  date_muted: string;
}

interface DefaultChannelGroupJson {
  id: number;
  name: string;
  description: string;
  channel_ids: number[];
}

interface NavigationViewJson {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

/** The one row `read` answers; a column is null when its part was not asked for (or, for max_message_id, when there is none). */
interface RegisterReadRow {
  settings_version: string;
  user_list_version: string | null;
  group_ids: number[] | null;
  channels: ChannelJson[] | null;
  /** Already in SubscriptionRecord's shape. */
  subscriptions: SubscriptionRecord[] | null;
  max_message_id: number | null;
  unread_rows: UnreadRow[] | null;
  starred_ids: number[] | null;
  user_topics: UserTopicJson[] | null;
  alert_words: string[] | null;
  muted_users: MutedUserJson[] | null;
  default_channel_ids: number[] | null;
  recent_conversations: RecentConversation[] | null;
  onboarding_steps: string[] | null;
  default_channel_groups: DefaultChannelGroupJson[] | null;
  navigation_views: NavigationViewJson[] | null;
}

/** An anonymous group's direct members and subgroups are read (null for a named group, which is known by its id). */
interface GroupSettingValueRow {
  id: number;
  anonymous: boolean;
  members: number[] | null;
  subgroups: number[] | null;
}

/** The parameters of one statement: each added when first used (Postgres refuses parameters no column uses). */
class Parameters {
  readonly values: unknown[] = [];
  private readonly named = new Map<string, string>();

  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }

  once(name: string, value: unknown): string {
    let p = this.named.get(name);
    if (p === undefined) this.named.set(name, (p = this.add(value)));
    return p;
  }
}

/**
 * The user's direct-message conversations by their newest message (one probe of
 * messages_recipient_idx per conversation), the other participants sorted (none: with oneself).
 */
function recentConversationsSql(user: string, limit: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('max_message_id', rc.max_id, 'user_ids', rc.user_ids) ORDER BY rc.max_id DESC), '[]')
    FROM (SELECT last.max_id,
            ARRAY(SELECT o.user_id FROM direct_message_group_members o WHERE o.group_id = gm.group_id AND o.user_id <> ${user} ORDER BY o.user_id) AS user_ids
          FROM direct_message_group_members gm
          JOIN recipients r ON r.type = 3 AND r.type_id = gm.group_id -- 3: a direct-message conversation
          CROSS JOIN LATERAL (SELECT max(m.id) AS max_id FROM messages m WHERE m.recipient_id = r.id) last
          WHERE gm.user_id = ${user} AND last.max_id IS NOT NULL
          ORDER BY last.max_id DESC LIMIT ${limit}) rc)`;
}

/** The organization's default channel groups, each group's channels by channel name (as Zulip's DefaultStreamGroup.to_dict). */
const defaultChannelGroupsSql = (realm: string): string =>
  `(SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'description', g.description,
      'channel_ids', ARRAY(SELECT gc.channel_id FROM default_channel_group_channels gc JOIN channels c ON c.id = gc.channel_id
                           WHERE gc.group_id = g.id ORDER BY c.name, c.id)) ORDER BY g.id), '[]')
    FROM default_channel_groups g WHERE g.realm_id = ${realm})`;

/** The user's navigation views, in the order they were added. */
const navigationViewsSql = (user: string): string =>
  `(SELECT coalesce(json_agg(json_build_object('fragment', v.fragment, 'is_pinned', v.is_pinned, 'name', v.name) ORDER BY v.id), '[]')
    FROM navigation_views v WHERE v.user_id = ${user})`;

/** Every column of `read` (null when its part is not asked for), adding the parameters the asked ones use. */
function columns(parts: RegisterReadParts, params: Parameters, userId: number, realmId: number): Record<keyof RegisterReadRow, string | null> {
  const ids = {
    get user() {
      return params.once('user', userId);
    },
    get realm() {
      return params.once('realm', realmId);
    },
  };
  const param = (v: unknown) => params.add(v);
  return {
    settings_version: `(SELECT settings_version FROM realms WHERE id = ${ids.realm})`,
    user_list_version: parts.userListVersion ? `(SELECT version FROM realm_user_list_versions WHERE realm_id = ${ids.realm})` : null,
    group_ids: parts.groups
      ? `ARRAY(WITH RECURSIVE up(id) AS (
           SELECT m.group_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active WHERE m.user_id = ${ids.user}
           UNION
           SELECT s.supergroup_id FROM user_group_subgroups s JOIN up ON s.subgroup_id = up.id)
         SELECT id FROM up)`
      : null,
    // The same rows and order as ChannelQueries.channels; the subscriber counts of all of them in
    // one pass (active subscriptions of active users).
    channels: parts.channels
      ? `(SELECT coalesce(json_agg(x ORDER BY x.name), '[]') FROM (
           SELECT c.*, coalesce(n.subscriber_count, 0) AS subscriber_count,
             EXISTS (SELECT 1 FROM default_channels d WHERE d.channel_id = c.id) AS is_default
           FROM channels c
           LEFT JOIN (SELECT s.channel_id, count(*)::int AS subscriber_count
                      FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active
                      WHERE s.active AND s.channel_id = ANY (ARRAY(SELECT id FROM channels WHERE realm_id = ${ids.realm}))
                      GROUP BY s.channel_id) n ON n.channel_id = c.id
           WHERE c.realm_id = ${ids.realm}) x)`
      : null,
    subscriptions: parts.subscriptions
      ? `(SELECT coalesce(json_agg(json_build_object('userId', s.user_id, 'channelId', s.channel_id, 'active', s.active, 'color', s.color,
             'isMuted', s.is_muted, 'pinToTop', s.pin_to_top, 'desktopNotifications', s.desktop_notifications,
             'audibleNotifications', s.audible_notifications, 'pushNotifications', s.push_notifications,
             'emailNotifications', s.email_notifications, 'wildcardMentionsNotify', s.wildcard_mentions_notify)), '[]')
         FROM subscriptions s WHERE s.user_id = ${ids.user})`
      : null,
    max_message_id: parts.maxMessageId ? `(SELECT max(message_id) FROM user_messages WHERE user_id = ${ids.user})` : null,
    // Unread messages of DMs and of channels the user is subscribed to.
    unread_rows:
      parts.unreadLimit !== null
        ? `(SELECT coalesce(json_agg(json_build_object('id', ur.id, 'flags', ur.flags, 'channelId', ur.channel_id, 'topic', ur.topic,
               'senderId', ur.sender_id, 'participants', ur.participants) ORDER BY ur.id), '[]')
           FROM (SELECT um.message_id AS id, um.flags, m.channel_id, m.topic, m.sender_id,
                   CASE WHEN m.channel_id IS NULL THEN
                     (SELECT array_agg(gm.user_id ORDER BY gm.user_id) FROM recipients r
                        JOIN direct_message_group_members gm ON gm.group_id = r.type_id WHERE r.id = m.recipient_id)
                   END AS participants
                 FROM user_messages um JOIN messages m ON m.id = um.message_id
                 WHERE um.user_id = ${ids.user} AND (um.flags & 1) = 0
                   AND (m.channel_id IS NULL OR EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = ${ids.user} AND s.channel_id = m.channel_id AND s.active))
                 ORDER BY um.message_id LIMIT ${param(parts.unreadLimit)}) ur)`
        : null,
    starred_ids:
      parts.starredLimit !== null
        ? `ARRAY(SELECT message_id FROM (SELECT message_id FROM user_messages WHERE user_id = ${ids.user} AND (flags & 2) <> 0
             ORDER BY message_id DESC LIMIT ${param(parts.starredLimit)}) x ORDER BY 1)`
        : null,
    user_topics: parts.userTopics
      ? `(SELECT coalesce(json_agg(json_build_object('channelId', t.channel_id, 'channelName', c.name, 'topic', t.topic_name,
             'lastUpdated', t.last_updated, 'policy', t.visibility_policy) ORDER BY t.channel_id, lower(t.topic_name)), '[]')
         FROM user_topics t JOIN channels c ON c.id = t.channel_id WHERE t.user_id = ${ids.user} AND NOT c.is_archived)`
      : null,
    alert_words: parts.alertWords ? `ARRAY(SELECT word FROM alert_words WHERE realm_id = ${ids.realm} AND user_id = ${ids.user} ORDER BY id)` : null,
    muted_users: parts.mutedUsers
      ? `(SELECT coalesce(json_agg(json_build_object('muted_user_id', muted_user_id, 'date_muted', date_muted) ORDER BY date_muted, muted_user_id), '[]')
         FROM muted_users WHERE realm_id = ${ids.realm} AND user_id = ${ids.user})`
      : null,
    default_channel_ids: parts.defaultChannels
      ? `ARRAY(SELECT d.channel_id FROM default_channels d JOIN channels c ON c.id = d.channel_id WHERE d.realm_id = ${ids.realm} AND NOT c.is_archived ORDER BY 1)`
      : null,
    recent_conversations: parts.recentConversationsLimit !== null ? recentConversationsSql(ids.user, param(parts.recentConversationsLimit)) : null,
    onboarding_steps: parts.onboardingSteps ? `ARRAY(SELECT onboarding_step FROM onboarding_steps WHERE user_id = ${ids.user})` : null,
    default_channel_groups: parts.defaultChannelGroups ? defaultChannelGroupsSql(ids.realm) : null,
    navigation_views: parts.navigationViews ? navigationViewsSql(ids.user) : null,
  };
}

/** A channel read as JSON → the record ChannelQueries answers, its settings as group ids. */
function toChannel(r: ChannelJson): RegisterChannel {
  return {
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    description: r.description,
    inviteOnly: r.invite_only,
    isWebPublic: r.is_web_public,
    historyPublicToSubscribers: r.history_public_to_subscribers,
    messageRetentionDays: r.message_retention_days,
    isArchived: r.is_archived,
    folderId: r.folder_id,
    topicsPolicy: r.topics_policy,
    dateCreated: new Date(r.date_created),
    creatorId: r.creator_id,
    firstMessageId: r.first_message_id,
    groupSettingIds: Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, r[`${s}_id`]])) as RegisterChannel['groupSettingIds'],
    renderedDescription: r.rendered_description,
    subscriberCount: r.subscriber_count,
    isDefault: r.is_default,
  };
}

@Injectable()
export class TypeOrmRegisterQueries extends RegisterQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async read(userId: number, realmId: number, parts: RegisterReadParts): Promise<RegisterRead> {
    const params = new Parameters();
    const selected = Object.entries(columns(parts, params, userId, realmId)).filter(([, sql]) => sql !== null);
    const [row]: RegisterReadRow[] = await this.ds.query(`SELECT ${selected.map(([name, sql]) => `${sql} AS ${name}`).join(',\n')}`, params.values);
    const subscriptions = row.subscriptions ?? [];
    return {
      settingsVersion: Number(row.settings_version),
      userListVersion: Number(row.user_list_version ?? 0),
      groupIds: new Set(row.group_ids ?? []),
      channels: (row.channels ?? []).map(toChannel),
      subscriptions: subscriptions.filter((s) => s.active),
      formerSubscriptions: subscriptions.filter((s) => !s.active),
      maxMessageId: row.max_message_id ?? -1,
      unreadRows: row.unread_rows ?? [],
      starredIds: row.starred_ids ?? [],
      userTopics: (row.user_topics ?? []).map((t) => ({ ...t, lastUpdated: new Date(t.lastUpdated) })),
      alertWords: row.alert_words ?? [],
      mutedUsers: (row.muted_users ?? []).map((m) => mutedUserEntry(m.muted_user_id, new Date(m.date_muted))),
      defaultChannelIds: row.default_channel_ids ?? [],
      recentConversations: row.recent_conversations ?? [],
      seenOnboardingSteps: row.onboarding_steps ?? [],
      defaultChannelGroups: (row.default_channel_groups ?? []).map((g) => ({ id: g.id, name: g.name, description: g.description, channelIds: g.channel_ids })),
      navigationViews: (row.navigation_views ?? []).map((v) => ({ fragment: v.fragment, isPinned: v.is_pinned, name: v.name })),
    };
  }

  async groupSettingValues(realmId: number): Promise<Map<number, GroupSettingValue>> {
    const rows: GroupSettingValueRow[] = await this.ds.query(
      `SELECT g.id, g.name IS NULL AS anonymous,
         CASE WHEN g.name IS NULL THEN ${GROUP_MEMBERS_SQL} END AS members,
         CASE WHEN g.name IS NULL THEN ${GROUP_SUBGROUPS_SQL} END AS subgroups
       FROM user_groups g WHERE g.realm_id = $1`,
      [realmId],
    );
    return new Map(rows.map((g) => [g.id, g.anonymous ? { directMembers: g.members ?? [], directSubgroups: g.subgroups ?? [] } : g.id]));
  }
}
