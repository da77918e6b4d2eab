import type { UnreadRow } from '@app/domain/messages';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RegisterQueries, type UserTopicRow } from '../application/register-sections.js';

@Injectable()
export class TypeOrmRegisterQueries extends RegisterQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async unreadRows(userId: number, limit: number): Promise<UnreadRow[]> {
    const rows: { id: number; flags: number; channel_id: number | null; topic: string; sender_id: number; participants: number[] | null }[] = await this.ds.query(
      `SELECT um.message_id AS id, um.flags, m.channel_id, m.topic, m.sender_id,
         CASE WHEN m.channel_id IS NULL THEN
           (SELECT array_agg(gm.user_id ORDER BY gm.user_id) FROM recipients r
              JOIN direct_message_group_members gm ON gm.group_id = r.type_id WHERE r.id = m.recipient_id)
         END AS participants
       FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = $1 AND (um.flags & 1) = 0
         AND (m.channel_id IS NULL OR EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = $1 AND s.channel_id = m.channel_id AND s.active))
       ORDER BY um.message_id LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({ id: r.id, flags: r.flags, channelId: r.channel_id, topic: r.topic, senderId: r.sender_id, participants: r.participants }));
  }

  async starredIds(userId: number, limit: number): Promise<number[]> {
    const rows: { message_id: number }[] = await this.ds.query(
      `SELECT message_id FROM (SELECT message_id FROM user_messages WHERE user_id = $1 AND (flags & 2) <> 0 ORDER BY message_id DESC LIMIT $2) x ORDER BY 1`,
      [userId, limit],
    );
    return rows.map((r) => r.message_id);
  }

  async userTopics(userId: number): Promise<UserTopicRow[]> {
    const rows: { channel_id: number; name: string; topic_name: string; last_updated: Date; visibility_policy: number }[] = await this.ds.query(
      `SELECT t.channel_id, c.name, t.topic_name, t.last_updated, t.visibility_policy
       FROM user_topics t JOIN channels c ON c.id = t.channel_id WHERE t.user_id = $1 AND NOT c.is_archived
       ORDER BY t.channel_id, lower(t.topic_name)`,
      [userId],
    );
    return rows.map((r) => ({ channelId: r.channel_id, channelName: r.name, topic: r.topic_name, lastUpdated: r.last_updated, policy: r.visibility_policy }));
  }
}
