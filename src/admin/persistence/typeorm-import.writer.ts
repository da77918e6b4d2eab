import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName } from '@app/domain/channels';
import type { EntityManager } from 'typeorm';
import { type ImportedMessage, type ImportedSubscription, ImportWriter } from '../application/admin.ports.js';

/** users.id, channels.id and messages.id are int4 serials. */
interface IdRow {
  id: number;
}

/** The `general` channel's permission groups, one column per setting (`<setting>_id AS "<setting>"`, int4). */
type ChannelGroupIdsRow = Record<ChannelGroupSettingName, number>;

/** The import's own writes, on the import's transaction. */
export class TypeOrmImportWriter extends ImportWriter {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async userIdByEmail(realmId: number, email: string): Promise<number | null> {
    const rows: IdRow[] = await this.em.query(`SELECT id FROM users WHERE realm_id = $1 AND lower(delivery_email) = lower($2)`, [realmId, email]);
    return rows.length === 0 ? null : rows[0].id;
  }

  async channelIdByName(realmId: number, name: string): Promise<number | null> {
    const rows: IdRow[] = await this.em.query(`SELECT id FROM channels WHERE realm_id = $1 AND lower(name) = lower($2)`, [realmId, name]);
    return rows.length === 0 ? null : rows[0].id;
  }

  async setAccountState(userId: number, s: { isActive: boolean; dateJoined: Date; timezone: string }): Promise<void> {
    const joined = Number.isNaN(s.dateJoined.getTime()) ? null : s.dateJoined;
    await this.em.query(`UPDATE users SET is_active = $2, date_joined = coalesce($3, date_joined), timezone = $4 WHERE id = $1`, [
      userId,
      s.isActive,
      joined,
      s.timezone,
    ]);
  }

  async channelGroupIds(realmId: number): Promise<Record<string, number>> {
    const columns = CHANNEL_GROUP_SETTING_NAMES.map((n) => `${n}_id AS "${n}"`).join(', ');
    const rows: ChannelGroupIdsRow[] = await this.em.query(
      `SELECT ${columns} FROM channels WHERE realm_id = $1 AND name = 'general' ORDER BY id LIMIT 1`,
      [realmId],
    );
    return rows[0];
  }

  async setArchived(channelId: number): Promise<void> {
    await this.em.query(`UPDATE channels SET is_archived = true WHERE id = $1`, [channelId]);
  }

  async upsertSubscription(realmId: number, s: ImportedSubscription): Promise<void> {
    await this.em.query(
      `INSERT INTO subscriptions (realm_id, user_id, channel_id, active, color, is_muted, pin_to_top)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id, channel_id) DO UPDATE SET active = $4, color = $5, is_muted = $6, pin_to_top = $7`,
      [realmId, s.user_id, s.channel_id, s.active !== false, s.color ?? '#c2c2c2', s.is_muted === true, s.pin_to_top === true],
    );
  }

  async insertMessage(realmId: number, recipientId: number, m: ImportedMessage): Promise<number> {
    const [row]: IdRow[] = await this.em.query(
      `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client, last_edit_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [realmId, m.sender_id, recipientId, m.channel_id, m.topic ?? '', m.content, m.rendered_content ?? '', m.date_sent, m.sending_client ?? 'import', m.last_edit_time ?? null],
    );
    if (m.user_flags.length > 0) {
      await this.em.query(
        `INSERT INTO user_messages (user_id, message_id, flags) SELECT u, $1, f FROM unnest($2::int[], $3::int[]) AS t(u, f)
         ON CONFLICT DO NOTHING`,
        [row.id, m.user_flags.map(([u]) => u), m.user_flags.map(([, f]) => f)],
      );
    }
    return row.id;
  }

  async finishChannels(realmId: number): Promise<void> {
    await this.em.query(
      `UPDATE channels c SET first_message_id = (SELECT min(m.id) FROM messages m WHERE m.channel_id = c.id) WHERE c.realm_id = $1`,
      [realmId],
    );
  }
}
