import { mutedUserEntry, type MutedUserEntry } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { MutedUserQueries, MutedUserRepository } from '../application/muted-users.ports.js';

const LIST = `SELECT muted_user_id, date_muted FROM muted_users WHERE realm_id = $1 AND user_id = $2 ORDER BY date_muted, muted_user_id`;

async function list(em: EntityManager | DataSource, realmId: number, userId: number): Promise<MutedUserEntry[]> {
  const rows: { muted_user_id: number; date_muted: Date }[] = await em.query(LIST, [realmId, userId]);
  return rows.map((r) => mutedUserEntry(r.muted_user_id, r.date_muted));
}

export class TypeOrmMutedUserRepository extends MutedUserRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  list(realmId: number, userId: number): Promise<MutedUserEntry[]> {
    return list(this.em, realmId, userId);
  }

  async add(realmId: number, userId: number, mutedUserId: number, dateMuted: Date): Promise<boolean> {
    // A concurrent mute of the same user waits for the other and then inserts nothing.
    const result: unknown = await this.em.query(
      `INSERT INTO muted_users (realm_id, user_id, muted_user_id, date_muted) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, muted_user_id) DO NOTHING RETURNING muted_user_id`,
      [realmId, userId, mutedUserId, dateMuted],
    );
    return returnedRows<{ muted_user_id: number }>(result).length > 0;
  }

  async remove(realmId: number, userId: number, mutedUserId: number): Promise<boolean> {
    const result: unknown = await this.em.query(
      `DELETE FROM muted_users WHERE realm_id = $1 AND user_id = $2 AND muted_user_id = $3 RETURNING muted_user_id`,
      [realmId, userId, mutedUserId],
    );
    return returnedRows<{ muted_user_id: number }>(result).length > 0;
  }
}

@Injectable()
export class TypeOrmMutedUserQueries extends MutedUserQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  list(realmId: number, userId: number): Promise<MutedUserEntry[]> {
    return list(this.ds, realmId, userId);
  }
}
