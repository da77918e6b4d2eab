import type { EntityManager } from 'typeorm';
import { type BotChange, type BotChannel, type BotRecord, BotRepository } from '../application/bot.ports.js';

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
  sending_name: string | null;
  register_name: string | null;
  default_all_public_streams: boolean;
  private_default: boolean;
}

const SELECT = `
  SELECT b.id, b.email, b.full_name, b.bot_type, b.is_active, b.api_key, b.bot_owner_id, o.email AS owner_email,
         b.avatar_version, s.name AS sending_name, r.name AS register_name, b.default_all_public_streams,
         (coalesce(s.invite_only, false) OR coalesce(r.invite_only, false)) AS private_default
  FROM users b
  LEFT JOIN users o ON o.id = b.bot_owner_id AND o.realm_id = b.realm_id
  LEFT JOIN channels s ON s.id = b.default_sending_stream_id AND s.realm_id = b.realm_id
  LEFT JOIN channels r ON r.id = b.default_events_register_stream_id AND r.realm_id = b.realm_id
  WHERE b.realm_id = $1 AND b.is_bot AND NOT b.is_system_bot`;

const toRecord = (r: BotSqlRow): BotRecord => ({
  id: r.id,
  email: r.email,
  fullName: r.full_name,
  botType: r.bot_type,
  isActive: r.is_active,
  apiKey: r.api_key,
  ownerId: r.bot_owner_id,
  ownerEmail: r.owner_email,
  avatarVersion: r.avatar_version,
  defaultSendingStream: r.sending_name,
  defaultEventsRegisterStream: r.register_name,
  defaultAllPublicStreams: r.default_all_public_streams,
  hasPrivateDefaultChannel: r.private_default,
});

export class TypeOrmBotRepository extends BotRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(realmId: number, o: { ownerId?: number; activeOnly?: boolean }): Promise<BotRecord[]> {
    const rows: BotSqlRow[] = await this.em.query(
      `${SELECT} AND ($2::int IS NULL OR b.bot_owner_id = $2) AND (NOT $3::boolean OR b.is_active) ORDER BY b.date_joined, b.id`,
      [realmId, o.ownerId ?? null, o.activeOnly ?? false],
    );
    return rows.map(toRecord);
  }

  async find(realmId: number, botId: number): Promise<BotRecord | null> {
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

  async accessibleChannelByName(realmId: number, user: { id: number; isGuest: boolean }, name: string): Promise<BotChannel | null> {
    const [row]: { id: number; name: string; invite_only: boolean }[] = await this.em.query(
      `SELECT c.id, c.name, c.invite_only FROM channels c
       WHERE c.realm_id = $1 AND lower(c.name) = lower($2) AND NOT c.is_archived
         AND ((NOT c.invite_only AND NOT $4::boolean)
              OR EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = c.id AND s.user_id = $3 AND s.active))`,
      [realmId, name, user.id, user.isGuest],
    );
    return row ? { id: row.id, name: row.name, inviteOnly: row.invite_only } : null;
  }
}
