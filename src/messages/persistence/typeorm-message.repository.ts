import { FLAG_BITS } from '@app/domain/messages';
import { returnedRows } from '../../shared/persistence/rows.js';
import type { EntityManager } from 'typeorm';
import {
  type AttachmentRecord,
  type EditHistoryEntry,
  type InitialFlags,
  type MentionCandidates,
  type MessageRecord,
  MessageRepository,
  type NewMessage,
  type TopicFacts,
  type UserMessageRow,
} from '../application/message.ports.js';

export const RECIPIENT_CHANNEL = 2;
export const RECIPIENT_DIRECT = 3;

export function toMessageRecord(r: Record<string, unknown>): MessageRecord {
  return {
    id: r.id as number,
    realmId: r.realm_id as number,
    senderId: r.sender_id as number,
    recipientId: r.recipient_id as number,
    channelId: r.channel_id as number | null,
    topic: r.topic as string,
    content: r.content as string,
    renderedContent: r.rendered_content as string,
    dateSent: r.date_sent as Date,
    sendingClient: r.sending_client as string,
    lastEditTime: r.last_edit_time as Date | null,
    lastMovedTime: r.last_moved_time as Date | null,
    editHistory: (r.edit_history as EditHistoryEntry[] | null) ?? [],
    hasAttachment: r.has_attachment as boolean,
  };
}

const toAttachment = (r: Record<string, unknown>): AttachmentRecord => ({
  id: r.id as number,
  ownerId: r.owner_id as number,
  pathId: r.path_id as string,
  name: r.name as string,
  size: Number(r.size),
  contentType: r.content_type as string,
  createTime: r.create_time as Date,
  messageIds: (r.message_ids as number[] | null) ?? [],
});

const ATTACHMENT_SELECT = `SELECT a.*, ARRAY(SELECT am.message_id FROM attachment_messages am WHERE am.attachment_id = a.id ORDER BY 1) AS message_ids
  FROM attachments a`;

/** The flags expression every recipient row starts with ($2 sender, $3 read, $4 mentioned, $5 wildcard, $6 topic-wildcard users). */
const INITIAL_FLAGS_SQL = `(CASE WHEN u.id = $2 AND $3 THEN ${FLAG_BITS.read} ELSE 0 END)
  | (CASE WHEN u.id = ANY($4::int[]) THEN ${FLAG_BITS.mentioned} ELSE 0 END)
  | (CASE WHEN $5 THEN ${FLAG_BITS.stream_wildcard_mentioned} ELSE 0 END)
  | (CASE WHEN u.id = ANY($6::int[]) THEN ${FLAG_BITS.topic_wildcard_mentioned} ELSE 0 END)`;

