import type { StatusEmoji, UserStatusState } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { UserStatusQueries, UserStatusRepository } from '../application/user-status.ports.js';

export class TypeOrmUserStatusRepository extends UserStatusRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async upsert(
    realmId: number,
    userId: number,
    change: { statusText?: string; emoji?: StatusEmoji },
    now: Date,
  ): Promise<void> {
    // NULL = leave as is (a new row takes the column defaults).
    await this.em.query(
      `INSERT INTO user_status AS s (user_id, realm_id, status_text, emoji_name, emoji_code, reaction_type, updated_at)
       VALUES ($1, $2, COALESCE($3, ''), COALESCE($4, ''), COALESCE($5, ''), COALESCE($6, 'unicode_emoji'), $7)
       ON CONFLICT (user_id) DO UPDATE SET
         status_text = COALESCE($3, s.status_text),
         emoji_name = COALESCE($4, s.emoji_name),
         emoji_code = COALESCE($5, s.emoji_code),
         reaction_type = COALESCE($6, s.reaction_type),
         updated_at = $7
       WHERE s.realm_id = $2`,
      [
        userId,
        realmId,
        change.statusText ?? null,
        change.emoji?.name ?? null,
        change.emoji?.code ?? null,
        change.emoji?.reactionType ?? null,
        now,
      ],
    );
  }

  async setPresenceEnabled(realmId: number, userId: number, enabled: boolean): Promise<void> {
    await this.em.query(`UPDATE users SET presence_enabled = $3 WHERE realm_id = $1 AND id = $2`, [realmId, userId, enabled]);
  }
}

const SELECT = `SELECT s.user_id, u.presence_enabled, s.status_text, s.emoji_name, s.emoji_code, s.reaction_type
  FROM user_status s JOIN users u ON u.id = s.user_id`;

/** A row of SELECT (user_status ⋈ users). */
interface StatusRow {
  user_id: number;
  presence_enabled: boolean;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

const toState = (r: StatusRow): UserStatusState => ({
  userId: r.user_id,
  presenceEnabled: r.presence_enabled,
  statusText: r.status_text,
  emojiName: r.emoji_name,
  emojiCode: r.emoji_code,
  reactionType: r.reaction_type,
});

@Injectable()
export class TypeOrmUserStatusQueries extends UserStatusQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async get(realmId: number, userId: number): Promise<UserStatusState | null> {
    const [row]: StatusRow[] = await this.ds.query(`${SELECT} WHERE s.realm_id = $1 AND s.user_id = $2`, [realmId, userId]);
    return row ? toState(row) : null;
  }

  async listActive(realmId: number): Promise<UserStatusState[]> {
    const rows: StatusRow[] = await this.ds.query(
      `${SELECT} WHERE s.realm_id = $1 AND u.realm_id = $1 AND u.is_active ORDER BY s.user_id`,
      [realmId],
    );
    return rows.map(toState);
  }
}
