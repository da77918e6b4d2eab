import type { GroupFacts, GroupSettingValue, SystemGroupName } from '@app/domain/users';
import type { EntityManager } from 'typeorm';
import { GroupSettingStore } from '../application/group-setting-store.js';
import { storableIds } from '../application/ids.js';
import type { SettingsReader } from '../application/settings-cache.js';
import { cachedSetting } from './settings-scope.js';

/** A system group of the organization (`role:…`). */
interface SystemGroupRow {
  id: number;
  name: SystemGroupName;
}

/** A group as permission checks see it; an anonymous group's name reads as ''. */
interface GroupFactsRow {
  id: number;
  name: string;
  is_system_group: boolean;
  deactivated: boolean;
}

/** The id of a user, or of a group just created. */
interface IdRow {
  id: number;
}

/** User groups as the organization's, channels' and groups' permission settings keep them, on the transaction's connection. */
export class TypeOrmGroupSettingStore extends GroupSettingStore {
  constructor(private readonly em: EntityManager) {
    super();
  }

  systemGroupIds(realmId: number, reader?: SettingsReader): Promise<Map<SystemGroupName, number>> {
    return cachedSetting(this.em, realmId, reader, 'systemGroups', () => this.loadSystemGroupIds(realmId));
  }

  private async loadSystemGroupIds(realmId: number): Promise<Map<SystemGroupName, number>> {
    const rows: SystemGroupRow[] = await this.em.query(
      `SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`,
      [realmId],
    );
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async groupFacts(realmId: number, requested: readonly number[]): Promise<Map<number, GroupFacts>> {
    const groupIds = storableIds(requested);
    if (groupIds.length === 0) return new Map();
    const rows: GroupFactsRow[] = await this.em.query(
      `SELECT id, coalesce(name, '') AS name, is_system_group, deactivated FROM user_groups
       WHERE realm_id = $1 AND id = ANY($2::int[])`,
      [realmId, groupIds],
    );
    return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, isSystemGroup: r.is_system_group, deactivated: r.deactivated }]));
  }

  async activeUserIds(realmId: number, requested: readonly number[], allowBots = true): Promise<Set<number>> {
    const userIds = storableIds(requested);
    if (userIds.length === 0) return new Set();
    const rows: IdRow[] = await this.em.query(
      `SELECT id FROM users WHERE realm_id = $1 AND id = ANY($2::int[]) AND is_active ${allowBots ? '' : 'AND NOT is_bot'}`,
      [realmId, userIds],
    );
    return new Set(rows.map((r) => r.id));
  }

  async store(realmId: number, value: GroupSettingValue): Promise<number> {
    if (typeof value === 'number') return value;
    const [row]: IdRow[] = await this.em.query(`INSERT INTO user_groups (realm_id) VALUES ($1) RETURNING id`, [realmId]);
    if (value.directMembers.length > 0) {
      await this.em.query(
        `INSERT INTO user_group_members (group_id, user_id, realm_id)
         SELECT $1, u, $2 FROM unnest($3::int[]) AS u ON CONFLICT DO NOTHING`,
        [row.id, realmId, value.directMembers],
      );
    }
    if (value.directSubgroups.length > 0) {
      await this.em.query(
        `INSERT INTO user_group_subgroups (supergroup_id, subgroup_id, realm_id)
         SELECT $1, s, $2 FROM unnest($3::int[]) AS s ON CONFLICT DO NOTHING`,
        [row.id, realmId, value.directSubgroups],
      );
    }
    return row.id;
  }
}
