import type { EntityManager } from 'typeorm';
import type { UserRecord } from '../../users/index.js';
import { type ChannelSendReads, ConversationRepository, type MentionCandidates } from '../application/message.ports.js';
import { cachedSetting } from '../../shared/persistence/settings-scope.js';

/** recipients.type of a channel and of a direct conversation (Zulip's Recipient types). */
export const RECIPIENT_CHANNEL = 2;
export const RECIPIENT_DIRECT = 3;

/** A user row under the names of the users context's UserRecord (secrets left out). */
const USER_RECORD_COLUMNS = `u.id AS "id", u.realm_id AS "realmId", u.email AS "email", u.delivery_email AS "deliveryEmail",
  u.full_name AS "fullName", u.role AS "role", u.is_active AS "isActive", u.is_bot AS "isBot", u.bot_type AS "botType",
  u.bot_owner_id AS "botOwnerId", u.is_system_bot AS "isSystemBot", u.date_joined AS "dateJoined", u.timezone AS "timezone",
  u.avatar_version AS "avatarVersion", u.avatar_path AS "avatarPath", u.default_sending_stream_id AS "defaultSendingStreamId",
  u.default_events_register_stream_id AS "defaultEventsRegisterStreamId",
  u.default_all_public_streams AS "defaultAllPublicStreams", u.email_address_visibility AS "emailAddressVisibility"`;

/**
 * `channelSendReads`' row: the sender (USER_RECORD_COLUMNS) and the facts about the channel and
 * topic. The subscription columns are null when the sender (or the bot's owner) never subscribed.
 */
type ChannelSendReadsRow = UserRecord & {
  fact_subscribed: boolean | null;
  fact_muted: boolean | null;
  fact_owner_subscribed: boolean | null;
  fact_topic_exists: boolean;
  fact_participants: number[];
  fact_policy: number | null;
  fact_recipient: number | null;
  fact_subscribers: number;
};

/** A direct conversation found by its participants: its recipient and whether it has messages. */
interface ExistingConversationRow {
  recipient_id: number;
  has_messages: boolean;
}

/** A `direct_message_groups` row as `directConversation` finds or creates it. */
interface GroupRow {
  id: number;
  created: boolean;
}

/** A user named or numbered in a mention. */
interface MentionUserRow {
  id: number;
  full_name: string;
  is_bot: boolean;
}

/** A named group of a mention (every named group has its setting groups set, so `can_mention_group_id` is never null). */
interface MentionGroupRow {
  id: number;
  name: string;
  can_mention_group_id: number;
}

/** A channel's ($1) active subscribers who are active users. */
const ACTIVE_SUBSCRIBER_COUNT_SQL = `SELECT count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active
  WHERE s.channel_id = $1 AND s.active`;

