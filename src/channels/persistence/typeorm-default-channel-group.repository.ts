import type { DefaultChannelGroup } from '@app/domain/channels';
import type { EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { DefaultChannelGroupRepository } from '../application/default-channel-groups.service.js';

/** A `default_channel_groups` row read with GROUP_COLUMNS. */
interface GroupRow {
  id: number;
  name: string;
  description: string;
  channel_ids: number[];
}

/** A group's columns and its channels' ids by channel name (Zulip's to_dict orders them so). */
const GROUP_COLUMNS = `g.id, g.name, g.description,
  ARRAY(SELECT gc.channel_id FROM default_channel_group_channels gc JOIN channels c ON c.id = gc.channel_id
        WHERE gc.group_id = g.id ORDER BY c.name, c.id) AS channel_ids`;

const toGroup = (r: GroupRow): DefaultChannelGroup => ({ id: r.id, name: r.name, description: r.description, channelIds: r.channel_ids });

export class TypeOrmDefaultChannelGroupRepository extends DefaultChannelGroupRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(realmId: number): Promise<DefaultChannelGroup[]> {
    const rows: GroupRow[] = await this.em.query(`SELECT ${GROUP_COLUMNS} FROM default_channel_groups g WHERE g.realm_id = $1 ORDER BY g.id`, [realmId]);
    return rows.map(toGroup);
  }

  async lock(realmId: number, groupId: number): Promise<DefaultChannelGroup | null> {
    const rows: GroupRow[] = await this.em.query(`SELECT ${GROUP_COLUMNS} FROM default_channel_groups g WHERE g.realm_id = $1 AND g.id = $2 FOR UPDATE`, [
      realmId,
      groupId,
    ]);
    return rows.length > 0 ? toGroup(rows[0]) : null;
  }

  async nameTaken(realmId: number, name: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM default_channel_groups WHERE realm_id = $1 AND name = $2`, [realmId, name]);
    return rows.length > 0;
  }

  async insert(realmId: number, name: string, description: string, channelIds: readonly number[]): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `WITH g AS (INSERT INTO default_channel_groups (realm_id, name, description) VALUES ($1, $2, $3) RETURNING id),
            c AS (INSERT INTO default_channel_group_channels (group_id, channel_id)
                  SELECT g.id, ch.id FROM g, channels ch WHERE ch.realm_id = $1 AND ch.id = ANY($4::int[]))
       SELECT id FROM g`,
      [realmId, name, description, channelIds],
    );
    return row.id;
  }

  async update(realmId: number, groupId: number, changes: { name?: string; description?: string }): Promise<void> {
    await this.em.query(
      `UPDATE default_channel_groups SET name = coalesce($3, name), description = coalesce($4, description) WHERE realm_id = $1 AND id = $2`,
      [realmId, groupId, changes.name ?? null, changes.description ?? null],
    );
  }

  async addChannels(realmId: number, groupId: number, channelIds: readonly number[]): Promise<void> {
    await this.em.query(
      `INSERT INTO default_channel_group_channels (group_id, channel_id)
       SELECT g.id, ch.id FROM default_channel_groups g JOIN channels ch ON ch.realm_id = g.realm_id
       WHERE g.realm_id = $1 AND g.id = $2 AND ch.id = ANY($3::int[])
       ON CONFLICT DO NOTHING`,
      [realmId, groupId, channelIds],
    );
  }

  async removeChannels(realmId: number, groupId: number, channelIds: readonly number[]): Promise<void> {
    await this.em.query(
      `DELETE FROM default_channel_group_channels gc USING default_channel_groups g
       WHERE g.id = gc.group_id AND g.realm_id = $1 AND gc.group_id = $2 AND gc.channel_id = ANY($3::int[])`,
      [realmId, groupId, channelIds],
    );
  }

  async remove(realmId: number, groupId: number): Promise<void> {
    await this.em.query(`DELETE FROM default_channel_groups WHERE realm_id = $1 AND id = $2`, [realmId, groupId]);
  }

  async removeChannelEverywhere(realmId: number, channelId: number): Promise<boolean> {
    // DELETE … RETURNING answers [rows, count] through TypeORM: the rows are the first.
    const rows = returnedRows<{ group_id: number }>(
      await this.em.query(
        `DELETE FROM default_channel_group_channels gc USING default_channel_groups g
         WHERE g.id = gc.group_id AND g.realm_id = $1 AND gc.channel_id = $2 RETURNING gc.group_id`,
        [realmId, channelId],
      ),
    );
    return rows.length > 0;
  }
}
