import type { EntityManager } from 'typeorm';
import { type ChannelFolderRecord, ChannelFolderRepository } from '../application/channel.ports.js';
import { isStorableId } from '../../shared/application/ids.js';

/** A `channel_folders` row (SELECT *). */
export interface ChannelFolderRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: Date;
  creator_id: number | null;
  is_archived: boolean;
  order: number;
}

export const toFolderRecord = (r: ChannelFolderRow): ChannelFolderRecord => ({
  id: r.id,
  name: r.name,
  description: r.description,
  renderedDescription: r.rendered_description,
  order: r.order,
  dateCreated: r.date_created,
  creatorId: r.creator_id,
  isArchived: r.is_archived,
});

export class TypeOrmChannelFolderRepository extends ChannelFolderRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async exists(realmId: number, folderId: number): Promise<boolean> {
    if (!isStorableId(folderId)) return false;
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM channel_folders WHERE realm_id = $1 AND id = $2`, [realmId, folderId]);
    return rows.length > 0;
  }

  async nameTaken(realmId: number, name: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM channel_folders WHERE realm_id = $1 AND lower(name) = lower($2) AND NOT is_archived`,
      [realmId, name],
    );
    return rows.length > 0;
  }

  async create(f: {
    realmId: number;
    name: string;
    description: string;
    renderedDescription: string;
    creatorId: number;
    now: Date;
  }): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO channel_folders (realm_id, name, description, rendered_description, date_created, creator_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [f.realmId, f.name, f.description, f.renderedDescription, f.now, f.creatorId],
    );
    await this.em.query(`UPDATE channel_folders SET "order" = id WHERE id = $1`, [row.id]);
    return row.id;
  }

  async getForUpdate(realmId: number, folderId: number): Promise<ChannelFolderRecord | null> {
    if (!isStorableId(folderId)) return null;
    const [r]: ChannelFolderRow[] = await this.em.query(`SELECT * FROM channel_folders WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [
      realmId,
      folderId,
    ]);
    return r === undefined ? null : toFolderRecord(r);
  }

  async nameTakenByOther(realmId: number, name: string, exceptId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM channel_folders WHERE realm_id = $1 AND lower(name) = lower($2) AND NOT is_archived AND id <> $3`,
      [realmId, name, exceptId],
    );
    return rows.length > 0;
  }

  async update(folderId: number, c: { name?: string; description?: string; renderedDescription?: string; isArchived?: boolean }): Promise<void> {
    await this.em.query(
      `UPDATE channel_folders SET name = coalesce($2, name), description = coalesce($3, description),
         rendered_description = coalesce($4, rendered_description), is_archived = coalesce($5, is_archived)
       WHERE id = $1`,
      [folderId, c.name ?? null, c.description ?? null, c.renderedDescription ?? null, c.isArchived ?? null],
    );
  }

  async inUse(folderId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM channels WHERE folder_id = $1 AND NOT is_archived LIMIT 1`, [folderId]);
    return rows.length > 0;
  }

  async idsForUpdate(realmId: number): Promise<number[]> {
    const rows: { id: number }[] = await this.em.query(`SELECT id FROM channel_folders WHERE realm_id = $1 ORDER BY id FOR UPDATE`, [realmId]);
    return rows.map((r) => r.id);
  }

  async setOrder(realmId: number, positions: ReadonlyMap<number, number>): Promise<void> {
    await this.em.query(
      `UPDATE channel_folders f SET "order" = o.position
       FROM unnest($2::int[], $3::int[]) AS o(id, position)
       WHERE f.realm_id = $1 AND f.id = o.id`,
      [realmId, [...positions.keys()], [...positions.values()]],
    );
  }
}
