import { type BotType, type Role, User } from '@app/domain/users';
import type { EntityManager } from 'typeorm';
import type { NewUser, UserRecord } from '../application/user.ports.js';
import { UserRepository } from '../application/user.ports.js';
import { returnedRows } from '../../shared/persistence/rows.js';
import { isStorableId, storableIds } from '../../shared/application/ids.js';
import { UserRow } from './user.row.js';

export function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    realmId: row.realmId,
    email: row.email,
    deliveryEmail: row.deliveryEmail,
    fullName: row.fullName,
    role: row.role,
    isActive: row.isActive,
    isBot: row.isBot,
    botType: row.botType,
    botOwnerId: row.botOwnerId,
    isSystemBot: row.isSystemBot,
    dateJoined: row.dateJoined,
    timezone: row.timezone,
    avatarVersion: row.avatarVersion,
    avatarPath: row.avatarPath,
    defaultSendingStreamId: row.defaultSendingStreamId,
    defaultEventsRegisterStreamId: row.defaultEventsRegisterStreamId,
    defaultAllPublicStreams: row.defaultAllPublicStreams,
    emailAddressVisibility: row.emailAddressVisibility,
  };
}

export class TypeOrmUserRepository extends UserRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  private get rows() {
    return this.em.getRepository(UserRow);
  }

  async findById(realmId: number, userId: number): Promise<UserRecord | null> {
    if (!isStorableId(userId)) return null;
    const row = await this.rows.findOneBy({ realmId, id: userId });
    return row ? toRecord(row) : null;
  }

  async systemBot(realmId: number, localPart: string): Promise<UserRecord> {
    const row = await this.rows
      .createQueryBuilder('u')
      .where(`u.realm_id = :realmId AND u.is_system_bot AND u.email LIKE :prefix`, { realmId, prefix: `${localPart}@%` })
      .getOneOrFail();
    return toRecord(row);
  }

  async findManyByIds(realmId: number, requested: readonly number[]): Promise<Map<number, UserRecord>> {
    const userIds = storableIds(requested);
    if (userIds.length === 0) return new Map();
    const rows = await this.rows.createQueryBuilder('u').where('u.realm_id = :realmId AND u.id = ANY(:ids)', { realmId, ids: [...userIds] }).getMany();
    return new Map(rows.map((r) => [r.id, toRecord(r)]));
  }

  async findManyByEmails(realmId: number, emails: readonly string[]): Promise<Map<string, UserRecord>> {
    if (emails.length === 0) return new Map();
    const rows = await this.rows
      .createQueryBuilder('u')
      .where('u.realm_id = :realmId AND lower(u.delivery_email) = ANY(:emails)', {
        realmId,
        emails: emails.map((e) => e.trim().toLowerCase()),
      })
      .getMany();
    return new Map(rows.map((r) => [r.deliveryEmail.toLowerCase(), toRecord(r)]));
  }

  async findManyByApiEmails(realmId: number, emails: readonly string[]): Promise<Map<string, UserRecord>> {
    if (emails.length === 0) return new Map();
    const rows = await this.rows
      .createQueryBuilder('u')
      .where('u.realm_id = :realmId AND lower(u.email) = ANY(:emails)', {
        realmId,
        emails: emails.map((e) => e.trim().toLowerCase()),
      })
      .getMany();
    return new Map(rows.map((r) => [r.email.toLowerCase(), toRecord(r)]));
  }

  async getForUpdate(realmId: number, userId: number): Promise<User | null> {
    if (!isStorableId(userId)) return null;
    const row = await this.rows
      .createQueryBuilder('u')
      .where('u.realm_id = :realmId AND u.id = :userId', { realmId, userId })
      .setLock('pessimistic_write')
      .getOne();
    return row ? User.restore(toRecord(row)) : null;
  }

  async emailInUse(realmId: number, email: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM users WHERE realm_id = $1 AND (lower(delivery_email) = lower($2) OR lower(email) = lower($2)) LIMIT 1`,
      [realmId, email],
    );
    return rows.length > 0;
  }

  async activeUserNamed(realmId: number, fullName: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM users WHERE realm_id = $1 AND is_active AND full_name = $2 LIMIT 1`,
      [realmId, fullName],
    );
    return rows.length > 0;
  }

  async fullNameTaken(realmId: number, fullName: string, exceptUserId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM users WHERE realm_id = $1 AND id <> $3 AND lower(normalize(full_name, NFKC)) = lower(normalize($2, NFKC)) LIMIT 1`,
      [realmId, fullName, exceptUserId],
    );
    return rows.length > 0;
  }

  async insert(u: NewUser): Promise<number> {
    // The port takes plain numbers for the role and bot type; the column holds the domain's values.
    // The port gives the role and bot type as plain numbers; the columns hold the domain's values.
    const row = { ...u, role: u.role as Role, botType: u.botType as BotType | null };
    const result = await this.rows.insert({ ...row, timezone: '', avatarVersion: 1, isActive: true });
    return result.identifiers[0].id as number;
  }

  async save(user: User): Promise<void> {
    const s = user.snapshot();
    await this.rows.update({ id: s.id, realmId: s.realmId }, { role: s.role, fullName: s.fullName, isActive: s.isActive });
  }

  async lockActiveHumanOwners(realmId: number): Promise<number> {
    const rows: { id: number }[] = await this.em.query(
      `SELECT id FROM users WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot FOR UPDATE`,
      [realmId],
    );
    return rows.length;
  }

  async deactivateBotsOwnedBy(realmId: number, ownerId: number): Promise<number[]> {
    const result: unknown = await this.em.query(
      `UPDATE users SET is_active = false WHERE realm_id = $1 AND bot_owner_id = $2 AND is_active RETURNING id`,
      [realmId, ownerId],
    );
    return returnedRows<{ id: number }>(result).map((r) => r.id).sort((a, b) => a - b);
  }

  async countActiveHumans(realmId: number): Promise<number> {
    const [{ n }]: { n: number }[] = await this.em.query(
      `SELECT count(*)::int AS n FROM users WHERE realm_id = $1 AND is_active AND NOT is_bot`,
      [realmId],
    );
    return n;
  }

  async lockAvatar(realmId: number, userId: number): Promise<{ deliveryEmail: string; avatarVersion: number; avatarPath: string | null } | null> {
    const rows: { delivery_email: string; avatar_version: number; avatar_path: string | null }[] = await this.em.query(
      `SELECT delivery_email, avatar_version, avatar_path FROM users WHERE realm_id = $1 AND id = $2 FOR UPDATE`,
      [realmId, userId],
    );
    if (rows.length === 0) return null;
    return { deliveryEmail: rows[0].delivery_email, avatarVersion: rows[0].avatar_version, avatarPath: rows[0].avatar_path };
  }

  async setAvatar(realmId: number, userId: number, avatarPath: string | null): Promise<number> {
    const rows: { avatar_version: number }[] = returnedRows(
      await this.em.query(
        `UPDATE users SET avatar_path = $3, avatar_version = avatar_version + 1 WHERE realm_id = $1 AND id = $2 RETURNING avatar_version`,
        [realmId, userId, avatarPath],
      ),
    );
    return rows[0].avatar_version;
  }
}
