import { FLAG_BITS, Message, type TopicMessage, type TopicMove, WIDGET_MSG_TYPE } from '@app/domain/messages';
import type { EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { isStorableId, storableIds } from '../../shared/application/ids.js';
import { type MessageRecord, MessageRepository, type TopicFacts, type UserMessageRow } from '../application/message.ports.js';
import { alertWordParams, hasAlertWordInSql, hasAlertWordSql } from './alert-word-flags.js';
import type { IdRow, MessageRow, UserIdRow } from './message.rows.js';

export function toMessageRecord(r: MessageRow): MessageRecord {
  return {
    id: r.id,
    realmId: r.realm_id,
    senderId: r.sender_id,
    recipientId: r.recipient_id,
    channelId: r.channel_id,
    topic: r.topic,
    content: r.content,
    renderedContent: r.rendered_content,
    dateSent: r.date_sent,
    sendingClient: r.sending_client,
    lastEditTime: r.last_edit_time,
    lastMovedTime: r.last_moved_time,
    editHistory: r.edit_history ?? [],
    hasAttachment: r.has_attachment,
    hasSubmessages: r.has_submessages,
  };
}

const toDomain = (r: MessageRow): Message => Message.restore(toMessageRecord(r));

/**
 * What `add`'s statement returns: the new message's id, every recipient row as a
 * `[user_id, flags]` pair (json), and a widget message's first submessage id.
 */
interface AddedMessageRow {
  id: number;
  rows: [number, number][];
  widget_id?: number;
}

/** A direct notice as its INSERT returns it (its recipient names it: each has its own conversation). */
interface InsertedNoticeRow {
  id: number;
  recipient_id: number;
}

/** A recipient row of a direct notice as its INSERT returns it. */
interface NoticeUserMessageRow {
  user_id: number;
  message_id: number;
  flags: number;
}

/** `refreshChannelFirstMessage`: the channel's first message after and before the update. */
interface FirstMessageRow {
  first_message_id: number | null;
  before: number | null;
}

/**
 * The flags every recipient row starts with ($2 sender, $3 read by sender, $4 mentioned,
 * $5 channel wildcard, $6 topic-wildcard users, $7 also read by, $9–$12 alert words), for all
 * recipients at once. A recipient who has muted the sender gets the message read (Zulip's
 * muted_sender_user_ids): one primary-key probe of muted_users per row.
 */
const INITIAL_FLAGS_SQL = `(CASE WHEN (u.id = $2 AND $3) OR u.id = ANY($7::int[])
    OR EXISTS (SELECT 1 FROM muted_users mu WHERE mu.user_id = u.id AND mu.muted_user_id = $2) THEN ${FLAG_BITS.read} ELSE 0 END)
  | (CASE WHEN u.id = ANY($4::int[]) THEN ${FLAG_BITS.mentioned} ELSE 0 END)
  | (CASE WHEN $5 THEN ${FLAG_BITS.stream_wildcard_mentioned} ELSE 0 END)
  | (CASE WHEN u.id = ANY($6::int[]) THEN ${FLAG_BITS.topic_wildcard_mentioned} ELSE 0 END)
  | (CASE WHEN ${hasAlertWordSql('u.id', 9)} THEN ${FLAG_BITS.has_alert_word} ELSE 0 END)`;

/**
 * A channel's active subscribers and the sender ($8 channel), or the listed participants ($8 user
 * ids). One semi-join on the users' primary key (`id = $2 OR id IN …` made PostgreSQL scan every
 * user of the database on each send).
 */
const AUDIENCE_SQL = {
  channel: `u.id IN (SELECT $2::int UNION ALL SELECT s.user_id FROM subscriptions s WHERE s.channel_id = $8 AND s.active) AND u.is_active`,
  direct: `u.id = ANY($8::int[])`,
};

export class TypeOrmMessageRepository extends MessageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async find(realmId: number, messageId: number): Promise<MessageRecord | null> {
    if (!isStorableId(messageId)) return null;
    const [row]: MessageRow[] = await this.em.query(`SELECT * FROM messages WHERE realm_id = $1 AND id = $2`, [realmId, messageId]);
    return row ? toMessageRecord(row) : null;
  }

  async findMany(realmId: number, requested: readonly number[]): Promise<Map<number, MessageRecord>> {
    const ids = storableIds(requested);
    if (ids.length === 0) return new Map();
    const rows: MessageRow[] = await this.em.query(`SELECT * FROM messages WHERE realm_id = $1 AND id = ANY($2::int[])`, [realmId, ids]);
    return new Map(rows.map((r) => [r.id, toMessageRecord(r)]));
  }

  async getForUpdate(realmId: number, messageId: number): Promise<Message | null> {
    if (!isStorableId(messageId)) return null;
    const [row]: MessageRow[] = await this.em.query(`SELECT * FROM messages WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [realmId, messageId]);
    return row ? toDomain(row) : null;
  }

  async add(message: Message): Promise<UserMessageRow[]> {
    const f = message.pendingFlagPlan();
    const m = message.snapshot();
    const audience = f.audience.kind === 'channel' ? f.audience.channelId : f.audience.userIds;
    const widget = message.pendingWidget();
    // One statement: the message, its channel's first message if unset ($1: a channel message), every recipient's
    // row, and a widget's first submessage ($22, only for a widget message).
    const [row]: AddedMessageRow[] = await this.em.query(
      `WITH ins AS (
         INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent,
           sending_client, has_attachment, has_submessages)
         VALUES ($13, $2, $14, $15, $16, $17, $18, $19, $20, $21, ${widget === null ? 'false' : 'true'}) RETURNING id
       ), first AS (
         UPDATE channels SET first_message_id = (SELECT id FROM ins) WHERE $1 AND id = $15 AND first_message_id IS NULL
       ), rows AS (
         INSERT INTO user_messages (user_id, message_id, flags)
         SELECT u.id, ins.id, ${INITIAL_FLAGS_SQL} FROM users u, ins WHERE ${AUDIENCE_SQL[f.audience.kind]}
         RETURNING user_id, flags
       )${widget === null ? '' : `, widget AS (
         INSERT INTO submessages (message_id, sender_id, msg_type, content) SELECT id, $2, '${WIDGET_MSG_TYPE}', $22 FROM ins RETURNING id
       )`}
       SELECT (SELECT id FROM ins) AS id, coalesce((SELECT json_agg(json_build_array(user_id, flags)) FROM rows), '[]') AS rows${
         widget === null ? '' : ', (SELECT id FROM widget) AS widget_id'
       }`,
      [
        m.channelId !== null,
        f.senderId,
        f.senderRead,
        f.mentioned,
        f.streamWildcard,
        f.topicWildcardUsers,
        f.alsoReadBy,
        audience,
        ...alertWordParams(f.alertWordText),
        m.realmId,
        m.recipientId,
        m.channelId,
        m.topic,
        m.content,
        m.renderedContent,
        m.dateSent,
        m.sendingClient,
        m.hasAttachment,
        ...(widget === null ? [] : [widget]),
      ],
    );
    message.identify(row.id, widget === null ? undefined : row.widget_id);
    return row.rows.map(([userId, flags]) => ({ userId, flags }));
  }

  async addDirectNotices(messages: readonly Message[]): Promise<UserMessageRow[][]> {
    if (messages.length === 0) return [];
    const plans = messages.map((m) => m.pendingFlagPlan());
    const snaps = messages.map((m) => m.snapshot());
    for (const p of plans) {
      if (p.audience.kind !== 'direct' || !p.senderRead || p.mentioned.length > 0 || p.alsoReadBy.length > 0) throw new Error('not a direct notice');
    }
    const inserted: InsertedNoticeRow[] = await this.em.query(
      `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client, has_attachment)
       SELECT x.realm_id, x.sender_id, x.recipient_id, NULL, '', x.content, x.rendered, x.date_sent, x.client, false
       FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::text[])
         WITH ORDINALITY AS x(realm_id, sender_id, recipient_id, content, rendered, date_sent, client, n)
       ORDER BY x.n
       RETURNING id, recipient_id`,
      [
        snaps.map((m) => m.realmId),
        snaps.map((m) => m.senderId),
        snaps.map((m) => m.recipientId),
        snaps.map((m) => m.content),
        snaps.map((m) => m.renderedContent),
        snaps.map((m) => m.dateSent),
        snaps.map((m) => m.sendingClient),
      ],
    );
    // Each notice has its own conversation, so its recipient names it.
    const idOf = new Map(inserted.map((r) => [r.recipient_id, r.id]));
    messages.forEach((m, i) => m.identify(idOf.get(snaps[i].recipientId)!));
    const participants = plans.map((p) => (p.audience.kind === 'direct' ? p.audience.userIds : []));
    const [, before, after, replacement] = alertWordParams('');
    const rows = returnedRows<NoticeUserMessageRow>(
      await this.em.query(
        `INSERT INTO user_messages (user_id, message_id, flags)
         SELECT u.id, x.message_id,
           (CASE WHEN u.id = x.sender_id
                   OR EXISTS (SELECT 1 FROM muted_users mu WHERE mu.user_id = u.id AND mu.muted_user_id = x.sender_id)
                 THEN ${FLAG_BITS.read} ELSE 0 END)
           | (CASE WHEN ${hasAlertWordInSql('u.id', 'x.text', 4)} THEN ${FLAG_BITS.has_alert_word} ELSE 0 END)
         FROM unnest($1::int[], $2::int[], $3::text[], $7::int[]) AS x(message_id, sender_id, text, n)
         JOIN LATERAL (SELECT ($8::jsonb -> (x.n - 1)) AS ids) p ON true
         JOIN users u ON u.id IN (SELECT jsonb_array_elements_text(p.ids)::int)
         RETURNING user_id, message_id, flags`,
        [
          messages.map((m) => m.id),
          snaps.map((m) => m.senderId),
          plans.map((p) => p.alertWordText),
          before,
          after,
          replacement,
          messages.map((_m, i) => i + 1),
          JSON.stringify(participants),
        ],
      ),
    );
    const byMessage = new Map<number, UserMessageRow[]>();
    for (const r of rows) (byMessage.get(r.message_id) ?? byMessage.set(r.message_id, []).get(r.message_id)!).push({ userId: r.user_id, flags: r.flags });
    return messages.map((m) => byMessage.get(m.id) ?? []);
  }

  async saveContent(message: Message): Promise<void> {
    const m = message.snapshot();
    await this.em.query(
      `UPDATE messages SET content = $2, rendered_content = $3, last_edit_time = $4, edit_history = $5::jsonb,
         has_attachment = EXISTS (SELECT 1 FROM attachment_messages WHERE message_id = $1)
       WHERE id = $1`,
      [m.id, m.content, m.renderedContent, m.lastEditTime, JSON.stringify(m.editHistory)],
    );
  }

  async move(move: TopicMove): Promise<{ dropped: number[] }> {
    await this.em.query(
      `UPDATE messages SET channel_id = $2, recipient_id = $3, topic = $4,
         edit_history = CASE WHEN id = $7 THEN edit_history
                             ELSE jsonb_build_array($5::jsonb) || coalesce(edit_history, '[]'::jsonb) END,
         last_moved_time = coalesce($6, last_moved_time)
       WHERE id = ANY($1::int[])`,
      [move.messageIds, move.to.channelId, move.to.recipientId, move.to.topic, JSON.stringify(move.historyEntry), move.movedTime, move.historyWrittenFor],
    );
    if (!move.channelChanged) return { dropped: [] };
    const dropped = await this.dropRowsOfNonSubscribers(move.messageIds, move.to.channelId);
    if (move.destinationHistoryProtected) await this.addRowsForSubscribers(move.messageIds, move.to.channelId);
    await this.markChannelFirstMessage(move.to.channelId, Math.min(...move.messageIds));
    return { dropped };
  }

  /** Users who lost access to moved messages lose their rows. */
  private async dropRowsOfNonSubscribers(ids: readonly number[], channelId: number): Promise<number[]> {
    const rows = returnedRows<UserIdRow>(
      await this.em.query(
        `DELETE FROM user_messages um WHERE um.message_id = ANY($1::int[])
           AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = $2 AND s.user_id = um.user_id AND s.active)
         RETURNING um.user_id`,
        [ids, channelId],
      ),
    );
    return [...new Set(rows.map((r) => r.user_id))];
  }

  private async addRowsForSubscribers(ids: readonly number[], channelId: number): Promise<void> {
    await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT s.user_id, m, ${FLAG_BITS.read} FROM subscriptions s CROSS JOIN unnest($1::int[]) AS m
       WHERE s.channel_id = $2 AND s.active
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [ids, channelId],
    );
  }

  async delete(messageId: number): Promise<boolean> {
    const rows = returnedRows<IdRow>(await this.em.query(`DELETE FROM messages WHERE id = $1 RETURNING id`, [messageId]));
    return rows.length > 0;
  }

  async lockTopicBatch(channelId: number, topic: string, visibleTo: number | null, limit: number): Promise<{ id: number; topic: string }[]> {
    const rows: { id: number; topic: string }[] = await this.em.query(
      `SELECT m.id, m.topic FROM messages m
       WHERE m.channel_id = $1 AND lower(m.topic) = lower($2)
         AND ($3::int IS NULL OR EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $3))
       ORDER BY m.id DESC LIMIT $4 FOR UPDATE OF m`,
      [channelId, topic, visibleTo, limit],
    );
    return rows;
  }

  async deleteMany(messageIds: readonly number[]): Promise<number[]> {
    if (messageIds.length === 0) return [];
    const rows = returnedRows<IdRow>(
      await this.em.query(`DELETE FROM messages WHERE id = ANY($1::int[]) RETURNING id`, [messageIds]),
    );
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  async usersWithRowsInTopic(userIds: readonly number[], channelId: number, topic: string): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows: UserIdRow[] = await this.em.query(
      `SELECT DISTINCT um.user_id FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ANY($1::int[]) AND m.channel_id = $2 AND lower(m.topic) = lower($3)`,
      [userIds, channelId, topic],
    );
    return rows.map((r) => r.user_id);
  }

  async topicFacts(channelId: number, topic: string): Promise<TopicFacts> {
    const rows: { sender_id: number }[] = await this.em.query(
      `SELECT DISTINCT sender_id FROM messages WHERE channel_id = $1 AND lower(topic) = lower($2)`,
      [channelId, topic],
    );
    return { exists: rows.length > 0, participants: rows.map((r) => r.sender_id) };
  }

  async topicMessages(channelId: number, topic: string, visibleTo: number | null): Promise<TopicMessage[]> {
    const rows: { id: number; date_sent: Date }[] = await this.em.query(
      `SELECT m.id, m.date_sent FROM messages m
       WHERE m.channel_id = $1 AND lower(m.topic) = lower($2)
         ${visibleTo === null ? '' : 'AND EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $3)'}
       ORDER BY m.id`,
      visibleTo === null ? [channelId, topic] : [channelId, topic, visibleTo],
    );
    return rows.map((r) => ({ id: r.id, dateSent: r.date_sent }));
  }

  async lastTopicMessage(channelId: number, topic: string): Promise<MessageRecord | null> {
    const [row]: MessageRow[] = await this.em.query(
      `SELECT * FROM messages WHERE channel_id = $1 AND lower(topic) = lower($2) ORDER BY id DESC LIMIT 1`,
      [channelId, topic],
    );
    return row ? toMessageRecord(row) : null;
  }

  private async markChannelFirstMessage(channelId: number, messageId: number): Promise<void> {
    await this.em.query(`UPDATE channels SET first_message_id = $2 WHERE id = $1 AND first_message_id IS NULL`, [channelId, messageId]);
  }

  async refreshChannelFirstMessage(channelId: number): Promise<{ changed: boolean; firstMessageId: number | null }> {
    const rows = returnedRows<FirstMessageRow>(
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
}
