import {
  resolvedTopicPolicyName,
  resolvedTopicPolicyValue,
  type SettingChange,
  USER_SETTING_NAMES,
  type UserSettingName,
  type UserSettings,
  type UserSettingValue,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type AccountState,
  AccountRepository,
  type EmailChangeRequest,
  type LoginNoticeFacts,
  type PasswordResetLink,
  PasswordResetRepository,
  EmailChangeRepository,
  UserSettingsQueries,
  UserSettingsRepository,
} from '../application/user-settings.ports.js';
import { returnedRows } from '../../shared/persistence/rows.js';

/** The setting columns of `users` (names come from the domain's catalogue, never from a request). */
export const SETTING_COLUMNS = [...USER_SETTING_NAMES, 'timezone'].join(', ');

const POLICY = 'resolved_topic_notice_auto_read_policy';

/** The SETTING_COLUMNS of a users row: a column per setting (the resolved-topic policy by its stored number). */
type SettingColumnsRow = Record<UserSettingName, UserSettingValue> & { timezone: string };

/** A row's setting columns as the domain's settings (the enum stored by value, shown by name). */
export function settingsFrom(row: SettingColumnsRow): UserSettings {
  const s: UserSettings = { ...pick(row, USER_SETTING_NAMES), timezone: row.timezone };
  s[POLICY] = resolvedTopicPolicyName(Number(row[POLICY]));
  return s;
}

function pick(row: SettingColumnsRow, names: readonly UserSettingName[]): Record<UserSettingName, UserSettingValue> {
  return Object.fromEntries(names.map((n) => [n, row[n]])) as Record<UserSettingName, UserSettingValue>;
}

/** A row of TypeOrmUserSettingsRepository.getForUpdate. */
interface AccountRow extends SettingColumnsRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_bot: boolean;
  is_active: boolean;
  password_hash: string | null;
  avatar_version: number;
  avatar_path: string | null;
}

const stored = (name: string, value: UserSettingValue): UserSettingValue => (name === POLICY ? resolvedTopicPolicyValue(String(value)) : value);

