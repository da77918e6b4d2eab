import { type AudienceCandidate, FLAG_BITS, type MentionFlags } from '@app/domain/messages';
import { Role } from '@app/domain/users';
import type { EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { type UserMessageRow, UserMessageRepository } from '../application/message.ports.js';
import { alertWordParams, hasAlertWordSql } from './alert-word-flags.js';
import type { MessageIdRow, UserIdRow } from './message.rows.js';

/** A `user_messages` row's message and flags (int4 bitmask). */
interface MessageFlagsRow {
  message_id: number;
  flags: number;
}

export class TypeOrmUserMessageRepository extends UserMessageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async flags(userId: number, messageId: number): Promise<number | null> {
    const [row]: { flags: number }[] = await this.em.query(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [userId, messageId]);
    return row ? row.flags : null;
  }
  async existingFlags(userId: number, messageIds: readonly number[]): Promise<Map<number, number>> {
    if (messageIds.length === 0) return new Map();
    const rows: MessageFlagsRow[] = await this.em.query(`SELECT message_id, flags FROM user_messages WHERE user_id = $1 AND message_id = ANY($2::int[])`, [
      userId,
      messageIds,
    ]);
    return new Map(rows.map((r) => [r.message_id, r.flags]));
  }
  async setFlag(userId: number, messageIds: readonly number[], bit: number, add: boolean): Promise<number[]> {
    if (messageIds.length === 0) return [];
    const rows = returnedRows<MessageIdRow>(await this.em.query(
      `UPDATE user_messages SET flags = ${add ? 'flags | $3' : 'flags & ~$3::int'}
       WHERE user_id = $1 AND message_id = ANY($2::int[]) AND ${add ? '(flags & $3) = 0' : '(flags & $3) <> 0'}
       RETURNING message_id`,
      [userId, messageIds, bit],
    ));
    return rows.map((r) => r.message_id).sort((a, b) => a - b);
  }
  async insertHistoricalRows(userId: number, messageIds: readonly number[], flags: number): Promise<void> {
    if (messageIds.length === 0) return;
    await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags) SELECT $1, m, $3 FROM unnest($2::int[]) AS m
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [userId, messageIds, flags | FLAG_BITS.historical],
    );
  }
  async markAllRead(userId: number, channelId: number | null, topic: string | null): Promise<number[]> {
    const rows = returnedRows<MessageIdRow>(await this.em.query(
      `UPDATE user_messages um SET flags = um.flags | ${FLAG_BITS.read}
       FROM messages m
       WHERE um.user_id = $1 AND (um.flags & ${FLAG_BITS.read}) = 0 AND m.id = um.message_id
         AND ($2::int IS NULL OR m.channel_id = $2) AND ($3::text IS NULL OR lower(m.topic) = lower($3))
       RETURNING um.message_id`,
      [userId, channelId, topic],
    ));
    return rows.map((r) => r.message_id);
  }
  async markReadBatch(userId: number, limit: number): Promise<number[]> {
    const rows = returnedRows<MessageIdRow>(await this.em.query(
      `UPDATE user_messages SET flags = flags | ${FLAG_BITS.read}
       WHERE user_id = $1 AND message_id IN (
         SELECT message_id FROM user_messages WHERE user_id = $1 AND (flags & ${FLAG_BITS.read}) = 0
         ORDER BY message_id DESC LIMIT $2 FOR UPDATE)
       RETURNING message_id`,
      [userId, limit],
    ));
    return rows.map((r) => r.message_id);
  }
  async markReadFromSender(userId: number, senderId: number): Promise<number[]> {
    const rows = returnedRows<MessageIdRow>(await this.em.query(
      `UPDATE user_messages um SET flags = um.flags | ${FLAG_BITS.read}
       FROM messages m
       WHERE um.user_id = $1 AND (um.flags & ${FLAG_BITS.read}) = 0 AND m.id = um.message_id AND m.sender_id = $2
       RETURNING um.message_id`,
      [userId, senderId],
    ));
    return rows.map((r) => r.message_id).sort((a, b) => a - b);
  }
  async readReceipts(messageId: number, senderId: number): Promise<number[]> {
    const rows: UserIdRow[] = await this.em.query(
      `SELECT um.user_id FROM user_messages um JOIN users u ON u.id = um.user_id
       WHERE um.message_id = $1 AND um.user_id <> $2 AND (um.flags & ${FLAG_BITS.read}) <> 0
         AND u.is_active AND u.send_read_receipts
       ORDER BY um.user_id`,
      [messageId, senderId],
    );
    return rows.map((r) => r.user_id);
  }
  async userHasTopic(userId: number, channelId: number, topic: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = $1 AND m.channel_id = $2 AND lower(m.topic) = lower($3) LIMIT 1`,
      [userId, channelId, topic],
    );
    return rows.length > 0;
  }
  async updateMentionFlags(messageId: number, f: MentionFlags): Promise<void> {
    const contentBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.has_alert_word;
    await this.em.query(
      `UPDATE user_messages um SET flags = (um.flags & ~${contentBits})
         | (CASE WHEN um.user_id = ANY($2::int[]) THEN ${FLAG_BITS.mentioned} ELSE 0 END)
         | (CASE WHEN $3 THEN ${FLAG_BITS.stream_wildcard_mentioned} ELSE 0 END)
         | (CASE WHEN um.user_id = ANY($4::int[]) THEN ${FLAG_BITS.topic_wildcard_mentioned} ELSE 0 END)
         | (CASE WHEN ${hasAlertWordSql('um.user_id', 5)} THEN ${FLAG_BITS.has_alert_word} ELSE 0 END)
       WHERE um.message_id = $1`,
      [messageId, f.mentioned, f.streamWildcard, f.topicWildcardUsers, ...alertWordParams(f.alertWordText)],
    );
  }
  async readers(messageId: number): Promise<UserMessageRow[]> {
    const rows: UserMessageRow[] = await this.em.query(`SELECT user_id AS "userId", flags FROM user_messages WHERE message_id = $1`, [messageId]);
    return rows;
  }
  async audienceCandidates(messageId: number, channelId: number | null): Promise<AudienceCandidate[]> {
    return this.audience([messageId], channelId);
  }
  async audienceCandidatesOfMany(messageIds: readonly number[], channelId: number): Promise<AudienceCandidate[]> {
    return this.audience(messageIds, channelId);
  }
  private async audience(messageIds: readonly number[], channelId: number | null): Promise<AudienceCandidate[]> {
    const rows: AudienceCandidate[] = await this.em.query(
      `SELECT u.id AS "userId", bool_or(x.row) AS "hasRow", bool_or(NOT x.row AND u.is_active) AS subscribed, u.role = ${Role.GUEST} AS "isGuest"
       FROM (SELECT DISTINCT user_id, true AS row FROM user_messages WHERE message_id = ANY($1::int[])
             UNION ALL SELECT user_id, false FROM subscriptions WHERE channel_id = $2 AND active) x
       JOIN users u ON u.id = x.user_id
       GROUP BY u.id`,
      [messageIds, channelId],
    );
    return rows;
  }
}
