import type { EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { TopicVisibilityRepository } from '../application/message.ports.js';
import type { UserIdRow } from './message.rows.js';

/** A `user_topics` row as `moveWithTopic` returns it (visibility_policy is a smallint: 1 muted, 2 unmuted, 3 followed). */
interface MovedPolicyRow {
  user_id: number;
  visibility_policy: number;
  last_updated: Date;
}

export class TypeOrmTopicVisibilityRepository extends TopicVisibilityRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async policy(userId: number, channelId: number, topic: string): Promise<number> {
    const [row]: { visibility_policy: number }[] = await this.em.query(
      `SELECT visibility_policy FROM user_topics WHERE user_id = $1 AND channel_id = $2 AND lower(topic_name) = lower($3)`,
      [userId, channelId, topic],
    );
    return row ? row.visibility_policy : 0;
  }
  async set(
    realmId: number,
    userIds: readonly number[],
    channelId: number,
    topic: string,
    policy: number,
    now: Date,
    onlyWhereInherit: boolean,
  ): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows: UserIdRow[] = await this.em.query(
      `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
       SELECT $1, u, $3, $4, $5, $6 FROM unnest($2::int[]) AS u
       ON CONFLICT (user_id, channel_id, lower(topic_name)) DO ${onlyWhereInherit ? 'NOTHING' : 'UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = EXCLUDED.last_updated'}
       RETURNING user_id`,
      [realmId, userIds, channelId, topic, policy, now],
    );
    return rows.map((r) => r.user_id);
  }
  async change(realmId: number, userIds: readonly number[], channelId: number, topic: string, policy: number, now: Date): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = returnedRows<UserIdRow>(
      policy === 0
        ? await this.em.query(
            `DELETE FROM user_topics WHERE user_id = ANY($1::int[]) AND channel_id = $2 AND lower(topic_name) = lower($3) RETURNING user_id`,
            [userIds, channelId, topic],
          )
        : await this.em.query(
            `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
             SELECT $1, u, $3, $4, $5, $6 FROM unnest($2::int[]) AS u
             ON CONFLICT (user_id, channel_id, lower(topic_name)) DO UPDATE
               SET visibility_policy = EXCLUDED.visibility_policy, last_updated = EXCLUDED.last_updated
               WHERE user_topics.visibility_policy <> EXCLUDED.visibility_policy
             RETURNING user_id`,
            [realmId, userIds, channelId, topic, policy, now],
          ),
    );
    return rows.map((r) => r.user_id).sort((a, b) => a - b);
  }
  async usersWithPolicy(channelId: number, topic: string): Promise<number[]> {
    const rows: UserIdRow[] = await this.em.query(
      `SELECT user_id FROM user_topics WHERE channel_id = $1 AND lower(topic_name) = lower($2) ORDER BY user_id`,
      [channelId, topic],
    );
    return rows.map((r) => r.user_id);
  }
  async moveWithTopic(
    from: { channelId: number; topic: string },
    to: { channelId: number; topic: string },
  ): Promise<{ removed: number[]; set: { userId: number; policy: number; lastUpdated: Date }[] }> {
    // Rank: followed (3) > unmuted (2) > muted (1); a row exists only for non-inherit policies.
    const set: MovedPolicyRow[] = await this.em.query(
      `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
       SELECT realm_id, user_id, $3, $4, visibility_policy, last_updated FROM user_topics
       WHERE channel_id = $1 AND lower(topic_name) = lower($2)
       ON CONFLICT (user_id, channel_id, lower(topic_name)) DO UPDATE
         SET visibility_policy = GREATEST(user_topics.visibility_policy, EXCLUDED.visibility_policy)
       RETURNING user_id, visibility_policy, last_updated`,
      [from.channelId, from.topic, to.channelId, to.topic],
    );
    const removed = returnedRows<UserIdRow>(
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
}