export class TypeOrmUserSettingsRepository extends UserSettingsRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async getForUpdate(realmId: number, userId: number): Promise<AccountState | null> {
    const [row]: AccountRow[] = await this.em.query(
      `SELECT id, realm_id, email, delivery_email, full_name, role, is_bot, is_active, password_hash, avatar_version, avatar_path, ${SETTING_COLUMNS}
       FROM users WHERE realm_id = $1 AND id = $2 FOR UPDATE`,
      [realmId, userId],
    );
    if (row === undefined) return null;
    return {
      userId: row.id,
      realmId: row.realm_id,
      email: row.email,
      deliveryEmail: row.delivery_email,
      fullName: row.full_name,
      role: row.role,
      isBot: row.is_bot,
      isActive: row.is_active,
      passwordHash: row.password_hash,
      avatarVersion: row.avatar_version,
      avatarPath: row.avatar_path,
      settings: settingsFrom(row),
    };
  }

  async apply(realmId: number, userId: number, changes: readonly SettingChange[]): Promise<void> {
    if (changes.length === 0) return;
    const sets = changes.map((c, i) => `${c.name} = $${i + 3}`).join(', ');
    await this.em.query(`UPDATE users SET ${sets} WHERE realm_id = $1 AND id = $2`, [
      realmId,
      userId,
      ...changes.map((c) => stored(c.name, c.value)),
    ]);
  }

  async recordSelfEdits(userId: number, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    await this.em.query(
      `INSERT INTO user_setting_self_edits (user_id, setting) SELECT $1, s FROM unnest($2::text[]) AS s ON CONFLICT DO NOTHING`,
      [userId, names],
    );
  }

  async applyToUsers(
    realmId: number,
    userIds: readonly number[],
    name: UserSettingName,
    value: UserSettingValue,
    skipSelfEdited: boolean,
  ): Promise<{ id: number; email: string }[]> {
    if (userIds.length === 0) return [];
    const result: unknown = await this.em.query(
      `UPDATE users u SET ${name} = $3
       WHERE u.realm_id = $1 AND u.id = ANY($2::int[]) AND NOT u.is_bot AND u.${name} IS DISTINCT FROM $3
         ${skipSelfEdited ? `AND NOT EXISTS (SELECT 1 FROM user_setting_self_edits e WHERE e.user_id = u.id AND e.setting = $4)` : ''}
       RETURNING u.id, u.email`,
      skipSelfEdited ? [realmId, userIds, stored(name, value), name] : [realmId, userIds, stored(name, value)],
    );
    return returnedRows<{ id: number; email: string }>(result).sort((a, b) => a.id - b.id);
  }

  async humansAmong(realmId: number, userIds: readonly number[]): Promise<{ humans: number[]; unknown: number[] }> {
    const rows: { id: number; is_bot: boolean }[] = await this.em.query(
      `SELECT id, is_bot FROM users WHERE realm_id = $1 AND id = ANY($2::int[])`,
      [realmId, userIds],
    );
    const found = new Set(rows.map((r) => r.id));
    return { humans: rows.filter((r) => !r.is_bot).map((r) => r.id), unknown: userIds.filter((id) => !found.has(id)) };
  }

  async membersOfGroups(realmId: number, groupIds: readonly number[]): Promise<{ userIds: number[]; unknown: number[] }> {
    if (groupIds.length === 0) return { userIds: [], unknown: [] };
    const named: { id: number }[] = await this.em.query(
      `SELECT id FROM user_groups WHERE realm_id = $1 AND id = ANY($2::int[]) AND name IS NOT NULL`,
      [realmId, groupIds],
    );
    const found = new Set(named.map((r) => r.id));
    const members: { user_id: number }[] = await this.em.query(
      `WITH RECURSIVE down(id) AS (
         SELECT unnest($1::int[])
         UNION
         SELECT s.subgroup_id FROM user_group_subgroups s JOIN down ON s.supergroup_id = down.id
       )
       SELECT DISTINCT m.user_id FROM user_group_members m WHERE m.group_id IN (SELECT id FROM down)`,
      [[...found]],
    );
    return { userIds: members.map((m) => m.user_id), unknown: groupIds.filter((id) => !found.has(id)) };
  }

  async activeUserIdsWithRoles(realmId: number, roles: readonly number[], exceptUserId: number): Promise<number[]> {
    if (roles.length === 0) return [];
    const rows: { id: number }[] = await this.em.query(
      `SELECT id FROM users WHERE realm_id = $1 AND is_active AND role = ANY($2::smallint[]) AND id <> $3 ORDER BY id`,
      [realmId, roles, exceptUserId],
    );
    return rows.map((r) => r.id);
  }
}

export class TypeOrmAccountRepository extends AccountRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async replacePasswordHash(realmId: number, userId: number, expected: string | null, hash: string): Promise<boolean> {
    const result: unknown = await this.em.query(
      `UPDATE users SET password_hash = $4 WHERE realm_id = $1 AND id = $2 AND password_hash IS NOT DISTINCT FROM $3 RETURNING id`,
      [realmId, userId, expected, hash],
    );
    return returnedRows<{ id: number }>(result).length > 0;
  }

  async setApiKey(realmId: number, userId: number, apiKey: string): Promise<void> {
    await this.em.query(`UPDATE users SET api_key = $3 WHERE realm_id = $1 AND id = $2`, [realmId, userId, apiKey]);
  }

  async setEmails(realmId: number, userId: number, emails: { email?: string; deliveryEmail?: string }): Promise<void> {
    await this.em.query(
      `UPDATE users SET email = COALESCE($3, email), delivery_email = COALESCE($4, delivery_email) WHERE realm_id = $1 AND id = $2`,
      [realmId, userId, emails.email ?? null, emails.deliveryEmail ?? null],
    );
  }
}

const STATUS = ['pending', 'used', 'revoked'] as const;

/** An email_change_requests row (status: 0 pending, 1 used, 2 revoked). */
interface EmailChangeRow {
  id: number;
  realm_id: number;
  user_id: number;
  old_email: string;
  new_email: string;
  expires_at: Date;
  status: 0 | 1 | 2;
}

