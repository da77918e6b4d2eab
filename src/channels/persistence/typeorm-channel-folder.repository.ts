import type { EntityManager } from 'typeorm';
import { ChannelFolderRepository } from '../application/channel.ports.js';

export class TypeOrmChannelFolderRepository extends ChannelFolderRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async exists(realmId: number, folderId: number): Promise<boolean> {
    const rows = await this.em.query(`SELECT 1 FROM channel_folders WHERE realm_id = $1 AND id = $2`, [realmId, folderId]);
    return rows.length > 0;
  }

  async nameTaken(realmId: number, name: string): Promise<boolean> {
    const rows = await this.em.query(
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
    const [row] = await this.em.query(
      `INSERT INTO channel_folders (realm_id, name, description, rendered_description, date_created, creator_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [f.realmId, f.name, f.description, f.renderedDescription, f.now, f.creatorId],
    );
    await this.em.query(`UPDATE channel_folders SET "order" = id WHERE id = $1`, [row.id]);
    return row.id;
  }
}
