import type { BotType, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type NewSession, SessionQueries, SessionRepository, type SessionLookup } from '../application/session.ports.js';

/** A row of the session lookup (sessions ⋈ users ⋈ realms). */
interface SessionLookupRow {
  token_sha256: string;
  realm_id: number;
  user_id: number;
  password_stamp: string;
  last_seen_at: Date;
  expires_at: Date;
  email: string;
  role: Role;
  is_bot: boolean;
  bot_type: BotType | null;
  is_active: boolean;
  password_hash: string | null;
  realm_deactivated: boolean;
  /** bigint */
  settings_version: string;
}

function toLookup(r: SessionLookupRow): SessionLookup {
  return {
    sessionId: r.token_sha256,
    realmId: r.realm_id,
    userId: r.user_id,
    passwordStamp: r.password_stamp,
    lastSeenAt: r.last_seen_at,
    expiresAt: r.expires_at,
    email: r.email,
    role: r.role,
    isBot: r.is_bot,
    botType: r.bot_type,
    isActive: r.is_active,
    passwordHash: r.password_hash,
    realmDeactivated: r.realm_deactivated,
    settingsVersion: Number(r.settings_version),
  };
}

@Injectable()
export class TypeOrmSessionQueries extends SessionQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async find(realmId: number, sessionId: string): Promise<SessionLookup | null> {
    const rows: SessionLookupRow[] = await this.ds.query(
      `SELECT s.token_sha256, s.realm_id, s.user_id, s.password_stamp, s.last_seen_at, s.expires_at,
              u.email, u.role, u.is_bot, u.bot_type, u.is_active, u.password_hash,
              r.deactivated AS realm_deactivated, r.settings_version
         FROM sessions s
         JOIN users u ON u.id = s.user_id AND u.realm_id = s.realm_id
         JOIN realms r ON r.id = s.realm_id
        WHERE s.realm_id = $1 AND s.token_sha256 = $2`,
      [realmId, sessionId],
    );
    return rows.length === 0 ? null : toLookup(rows[0]);
  }
}

export class TypeOrmSessionRepository extends SessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(s: NewSession): Promise<void> {
    await this.em.query(
      `INSERT INTO sessions (token_sha256, realm_id, user_id, password_stamp, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $5, $6)`,
      [s.sessionId, s.realmId, s.userId, s.passwordStamp, s.now, s.expiresAt],
    );
  }

  async delete(realmId: number, sessionId: string): Promise<void> {
    await this.em.query(`DELETE FROM sessions WHERE realm_id = $1 AND token_sha256 = $2`, [realmId, sessionId]);
  }

  async endForUser(realmId: number, userId: number, keep: { sessionId: string; passwordStamp: string } | null = null): Promise<void> {
    await this.em.query(`DELETE FROM sessions WHERE realm_id = $1 AND user_id = $2 AND token_sha256 IS DISTINCT FROM $3`, [
      realmId,
      userId,
      keep?.sessionId ?? null,
    ]);
    if (keep !== null) {
      await this.em.query(`UPDATE sessions SET password_stamp = $4 WHERE realm_id = $1 AND user_id = $2 AND token_sha256 = $3`, [
        realmId,
        userId,
        keep.sessionId,
        keep.passwordStamp,
      ]);
    }
  }

  async purgeEnded(realmId: number, userId: number, now: Date, idleSince: Date): Promise<void> {
    await this.em.query(`DELETE FROM sessions WHERE realm_id = $1 AND user_id = $2 AND (expires_at <= $3 OR last_seen_at <= $4)`, [
      realmId,
      userId,
      now,
      idleSince,
    ]);
  }

  async touch(realmId: number, sessionId: string, now: Date): Promise<void> {
    await this.em.query(`UPDATE sessions SET last_seen_at = $3 WHERE realm_id = $1 AND token_sha256 = $2 AND last_seen_at < $3`, [realmId, sessionId, now]);
  }
}
