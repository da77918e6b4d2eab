import type { EntityManager } from 'typeorm';
import { type BotChange, BotRepository, type StoredBot } from '../application/bot.ports.js';

interface BotSqlRow {
  id: number;
  email: string;
  full_name: string;
  bot_type: number;
  is_active: boolean;
  api_key: string;
  bot_owner_id: number | null;
  owner_email: string | null;
  avatar_version: number;
  avatar_path: string | null;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: boolean;
}

const SELECT = `
  SELECT b.id, b.email, b.full_name, b.bot_type, b.is_active, b.api_key, b.bot_owner_id, o.email AS owner_email,
         b.avatar_version, b.avatar_path, b.default_sending_stream_id, b.default_events_register_stream_id, b.default_all_public_streams
  FROM users b
  LEFT JOIN users o ON o.id = b.bot_owner_id AND o.realm_id = b.realm_id
  WHERE b.realm_id = $1 AND b.is_bot AND NOT b.is_system_bot`;

const toRecord = (r: BotSqlRow): StoredBot => ({
  id: r.id,
  email: r.email,
  fullName: r.full_name,
  botType: r.bot_type,
  isActive: r.is_active,
  apiKey: r.api_key,
  ownerId: r.bot_owner_id,
  ownerEmail: r.owner_email,
  avatarVersion: r.avatar_version,
  avatarPath: r.avatar_path,
  defaultSendingStreamId: r.default_sending_stream_id,
  defaultEventsRegisterStreamId: r.default_events_register_stream_id,
  defaultAllPublicStreams: r.default_all_public_streams,
});

export class TypeOrmBotRepository extends BotRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(realmId: number, o: { ownerId?: number; activeOnly?: boolean }): Promise<StoredBot[]> {
    const rows: BotSqlRow[] = await this.em.query(
      `${SELECT} AND ($2::int IS NULL OR b.bot_owner_id = $2) AND (NOT $3::boolean OR b.is_active) ORDER BY b.date_joined, b.id`,
      [realmId, o.ownerId ?? null, o.activeOnly ?? false],
    );
    return rows.map(toRecord);
  }

  async find(realmId: number, botId: number): Promise<StoredBot | null> {
    const [row]: BotSqlRow[] = await this.em.query(`${SELECT} AND b.id = $2::bigint`, [realmId, botId]);
    return row ? toRecord(row) : null;
  }

  async update(realmId: number, botId: number, c: BotChange): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [realmId, botId];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (c.botOwnerId !== undefined) set('bot_owner_id', c.botOwnerId);
    if (c.defaultSendingStreamId !== undefined) set('default_sending_stream_id', c.defaultSendingStreamId);
    if (c.defaultEventsRegisterStreamId !== undefined) set('default_events_register_stream_id', c.defaultEventsRegisterStreamId);
    if (c.defaultAllPublicStreams !== undefined) set('default_all_public_streams', c.defaultAllPublicStreams);
    if (c.apiKey !== undefined) set('api_key', c.apiKey);
    if (sets.length === 0) return;
    await this.em.query(`UPDATE users SET ${sets.join(', ')} WHERE realm_id = $1 AND id = $2 AND is_bot`, params);
  }

  async humanAdminIds(realmId: number): Promise<number[]> {
    const rows: { id: number }[] = await this.em.query(
      `SELECT id FROM users WHERE realm_id = $1 AND is_active AND NOT is_bot AND role <= 200 ORDER BY id`,
      [realmId],
    );
    return rows.map((r) => r.id);
  }
}