export class TypeOrmConversationRepository extends ConversationRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async channelSendReads(
    realmId: number,
    senderId: number,
    channelId: number,
    topic: string,
    ask: { participants: boolean; subscriberCount: boolean },
  ): Promise<ChannelSendReads> {
    const [row]: ChannelSendReadsRow[] = await this.em.query(
      `SELECT ${USER_RECORD_COLUMNS},
         s.active AS "fact_subscribed", s.is_muted AS "fact_muted",
         (SELECT o.active FROM subscriptions o WHERE o.user_id = u.bot_owner_id AND o.channel_id = $3) AS "fact_owner_subscribed",
         EXISTS (SELECT 1 FROM messages m WHERE m.channel_id = $3 AND lower(m.topic) = lower($4)) AS "fact_topic_exists",
         CASE WHEN $5 THEN ARRAY(SELECT DISTINCT m.sender_id FROM messages m WHERE m.channel_id = $3 AND lower(m.topic) = lower($4))
              ELSE '{}'::int[] END AS "fact_participants",
         (SELECT t.visibility_policy FROM user_topics t
          WHERE t.user_id = u.id AND t.channel_id = $3 AND lower(t.topic_name) = lower($4)) AS "fact_policy",
         (SELECT r.id FROM recipients r WHERE r.type = ${RECIPIENT_CHANNEL} AND r.type_id = $3) AS "fact_recipient",
         CASE WHEN $6 THEN (${ACTIVE_SUBSCRIBER_COUNT_SQL.replace('$1', '$3')}) ELSE 0 END AS "fact_subscribers"
       FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id AND s.channel_id = $3
       WHERE u.realm_id = $1 AND u.id = $2`,
      [realmId, senderId, channelId, topic, ask.participants, ask.subscriberCount],
    );
    const { fact_subscribed, fact_muted, fact_owner_subscribed, fact_topic_exists, fact_participants, fact_policy, fact_recipient, fact_subscribers, ...sender } = row;
    return {
      sender,
      subscribed: fact_subscribed === true,
      muted: fact_muted === true,
      ownerSubscribed: fact_owner_subscribed === true,
      topicExists: fact_topic_exists,
      topicParticipants: fact_participants,
      senderTopicPolicy: fact_policy ?? 0,
      recipientId: fact_recipient,
      activeSubscribers: fact_subscribers,
    };
  }

  private async recipient(realmId: number, type: number, typeId: number): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `WITH ins AS (
         INSERT INTO recipients (realm_id, type, type_id) VALUES ($1, $2, $3) ON CONFLICT (type, type_id) DO NOTHING RETURNING id
       )
       SELECT id FROM ins UNION ALL SELECT id FROM recipients WHERE type = $2 AND type_id = $3 LIMIT 1`,
      [realmId, type, typeId],
    );
    if (row !== undefined) return row.id;
    // A concurrent transaction inserted it: ON CONFLICT waited for its COMMIT, but this
    // statement's snapshot is older; the next statement sees the row.
    const [again]: { id: number }[] = await this.em.query(`SELECT id FROM recipients WHERE type = $1 AND type_id = $2`, [type, typeId]);
    return again.id;
  }
  channelRecipient(realmId: number, channelId: number): Promise<number> {
    return this.recipient(realmId, RECIPIENT_CHANNEL, channelId);
  }
  async directRecipientsOf(realmId: number, userSets: readonly (readonly number[])[]): Promise<(number | null)[]> {
    if (userSets.length === 0) return [];
    const keys = userSets.map((ids) => [...new Set(ids)].sort((a, b) => a - b).join(','));
    const rows: { participant_key: string; id: number }[] = await this.em.query(
      `SELECT g.participant_key, r.id FROM direct_message_groups g JOIN recipients r ON r.type = ${RECIPIENT_DIRECT} AND r.type_id = g.id
       WHERE g.realm_id = $1 AND g.participant_key = ANY($2::text[])`,
      [realmId, [...new Set(keys)]],
    );
    const byKey = new Map(rows.map((r) => [r.participant_key, r.id]));
    return keys.map((k) => byKey.get(k) ?? null);
  }
  async directConversation(realmId: number, userIds: readonly number[]): Promise<{ recipientId: number; hasMessages: boolean }> {
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    const key = ids.join(',');
    // A conversation that already has its recipient (every one that has messages): one read.
    const [existing]: ExistingConversationRow[] = await this.em.query(
      `SELECT r.id AS recipient_id, EXISTS (SELECT 1 FROM messages m WHERE m.recipient_id = r.id) AS has_messages
       FROM direct_message_groups g JOIN recipients r ON r.type = ${RECIPIENT_DIRECT} AND r.type_id = g.id
       WHERE g.realm_id = $1 AND g.participant_key = $2`,
      [realmId, key],
    );
    if (existing !== undefined) return { recipientId: existing.recipient_id, hasMessages: existing.has_messages };
    const [found]: GroupRow[] = await this.em.query(
      `WITH ins AS (
         INSERT INTO direct_message_groups (realm_id, participant_key) VALUES ($1, $2)
         ON CONFLICT (realm_id, participant_key) DO NOTHING RETURNING id
       ), members AS (
         INSERT INTO direct_message_group_members (group_id, user_id) SELECT ins.id, u FROM ins, unnest($3::int[]) AS u
       )
       SELECT id, true AS created FROM ins
       UNION ALL SELECT id, false FROM direct_message_groups WHERE realm_id = $1 AND participant_key = $2 LIMIT 1`,
      [realmId, key, ids],
    );
    // Created by a concurrent transaction that committed while this statement waited on the
    // conflict (its snapshot predates that COMMIT): a new statement sees the row.
    const [group]: GroupRow[] =
      found !== undefined
        ? [found]
        : await this.em.query(`SELECT id, false AS created FROM direct_message_groups WHERE realm_id = $1 AND participant_key = $2`, [realmId, key]);
    const recipientId = await this.recipient(realmId, RECIPIENT_DIRECT, group.id);
    const messages: unknown[] = group.created ? [] : await this.em.query(`SELECT 1 FROM messages WHERE recipient_id = $1 LIMIT 1`, [recipientId]);
    return { recipientId, hasMessages: messages.length > 0 };
  }
  async directConversations(realmId: number, participantSets: readonly (readonly number[])[]): Promise<number[]> {
    if (participantSets.length === 0) return [];
    const keys = participantSets.map((ids) => [...new Set(ids)].sort((a, b) => a - b).join(','));
    await this.em.query(
      `WITH ins AS (
         INSERT INTO direct_message_groups (realm_id, participant_key)
         SELECT DISTINCT $1::int, k FROM unnest($2::text[]) AS k
         ON CONFLICT (realm_id, participant_key) DO NOTHING RETURNING id, participant_key
       )
       INSERT INTO direct_message_group_members (group_id, user_id)
       SELECT ins.id, unnest(string_to_array(ins.participant_key, ',')::int[]) FROM ins`,
      [realmId, keys],
    );
    // A new statement sees the groups this one made and any a concurrent transaction committed.
    const groups: { id: number; participant_key: string }[] = await this.em.query(
      `SELECT id, participant_key FROM direct_message_groups WHERE realm_id = $1 AND participant_key = ANY($2::text[])`,
      [realmId, keys],
    );
    const groupIds = groups.map((g) => g.id);
    await this.em.query(
      `INSERT INTO recipients (realm_id, type, type_id) SELECT $1, ${RECIPIENT_DIRECT}, g FROM unnest($2::int[]) AS g
       ON CONFLICT (type, type_id) DO NOTHING`,
      [realmId, groupIds],
    );
    const recipients: { id: number; type_id: number }[] = await this.em.query(
      `SELECT id, type_id FROM recipients WHERE type = ${RECIPIENT_DIRECT} AND type_id = ANY($1::int[])`,
      [groupIds],
    );
    const groupOf = new Map(groups.map((g) => [g.participant_key, g.id]));
    const recipientOf = new Map(recipients.map((r) => [r.type_id, r.id]));
    return keys.map((k) => recipientOf.get(groupOf.get(k)!)!);
  }

  async directParticipantsOf(recipientIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (recipientIds.length === 0) return out;
    const rows: { recipient_id: number; user_id: number }[] = await this.em.query(
      `SELECT r.id AS recipient_id, m.user_id FROM recipients r JOIN direct_message_group_members m ON m.group_id = r.type_id
       WHERE r.id = ANY($1::int[]) AND r.type = ${RECIPIENT_DIRECT} ORDER BY 1, 2`,
      [recipientIds],
    );
    for (const r of rows) {
      if (!out.has(r.recipient_id)) out.set(r.recipient_id, []);
      out.get(r.recipient_id)!.push(r.user_id);
    }
    return out;
  }
  async activeSubscriberCount(channelId: number): Promise<number> {
    const [row]: { n: number }[] = await this.em.query(ACTIVE_SUBSCRIBER_COUNT_SQL, [channelId]);
    return row.n;
  }
  async activeSubscribers(channelId: number): Promise<number[]> {
    const rows: { user_id: number }[] = await this.em.query(`SELECT user_id FROM subscriptions WHERE channel_id = $1 AND active`, [channelId]);
    return rows.map((r) => r.user_id);
  }
  async mentionCandidates(
    realmId: number,
    names: readonly string[],
    ids: readonly number[],
    groupNames: readonly string[],
  ): Promise<MentionCandidates> {
    const users: MentionUserRow[] =
      names.length + ids.length === 0
        ? []
        : await this.em.query(
            `SELECT id, full_name, is_bot FROM users
             WHERE realm_id = $1 AND is_active AND (lower(full_name) = ANY($2::text[]) OR id = ANY($3::int[]))`,
            [realmId, names, ids],
          );
    const groups: MentionGroupRow[] =
      groupNames.length === 0
        ? []
        : await this.em.query(
            `SELECT id, name, can_mention_group_id FROM user_groups
             WHERE realm_id = $1 AND name = ANY($2::text[]) AND NOT deactivated AND NOT is_system_group`,
            [realmId, groupNames],
          );
    return {
      users: users.map((u) => ({ id: u.id, fullName: u.full_name, isBot: u.is_bot })),
      groups: groups.map((g) => ({
        id: g.id,
        name: g.name,
        canMentionGroupId: g.can_mention_group_id,
      })),
    };
  }
  async linkableChannels(realmId: number, names: readonly string[], viewerId: number | null): Promise<{ id: number; name: string }[]> {
    if (names.length === 0) return [];
    const rows: { id: number; name: string }[] = await this.em.query(
      `SELECT c.id, c.name FROM channels c
        WHERE c.realm_id = $1 AND lower(c.name) = ANY($2::text[]) AND c.name = ANY($3::text[]) AND NOT c.is_archived
          AND ($4::int IS NULL OR c.is_web_public
               OR (NOT c.invite_only AND EXISTS (SELECT 1 FROM users u WHERE u.id = $4 AND u.role <> 600))
               OR EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = c.id AND s.user_id = $4 AND s.active))`,
      [realmId, names.map((n) => n.toLowerCase()), names, viewerId],
    );
    return rows;
  }
  /** From the settings cache when this transaction knows the organization's settings version (see loadActorContext). */
  renderSettings(realmId: number): Promise<{ stringId: string; linkifiers: { pattern: string; urlTemplate: string }[] }> {
    return cachedSetting(this.em, realmId, undefined, 'render', () => this.loadRenderSettings(realmId));
  }
  private async loadRenderSettings(realmId: number): Promise<{ stringId: string; linkifiers: { pattern: string; urlTemplate: string }[] }> {
    const rows: { string_id: string; pattern: string | null; url_template: string | null }[] = await this.em.query(
      `SELECT r.string_id, l.pattern, l.url_template FROM realms r LEFT JOIN linkifiers l ON l.realm_id = r.id
        WHERE r.id = $1 ORDER BY l."order", l.id`,
      [realmId],
    );
    return {
      stringId: rows[0]?.string_id ?? '',
      linkifiers: rows.flatMap((r) => (r.pattern === null || r.url_template === null ? [] : [{ pattern: r.pattern, urlTemplate: r.url_template }])),
    };
  }
  async groupMembers(groupIds: readonly number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows: { user_id: number }[] = await this.em.query(
      `WITH RECURSIVE down(id) AS (
         SELECT unnest($1::int[])
         UNION
         SELECT s.subgroup_id FROM user_group_subgroups s JOIN down ON s.supergroup_id = down.id
       )
       SELECT DISTINCT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
       WHERE m.group_id IN (SELECT id FROM down)`,
      [groupIds],
    );
    return rows.map((r) => r.user_id);
  }
}
