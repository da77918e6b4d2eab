import type { CustomEmoji } from '@app/domain/emoji';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { groupIdsOfUser } from '../../shared/persistence/group-setting-values.js';
import { RealmEmojiQueries, type RealmEmojiRecord, RealmEmojiRepository } from '../application/realm-emoji.ports.js';

const FINISHED = 'file_name IS NOT NULL';

/** A finished `realm_emoji` row (EMOJI_COLUMNS, under FINISHED: file_name is set). */
interface RealmEmojiRow {
  id: number;
  realm_id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  is_animated: boolean;
  deactivated: boolean;
}

const EMOJI_COLUMNS = 'id, realm_id, name, author_id, file_name, is_animated, deactivated';

const toRecord = (r: RealmEmojiRow): RealmEmojiRecord => ({
  id: r.id,
  realmId: r.realm_id,
  name: r.name,
  authorId: r.author_id,
  fileName: r.file_name,
  isAnimated: r.is_animated,
  deactivated: r.deactivated,
});

export class TypeOrmRealmEmojiRepository extends RealmEmojiRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async customEmoji(realmId: number): Promise<CustomEmoji[]> {
    const rows: Pick<RealmEmojiRow, 'id' | 'name' | 'deactivated'>[] = await this.em.query(
      `SELECT id, name, deactivated FROM realm_emoji WHERE realm_id = $1 AND ${FINISHED}`,
      [realmId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, deactivated: r.deactivated }));
  }

  async activeNamed(realmId: number, names: readonly string[]): Promise<RealmEmojiRecord[]> {
    if (names.length === 0) return [];
    const rows: RealmEmojiRow[] = await this.em.query(
      `SELECT ${EMOJI_COLUMNS} FROM realm_emoji WHERE realm_id = $1 AND name = ANY($2::text[]) AND NOT deactivated AND ${FINISHED}`,
      [realmId, names],
    );
    return rows.map(toRecord);
  }

  async insert(e: { realmId: number; name: string; authorId: number | null }): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(`INSERT INTO realm_emoji (realm_id, name, author_id) VALUES ($1, $2, $3) RETURNING id`, [
      e.realmId,
      e.name,
      e.authorId,
    ]);
    return row.id;
  }

  async finishUpload(realmId: number, id: number, fileName: string, isAnimated: boolean): Promise<void> {
    await this.em.query(`UPDATE realm_emoji SET file_name = $3, is_animated = $4 WHERE realm_id = $1 AND id = $2`, [
      realmId,
      id,
      fileName,
      isAnimated,
    ]);
  }

  async lockActiveNamed(realmId: number, name: string): Promise<number | null> {
    const [row]: { id: number }[] = await this.em.query(
      `SELECT id FROM realm_emoji WHERE realm_id = $1 AND name = $2 AND NOT deactivated FOR UPDATE`,
      [realmId, name],
    );
    return row?.id ?? null;
  }

  async lockActive(realmId: number, name: string): Promise<{ id: number; authorId: number | null } | null> {
    const [row]: Pick<RealmEmojiRow, 'id' | 'author_id'>[] = await this.em.query(
      `SELECT id, author_id FROM realm_emoji WHERE realm_id = $1 AND name = $2 AND NOT deactivated FOR UPDATE`,
      [realmId, name],
    );
    return row === undefined ? null : { id: row.id, authorId: row.author_id };
  }

  async deactivate(realmId: number, id: number): Promise<void> {
    await this.em.query(`UPDATE realm_emoji SET deactivated = true WHERE realm_id = $1 AND id = $2`, [realmId, id]);
  }

  list(realmId: number): Promise<RealmEmojiRecord[]> {
    return listRealmEmoji(this.em, realmId);
  }

  groupIdsOfUser(userId: number): Promise<Set<number>> {
    return groupIdsOfUser(this.em, userId);
  }
}

async function listRealmEmoji(db: DataSource | EntityManager, realmId: number): Promise<RealmEmojiRecord[]> {
  const rows: RealmEmojiRow[] = await db.query(`SELECT ${EMOJI_COLUMNS} FROM realm_emoji WHERE realm_id = $1 AND ${FINISHED} ORDER BY id`, [realmId]);
  return rows.map(toRecord);
}

@Injectable()
export class TypeOrmRealmEmojiQueries extends RealmEmojiQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  list(realmId: number): Promise<RealmEmojiRecord[]> {
    return listRealmEmoji(this.ds, realmId);
  }
}