export class TypeOrmEmailChangeRepository extends EmailChangeRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(r: { realmId: number; userId: number; oldEmail: string; newEmail: string; key: string; now: Date; expiresAt: Date }): Promise<void> {
    await this.em.query(`UPDATE email_change_requests SET status = 2 WHERE user_id = $1 AND status = 0`, [r.userId]);
    await this.em.query(
      `INSERT INTO email_change_requests (realm_id, user_id, old_email, new_email, confirmation_key, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [r.realmId, r.userId, r.oldEmail, r.newEmail, r.key, r.now, r.expiresAt],
    );
  }

  async findByKeyForUpdate(key: string): Promise<EmailChangeRequest | null> {
    const [row]: EmailChangeRow[] = await this.em.query(
      `SELECT id, realm_id, user_id, old_email, new_email, expires_at, status FROM email_change_requests
       WHERE confirmation_key = $1 FOR UPDATE`,
      [key],
    );
    if (row === undefined) return null;
    return {
      id: row.id,
      realmId: row.realm_id,
      userId: row.user_id,
      oldEmail: row.old_email,
      newEmail: row.new_email,
      expiresAt: row.expires_at,
      status: STATUS[row.status],
    };
  }

  async markUsed(id: number): Promise<void> {
    await this.em.query(`UPDATE email_change_requests SET status = 1 WHERE id = $1`, [id]);
  }
}

/** A password_reset_tokens row (its id is a bigint). */
interface PasswordResetRow {
  id: string;
  realm_id: number;
  user_id: number;
  expires_at: Date;
  used_at: Date | null;
}

export class TypeOrmPasswordResetRepository extends PasswordResetRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(r: { realmId: number; userId: number; tokenSha256: string; now: Date; expiresAt: Date }): Promise<void> {
    await this.em.query(
      `INSERT INTO password_reset_tokens (realm_id, user_id, token_sha256, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [r.realmId, r.userId, r.tokenSha256, r.now, r.expiresAt],
    );
  }

  async findForUpdate(tokenSha256: string): Promise<PasswordResetLink | null> {
    const [row]: PasswordResetRow[] = await this.em.query(
      `SELECT id, realm_id, user_id, expires_at, used_at FROM password_reset_tokens WHERE token_sha256 = $1 FOR UPDATE`,
      [tokenSha256],
    );
    if (row === undefined) return null;
    return { id: Number(row.id), realmId: row.realm_id, userId: row.user_id, expiresAt: row.expires_at, used: row.used_at !== null };
  }

  async useAll(userId: number, now: Date): Promise<void> {
    await this.em.query(`UPDATE password_reset_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, [userId, now]);
  }
}

/** A row of loginNoticeFacts. */
interface LoginNoticeRow {
  delivery_email: string;
  is_bot: boolean;
  date_joined: Date;
  enable_login_emails: boolean;
  timezone: string;
  twenty_four_hour_time: boolean;
}

@Injectable()
export class TypeOrmUserSettingsQueries extends UserSettingsQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async settingsOf(realmId: number, userId: number): Promise<UserSettings> {
    const [row]: SettingColumnsRow[] = await this.ds.query(`SELECT ${SETTING_COLUMNS} FROM users WHERE realm_id = $1 AND id = $2`, [realmId, userId]);
    return settingsFrom(row);
  }

  async credentials(realmId: number, userId: number): Promise<{ passwordHash: string | null; deliveryEmail: string; passwordAuthEnabled: boolean }> {
    const [row]: { password_hash: string | null; delivery_email: string; password_auth_enabled: boolean }[] = await this.ds.query(
      `SELECT u.password_hash, u.delivery_email, r.password_auth_enabled FROM users u JOIN realms r ON r.id = u.realm_id
       WHERE u.realm_id = $1 AND u.id = $2`,
      [realmId, userId],
    );
    return { passwordHash: row.password_hash, deliveryEmail: row.delivery_email, passwordAuthEnabled: row.password_auth_enabled };
  }

  async loginNoticeFacts(realmId: number, userId: number): Promise<LoginNoticeFacts | null> {
    const [row]: LoginNoticeRow[] = await this.ds.query(
      `SELECT delivery_email, is_bot, date_joined, enable_login_emails, timezone, twenty_four_hour_time FROM users WHERE realm_id = $1 AND id = $2`,
      [realmId, userId],
    );
    if (row === undefined) return null;
    return {
      deliveryEmail: row.delivery_email,
      isBot: row.is_bot,
      dateJoined: row.date_joined,
      enableLoginEmails: row.enable_login_emails,
      timezone: row.timezone,
      twentyFourHourTime: row.twenty_four_hour_time,
    };
  }
}