export class TypeOrmMessageRepository extends MessageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async mentionCandidates(
    realmId: number,
    names: readonly string[],
    ids: readonly number[],
    groupNames: readonly string[],
  ): Promise<MentionCandidates> {
    const users =
      names.length + ids.length === 0
        ? []
        : await this.em.query(
            `SELECT id, full_name, is_bot FROM users
             WHERE realm_id = $1 AND is_active AND (lower(full_name) = ANY($2::text[]) OR id = ANY($3::int[]))`,
            [realmId, names, ids],
          );
    const groups =
      groupNames.length === 0
        ? []
        : await this.em.query(
            `SELECT id, name, can_mention_group_id FROM user_groups
             WHERE realm_id = $1 AND name = ANY($2::text[]) AND NOT deactivated AND NOT is_system_group`,
            [realmId, groupNames],
          );
    return {
      users: users.map((u: { id: number; full_name: string; is_bot: boolean }) => ({ id: u.id, fullName: u.full_name, isBot: u.is_bot })),
      groups: groups.map((g: { id: number; name: string; can_mention_group_id: number }) => ({
        id: g.id,
        name: g.name,
        canMentionGroupId: g.can_mention_group_id,
      })),
    };
  }

  async groupMembers(groupIds: readonly number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.em.query(
      `WITH RECURSIVE down(id) AS (
         SELECT unnest($1::int[])
         UNION
         SELECT s.subgroup_id FROM user_group_subgroups s JOIN down ON s.supergroup_id = down.id
       )
       SELECT DISTINCT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
       WHERE m.group_id IN (SELECT id FROM down)`,
      [groupIds],
    );
    return rows.map((r: { user_id: number }) => r.user_id);
  }

  async activeSubscriberCount(channelId: number): Promise<number> {
    const [row] = await this.em.query(
      `SELECT count(*)::int AS n FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active
       WHERE s.channel_id = $1 AND s.active`,
      [channelId],
    );
    return row.n;
  }

  private async recipient(realmId: number, type: number, typeId: number): Promise<number> {
    const [row] = await this.em.query(
      `WITH ins AS (
         INSERT INTO recipients (realm_id, type, type_id) VALUES ($1, $2, $3) ON CONFLICT (type, type_id) DO NOTHING RETURNING id
       )
       SELECT id FROM ins UNION ALL SELECT id FROM recipients WHERE type = $2 AND type_id = $3 LIMIT 1`,
      [realmId, type, typeId],
    );
    if (row !== undefined) return row.id;
    // A concurrent transaction inserted it: ON CONFLICT waited for its COMMIT, but this
    // statement's snapshot is older; the next statement sees the row.
    const [again] = await this.em.query(`SELECT id FROM recipients WHERE type = $1 AND type_id = $2`, [type, typeId]);
    return again.id;
  }

  channelRecipient(realmId: number, channelId: number): Promise<number> {
    return this.recipient(realmId, RECIPIENT_CHANNEL, channelId);
  }

  async directConversation(realmId: number, userIds: readonly number[]): Promise<{ recipientId: number; hasMessages: boolean }> {
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    const key = ids.join(',');
    let [group] = await this.em.query(
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
    group ??= (
      await this.em.query(`SELECT id, false AS created FROM direct_message_groups WHERE realm_id = $1 AND participant_key = $2`, [realmId, key])
    )[0];
    const recipientId = await this.recipient(realmId, RECIPIENT_DIRECT, group.id);
    const hasMessages = group.created
      ? false
      : (await this.em.query(`SELECT 1 FROM messages WHERE recipient_id = $1 LIMIT 1`, [recipientId])).length > 0;
    return { recipientId, hasMessages };
  }

  async directParticipants(recipientId: number): Promise<number[]> {
    return (await this.directParticipantsOf([recipientId])).get(recipientId) ?? [];
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


  async topicFacts(channelId: number, topic: string): Promise<TopicFacts> {
    const rows = await this.em.query(
      `SELECT DISTINCT sender_id FROM messages WHERE channel_id = $1 AND lower(topic) = lower($2)`,
      [channelId, topic],
    );
    return { exists: rows.length > 0, participants: rows.map((r: { sender_id: number }) => r.sender_id) };
  }

  async insert(m: NewMessage): Promise<number> {
    const [row] = await this.em.query(
      `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent,
         sending_client, has_attachment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [m.realmId, m.senderId, m.recipientId, m.channelId, m.topic, m.content, m.renderedContent, m.dateSent, m.sendingClient, m.hasAttachment],
    );
    return row.id;
  }

  async insertChannelUserMessages(messageId: number, channelId: number, f: InitialFlags): Promise<UserMessageRow[]> {
    const rows = await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT u.id, $1, ${INITIAL_FLAGS_SQL}
       FROM users u
       WHERE u.is_active AND (u.id = $2 OR u.id IN (SELECT s.user_id FROM subscriptions s WHERE s.channel_id = $7 AND s.active))
       RETURNING user_id, flags`,
      [messageId, f.senderId, f.senderRead, f.mentioned, f.streamWildcard, f.topicWildcardUsers, channelId],
    );
    return returnedRows<{ user_id: number; flags: number }>(rows).map((r) => ({ userId: r.user_id, flags: r.flags }));
  }

  async insertDirectUserMessages(messageId: number, userIds: readonly number[], f: InitialFlags): Promise<UserMessageRow[]> {
    const rows = await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT u.id, $1, ${INITIAL_FLAGS_SQL} FROM users u WHERE u.id = ANY($7::int[])
       RETURNING user_id, flags`,
      [messageId, f.senderId, f.senderRead, f.mentioned, f.streamWildcard, f.topicWildcardUsers, userIds],
    );
    return returnedRows<{ user_id: number; flags: number }>(rows).map((r) => ({ userId: r.user_id, flags: r.flags }));
  }

  async updateMentionFlags(messageId: number, f: InitialFlags): Promise<void> {
    const mentionBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
    await this.em.query(
      `UPDATE user_messages um SET flags = (um.flags & ~${mentionBits})
         | (CASE WHEN um.user_id = ANY($2::int[]) THEN ${FLAG_BITS.mentioned} ELSE 0 END)
         | (CASE WHEN $3 THEN ${FLAG_BITS.stream_wildcard_mentioned} ELSE 0 END)
         | (CASE WHEN um.user_id = ANY($4::int[]) THEN ${FLAG_BITS.topic_wildcard_mentioned} ELSE 0 END)
       WHERE um.message_id = $1`,
      [messageId, f.mentioned, f.streamWildcard, f.topicWildcardUsers],
    );
  }

  async markAllRead(userId: number, channelId: number | null, topic: string | null): Promise<number[]> {
    const rows = returnedRows<{ message_id: number }>(await this.em.query(
      `UPDATE user_messages um SET flags = um.flags | ${FLAG_BITS.read}
       FROM messages m
       WHERE um.user_id = $1 AND (um.flags & ${FLAG_BITS.read}) = 0 AND m.id = um.message_id
         AND ($2::int IS NULL OR m.channel_id = $2) AND ($3::text IS NULL OR lower(m.topic) = lower($3))
       RETURNING um.message_id`,
      [userId, channelId, topic],
    ));
    return rows.map((r: { message_id: number }) => r.message_id);
  }

  async userHasTopic(userId: number, channelId: number, topic: string): Promise<boolean> {
    const rows = await this.em.query(
      `SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = $1 AND m.channel_id = $2 AND lower(m.topic) = lower($3) LIMIT 1`,
      [userId, channelId, topic],
    );
    return rows.length > 0;
  }

  async markRead(userIds: readonly number[], messageIds: readonly number[]): Promise<void> {
    await this.em.query(
      `UPDATE user_messages SET flags = flags | ${FLAG_BITS.read} WHERE user_id = ANY($1::int[]) AND message_id = ANY($2::int[])`,
      [userIds, messageIds],
    );
  }

  async refreshChannelFirstMessage(channelId: number): Promise<{ changed: boolean; firstMessageId: number | null }> {
    const rows = returnedRows<{ first_message_id: number | null; before: number | null }>(
      await this.em.query(
        `UPDATE channels c SET first_message_id = (SELECT min(id) FROM messages WHERE channel_id = $1)
         FROM (SELECT first_message_id AS before FROM channels WHERE id = $1) old
         WHERE c.id = $1 RETURNING c.first_message_id, old.before`,
        [channelId],
      ),
    );
    const r = rows[0];
    return { changed: r !== undefined && r.first_message_id !== r.before, firstMessageId: r?.first_message_id ?? null };
  }

  async markChannelFirstMessage(channelId: number, messageId: number): Promise<void> {
    await this.em.query(`UPDATE channels SET first_message_id = $2 WHERE id = $1 AND first_message_id IS NULL`, [channelId, messageId]);
  }

  async find(realmId: number, messageId: number, forUpdate = false): Promise<MessageRecord | null> {
    const [row] = await this.em.query(`SELECT * FROM messages WHERE realm_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`, [
      realmId,
      messageId,
    ]);
    return row ? toMessageRecord(row) : null;
  }

  async messagesBasics(realmId: number, ids: readonly number[]): Promise<Map<number, MessageRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await this.em.query(`SELECT * FROM messages WHERE realm_id = $1 AND id = ANY($2::int[])`, [realmId, ids]);
    return new Map(rows.map((r: Record<string, unknown>) => [r.id as number, toMessageRecord(r)]));
  }

  async userMessageFlags(userId: number, messageId: number): Promise<number | null> {
    const [row] = await this.em.query(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [userId, messageId]);
    return row ? row.flags : null;
  }

  async topicVisibility(userId: number, channelId: number, topic: string): Promise<number> {
    const [row] = await this.em.query(
      `SELECT visibility_policy FROM user_topics WHERE user_id = $1 AND channel_id = $2 AND lower(topic_name) = lower($3)`,
      [userId, channelId, topic],
    );
    return row ? row.visibility_policy : 0;
  }

  async setTopicVisibility(
    realmId: number,
    userIds: readonly number[],
    channelId: number,
    topic: string,
    policy: number,
    now: Date,
    onlyWhereInherit: boolean,
  ): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows: { user_id: number }[] = await this.em.query(
      `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
       SELECT $1, u, $3, $4, $5, $6 FROM unnest($2::int[]) AS u
       ON CONFLICT (user_id, channel_id, lower(topic_name)) DO ${onlyWhereInherit ? 'NOTHING' : 'UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = EXCLUDED.last_updated'}
       RETURNING user_id`,
      [realmId, userIds, channelId, topic, policy, now],
    );
    return rows.map((r) => r.user_id);
  }

  async updateContent(
    id: number,
    content: string,
    rendered: string,
    editTime: Date,
    history: EditHistoryEntry[],
    hasAttachment: boolean,
  ): Promise<void> {
    await this.em.query(
      `UPDATE messages SET content = $2, rendered_content = $3, last_edit_time = $4, edit_history = $5::jsonb, has_attachment = $6 WHERE id = $1`,
      [id, content, rendered, editTime, JSON.stringify(history), hasAttachment],
    );
  }

  async move(
    ids: readonly number[],
    to: { channelId: number; recipientId: number; topic: string },
    entry: EditHistoryEntry | null,
    movedTime: Date | null,
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.em.query(
      `UPDATE messages SET channel_id = $2, recipient_id = $3, topic = $4,
         edit_history = CASE WHEN $5::jsonb IS NULL THEN edit_history
                             ELSE jsonb_build_array($5::jsonb) || coalesce(edit_history, '[]'::jsonb) END,
         last_moved_time = coalesce($6, last_moved_time)
       WHERE id = ANY($1::int[])`,
      [ids, to.channelId, to.recipientId, to.topic, entry === null ? null : JSON.stringify(entry), movedTime],
    );
  }

  async moveTopicVisibility(
    from: { channelId: number; topic: string },
    to: { channelId: number; topic: string },
  ): Promise<{ removed: number[]; set: { userId: number; policy: number; lastUpdated: Date }[] }> {
    // Rank: followed (3) > unmuted (2) > muted (1); a row exists only for non-inherit policies.
    const set: { user_id: number; visibility_policy: number; last_updated: Date }[] = await this.em.query(
      `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
       SELECT realm_id, user_id, $3, $4, visibility_policy, last_updated FROM user_topics
       WHERE channel_id = $1 AND lower(topic_name) = lower($2)
       ON CONFLICT (user_id, channel_id, lower(topic_name)) DO UPDATE
         SET visibility_policy = GREATEST(user_topics.visibility_policy, EXCLUDED.visibility_policy)
       RETURNING user_id, visibility_policy, last_updated`,
      [from.channelId, from.topic, to.channelId, to.topic],
    );
    const removed = returnedRows<{ user_id: number }>(
      await this.em.query(
        `DELETE FROM user_topics WHERE channel_id = $1 AND lower(topic_name) = lower($2)
           AND NOT (channel_id = $3 AND lower(topic_name) = lower($4))
         RETURNING user_id`,
        [from.channelId, from.topic, to.channelId, to.topic],
      ),
    );
    return {
      removed: removed.map((r) => r.user_id),
      set: set.map((r) => ({ userId: r.user_id, policy: r.visibility_policy, lastUpdated: r.last_updated })),
    };
  }

  async lastTopicMessage(channelId: number, topic: string): Promise<MessageRecord | null> {
    const [row] = await this.em.query(
      `SELECT * FROM messages WHERE channel_id = $1 AND lower(topic) = lower($2) ORDER BY id DESC LIMIT 1`,
      [channelId, topic],
    );
    return row ? toMessageRecord(row) : null;
  }

  async topicMessages(channelId: number, topic: string, visibleTo: number | null): Promise<{ id: number; dateSent: Date }[]> {
    const rows = await this.em.query(
      `SELECT m.id, m.date_sent FROM messages m
       WHERE m.channel_id = $1 AND lower(m.topic) = lower($2)
         ${visibleTo === null ? '' : 'AND EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $3)'}
       ORDER BY m.id`,
      visibleTo === null ? [channelId, topic] : [channelId, topic, visibleTo],
    );
    return rows.map((r: { id: number; date_sent: Date }) => ({ id: r.id, dateSent: r.date_sent }));
  }

  async dropRowsOfNonSubscribers(ids: readonly number[], channelId: number): Promise<number[]> {
    const rows = returnedRows<{ user_id: number }>(
      await this.em.query(
        `DELETE FROM user_messages um WHERE um.message_id = ANY($1::int[])
           AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = $2 AND s.user_id = um.user_id AND s.active)
         RETURNING um.user_id`,
        [ids, channelId],
      ),
    );
    return [...new Set(rows.map((r) => r.user_id))];
  }

  async readers(messageId: number): Promise<UserMessageRow[]> {
    return this.em.query(`SELECT user_id AS "userId", flags FROM user_messages WHERE message_id = $1`, [messageId]);
  }

  async activeSubscribers(channelId: number): Promise<number[]> {
    const rows: { user_id: number }[] = await this.em.query(`SELECT user_id FROM subscriptions WHERE channel_id = $1 AND active`, [channelId]);
    return rows.map((r) => r.user_id);
  }

  async addRowsForSubscribers(ids: readonly number[], channelId: number): Promise<void> {
    await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT s.user_id, m, ${FLAG_BITS.read} FROM subscriptions s CROSS JOIN unnest($1::int[]) AS m
       WHERE s.channel_id = $2 AND s.active
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [ids, channelId],
    );
  }

  async delete(messageId: number): Promise<boolean> {
    const rows = returnedRows(await this.em.query(`DELETE FROM messages WHERE id = $1 RETURNING id`, [messageId]));
    return rows.length > 0;
  }

  async existingFlags(userId: number, messageIds: readonly number[]): Promise<Map<number, number>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.em.query(`SELECT message_id, flags FROM user_messages WHERE user_id = $1 AND message_id = ANY($2::int[])`, [
      userId,
      messageIds,
    ]);
    return new Map(rows.map((r: { message_id: number; flags: number }) => [r.message_id, r.flags]));
  }

  async setFlag(userId: number, messageIds: readonly number[], bit: number, add: boolean): Promise<number[]> {
    if (messageIds.length === 0) return [];
    const rows = returnedRows<{ message_id: number }>(await this.em.query(
      `UPDATE user_messages SET flags = ${add ? 'flags | $3' : 'flags & ~$3::int'}
       WHERE user_id = $1 AND message_id = ANY($2::int[]) AND ${add ? '(flags & $3) = 0' : '(flags & $3) <> 0'}
       RETURNING message_id`,
      [userId, messageIds, bit],
    ));
    return rows.map((r: { message_id: number }) => r.message_id).sort((a: number, b: number) => a - b);
  }

  async insertHistoricalRows(userId: number, messageIds: readonly number[], flags: number): Promise<void> {
    if (messageIds.length === 0) return;
    await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags) SELECT $1, m, $3 FROM unnest($2::int[]) AS m
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [userId, messageIds, flags | FLAG_BITS.historical],
    );
  }

  async attachmentsByPath(realmId: number, pathIds: readonly string[]): Promise<AttachmentRecord[]> {
    if (pathIds.length === 0) return [];
    const rows = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.path_id = ANY($2::text[])`, [realmId, pathIds]);
    return rows.map(toAttachment);
  }

  async attachmentByPath(realmId: number, pathId: string): Promise<AttachmentRecord | null> {
    const [row] = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.path_id = $2`, [realmId, pathId]);
    return row ? toAttachment(row) : null;
  }

  async attachmentsOfMessage(messageId: number): Promise<AttachmentRecord[]> {
    const rows = await this.em.query(
      `${ATTACHMENT_SELECT} WHERE a.id IN (SELECT attachment_id FROM attachment_messages WHERE message_id = $1)`,
      [messageId],
    );
    return rows.map(toAttachment);
  }

  async linkAttachments(messageId: number, attachmentIds: readonly number[]): Promise<void> {
    if (attachmentIds.length === 0) return;
    await this.em.query(
      `INSERT INTO attachment_messages (attachment_id, message_id) SELECT a, $1 FROM unnest($2::int[]) AS a ON CONFLICT DO NOTHING`,
      [messageId, attachmentIds],
    );
  }

  async unlinkAttachments(messageId: number, attachmentIds: readonly number[]): Promise<void> {
    if (attachmentIds.length === 0) return;
    await this.em.query(`DELETE FROM attachment_messages WHERE message_id = $1 AND attachment_id = ANY($2::int[])`, [messageId, attachmentIds]);
  }

  async insertAttachment(a: Omit<AttachmentRecord, 'id' | 'messageIds'> & { realmId: number }): Promise<number> {
    const [row] = await this.em.query(
      `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [a.realmId, a.ownerId, a.pathId, a.name, a.size, a.contentType, a.createTime],
    );
    return row.id;
  }
}
