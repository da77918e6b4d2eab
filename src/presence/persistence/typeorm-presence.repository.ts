import type { PresenceFetch, PresenceTimes } from '@app/domain/presence';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type PresenceFacts,
  PresenceQueries,
  PresenceRepository,
  type PresenceRow,
  type PresenceTarget,
  PresenceUsers,
} from '../application/presence.ports.js';

/** Times as epoch milliseconds (float8): an organization's presence is thousands of rows, and pg parses timestamptz text slowly. */
interface RowOfPresence {
  user_id: number;
  email: string;
  date_joined: number;
  last_active_time: number | null;
  last_connected_time: number | null;
  /** bigint: pg gives it as text. */
  last_update_id: string;
}

/** The row of `lockFacts`: the user, the organization's switch and the user's presence row (if any), locked. */
interface PresenceFactsRow {
  email: string;
  date_joined: Date;
  presence_enabled: boolean;
  presence_disabled: boolean;
  has_presence: boolean;
  last_active_time: Date | null;
  last_connected_time: Date | null;
}

const toDate = (ms: number | null) => (ms === null ? null : new Date(ms));

const toRow = (r: RowOfPresence): PresenceRow => ({
  userId: r.user_id,
  email: r.email,
  dateJoined: new Date(r.date_joined),
  lastActive: toDate(r.last_active_time),
  lastConnected: toDate(r.last_connected_time),
  lastUpdateId: Number(r.last_update_id),
});

const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::float8 AS ${column.slice(2)}`;
const PRESENCE_COLUMNS = `p.user_id, u.email, ${epochMs('u.date_joined')}, ${epochMs('p.last_active_time')}, ${epochMs('p.last_connected_time')}, p.last_update_id`;

/**
 * The organization's next update id, in a CTE so that the counter row (the hot lock every
 * presence write of the organization waits for) is locked by the statement's last step.
 */
const NEXT_UPDATE_ID = `
  WITH seq AS (
    INSERT INTO presence_sequences AS s (realm_id, last_update_id) VALUES ($1, 1)
    ON CONFLICT (realm_id) DO UPDATE SET last_update_id = s.last_update_id + 1
    RETURNING last_update_id
  )`;

export class TypeOrmPresenceRepository extends PresenceRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lockFacts(realmId: number, userId: number): Promise<PresenceFacts | null> {
    const rows: PresenceFactsRow[] = await this.em.query(
      `SELECT u.email, u.date_joined, u.presence_enabled, r.presence_disabled,
              p.user_id IS NOT NULL AS has_presence, p.last_active_time, p.last_connected_time
       FROM users u JOIN realms r ON r.id = u.realm_id
       LEFT JOIN LATERAL (SELECT * FROM user_presence WHERE user_id = u.id FOR UPDATE) p ON true
       WHERE u.realm_id = $1 AND u.id = $2`,
      [realmId, userId],
    );
    const r = rows[0];
    if (r === undefined) return null;
    return {
      email: r.email,
      dateJoined: r.date_joined,
      presenceEnabled: r.presence_enabled,
      realmPresenceDisabled: r.presence_disabled,
      current: r.has_presence ? { lastActive: r.last_active_time, lastConnected: r.last_connected_time } : null,
    };
  }

  async write(realmId: number, userId: number, t: PresenceTimes, creating: boolean): Promise<boolean> {
    const params = [realmId, userId, t.lastActive, t.lastConnected];
    if (creating) {
      const rows: unknown[] = await this.em.query(
        `${NEXT_UPDATE_ID}
         INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id)
         VALUES ($2, $1, $3, $4, (SELECT last_update_id FROM seq))
         ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
        params,
      );
      return rows.length > 0;
    }
    await this.em.query(
      `${NEXT_UPDATE_ID}
       UPDATE user_presence SET last_active_time = $3, last_connected_time = $4, last_update_id = (SELECT last_update_id FROM seq)
       WHERE realm_id = $1 AND user_id = $2`,
      params,
    );
    return true;
  }

  async delete(realmId: number, userId: number): Promise<void> {
    await this.em.query(`DELETE FROM user_presence WHERE realm_id = $1 AND user_id = $2`, [realmId, userId]);
  }

  async activeUserCount(realmId: number): Promise<number> {
    const [r]: { n: number }[] = await this.em.query(`SELECT count(*)::int AS n FROM users WHERE realm_id = $1 AND is_active`, [realmId]);
    return r.n;
  }

  async activeSubscriberIds(channelId: number, limit: number): Promise<number[]> {
    const rows: { user_id: number }[] = await this.em.query(
      `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.channel_id = $1 AND s.active AND u.is_active ORDER BY s.user_id LIMIT $2`,
      [channelId, limit],
    );
    return rows.map((r) => r.user_id);
  }

  async typingReceivers(realmId: number, userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows: { id: number }[] = await this.em.query(
      `SELECT id FROM users WHERE realm_id = $1 AND id = ANY($2::int[]) AND receives_typing_notifications`,
      [realmId, userIds],
    );
    return new Set(rows.map((r) => r.id));
  }
}

@Injectable()
export class TypeOrmPresenceQueries extends PresenceQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async realmPresences(realmId: number, fetch: PresenceFetch): Promise<PresenceRow[]> {
    const params: unknown[] = [realmId];
    const where = ['p.realm_id = $1', 'u.is_active', 'NOT u.is_bot'];
    if (fetch.afterUpdateId !== null) {
      params.push(String(fetch.afterUpdateId));
      where.push(`p.last_update_id > $${params.length}::bigint`);
    }
    if (fetch.connectedSince !== null) {
      params.push(fetch.connectedSince);
      where.push(`p.last_connected_time >= $${params.length}`);
    }
    const rows: RowOfPresence[] = await this.ds.query(
      `SELECT ${PRESENCE_COLUMNS} FROM user_presence p JOIN users u ON u.id = p.user_id
       WHERE ${where.join(' AND ')} ORDER BY p.user_id`,
      params,
    );
    return rows.map(toRow);
  }

  async userPresence(realmId: number, userId: number): Promise<PresenceRow | null> {
    const rows: RowOfPresence[] = await this.ds.query(
      `SELECT ${PRESENCE_COLUMNS} FROM user_presence p JOIN users u ON u.id = p.user_id WHERE p.realm_id = $1 AND p.user_id = $2`,
      [realmId, userId],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }
}

@Injectable()
export class TypeOrmPresenceUsers extends PresenceUsers {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async activeUser(realmId: number, key: { id: number } | { email: string }): Promise<PresenceTarget | null> {
    const [where, value] = 'id' in key ? ['id = $2', key.id] : ['lower(email) = lower($2)', key.email.trim()];
    const rows: { id: number; is_bot: boolean }[] = await this.ds.query(
      `SELECT id, is_bot FROM users WHERE realm_id = $1 AND is_active AND ${where}`,
      [realmId, value],
    );
    return rows.length > 0 ? { id: rows[0].id, isBot: rows[0].is_bot } : null;
  }
}
