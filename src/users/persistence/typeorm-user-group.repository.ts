import { type GroupSettingValue, SYSTEM_GROUPS, SystemGroup, type SystemGroupName, UserGroup, type UserGroupSettings } from '@app/domain/users';
import { USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from '@app/domain/realm';
import type { EntityManager } from 'typeorm';
import { type GroupUsage, type UserGroupRecord, UserGroupRepository } from '../application/user.ports.js';
import type { SettingsReader } from '../../shared/application/settings-cache.js';
import {
  anonymousGroupsColumn,
  GROUP_MEMBERS_SQL,
  GROUP_SUBGROUPS_SQL,
  groupIdsOfUser,
  groupSettingValues,
  settingValueOf,
} from '../../shared/persistence/group-setting-values.js';
import { settingsEntry } from '../../shared/persistence/settings-scope.js';
import {
  type FoundRow,
  type GroupContentsRow,
  type GroupIdRow,
  type MemberIdRow,
  type SettingHolderRow,
  settingColumn,
  type SupergroupRow,
  type SystemGroupIdRow,
  type UserGroupIdRow,
  type UserGroupLinksRow,
  type UserGroupTableRow,
} from './user-group.row.js';

const SETTING_COLUMNS = USER_GROUP_SETTING_NAMES.map(settingColumn);

/** A setting column left empty (a group written without settings) reports as a group nobody is in. */
const NO_GROUP: GroupSettingValue = { directMembers: [], directSubgroups: [] };

function toRecord(r: UserGroupTableRow): UserGroupRecord {
  return {
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    description: r.description,
    isSystemGroup: r.is_system_group,
    creatorId: r.creator_id,
    dateCreated: r.date_created,
    deactivated: r.deactivated,
    settings: Object.fromEntries(USER_GROUP_SETTING_NAMES.map((s) => [s, r[settingColumn(s)]])),
  };
}

function toDomain(r: UserGroupTableRow & { name: string }, links: UserGroupLinksRow): UserGroup {
  const settingOf = (s: UserGroupSettingName): GroupSettingValue => {
    const id = r[settingColumn(s)];
    return id === null ? NO_GROUP : settingValueOf(links.anonymous, id);
  };
  return UserGroup.restore({
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    description: r.description,
    creatorId: r.creator_id,
    dateCreated: r.date_created,
    isSystemGroup: r.is_system_group,
    deactivated: r.deactivated,
    members: links.members,
    subgroups: links.subgroups,
    settings: Object.fromEntries(USER_GROUP_SETTING_NAMES.map((s) => [s, settingOf(s)])) as UserGroupSettings,
  });
}

/** Every group containing `$1`, itself included, following subgroup links upwards. */
const ANCESTORS_SQL = `
  WITH RECURSIVE up(id) AS (
    SELECT $1::int
    UNION
    SELECT s.supergroup_id FROM user_group_subgroups s JOIN up ON s.subgroup_id = up.id
  )
  SELECT id FROM up`;

export class TypeOrmUserGroupRepository extends UserGroupRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async createSystemGroups(realmId: number): Promise<Map<SystemGroupName, number>> {
    const rows: SystemGroupIdRow[] = await this.em.query(
      `INSERT INTO user_groups (realm_id, name, description, is_system_group)
       SELECT $1, name, description, true FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS g(name, description, ord)
       ORDER BY ord
       RETURNING id, name`,
      [realmId, SYSTEM_GROUPS.map((g) => g.name), SYSTEM_GROUPS.map((g) => g.description)],
    );
    const ids = new Map(rows.map((r) => [r.name, r.id]));
    const links = SYSTEM_GROUPS.filter((g) => g.parent !== null);
    await this.em.query(
      `INSERT INTO user_group_subgroups (supergroup_id, subgroup_id, realm_id)
       SELECT sup, sub, $3 FROM unnest($1::int[], $2::int[]) AS l(sup, sub)`,
      [links.map((g) => ids.get(g.parent!)), links.map((g) => ids.get(g.name)), realmId],
    );
    const nobody = ids.get(SystemGroup.NOBODY)!;
    await this.em.query(
      `UPDATE user_groups SET ${SETTING_COLUMNS.map((c) => `${c} = $2`).join(', ')} WHERE realm_id = $1 AND is_system_group`,
      [realmId, nobody],
    );
    return ids;
  }

  private async systemGroupIds(realmId: number): Promise<Map<SystemGroupName, number>> {
    const rows: SystemGroupIdRow[] = await this.em.query(
      `SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`,
      [realmId],
    );
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async setSystemGroupMemberships(realmId: number, userId: number, groups: readonly SystemGroupName[]): Promise<void> {
    await this.em.query(
      `DELETE FROM user_group_members m USING user_groups g
       WHERE m.group_id = g.id AND g.realm_id = $1 AND g.is_system_group AND m.user_id = $2`,
      [realmId, userId],
    );
    await this.em.query(
      `INSERT INTO user_group_members (group_id, user_id, realm_id)
       SELECT id, $2, $1 FROM user_groups WHERE realm_id = $1 AND is_system_group AND name = ANY($3::text[])
         AND EXISTS (SELECT 1 FROM users WHERE id = $2 AND realm_id = $1)`,
      [realmId, userId, groups],
    );
  }

  async refreshFullMembers(realmId: number, cutoff: Date): Promise<void> {
    const groups = await this.systemGroupIds(realmId);
    const full = groups.get(SystemGroup.FULL_MEMBERS)!;
    const members = groups.get(SystemGroup.MEMBERS)!;
    await this.em.query(
      `DELETE FROM user_group_members m USING users u
       WHERE m.group_id = $1 AND u.id = m.user_id AND (u.role <> 400 OR u.date_joined > $2)`,
      [full, cutoff],
    );
    await this.em.query(
      `INSERT INTO user_group_members (group_id, user_id, realm_id)
       SELECT $1, m.user_id, $3 FROM user_group_members m JOIN users u ON u.id = m.user_id
       WHERE m.group_id = $2 AND u.role = 400 AND u.date_joined <= $4
       ON CONFLICT DO NOTHING`,
      [full, members, realmId, cutoff],
    );
  }

  async createNamed(g: {
    realmId: number;
    name: string;
    description: string;
    creatorId: number | null;
    dateCreated: Date | null;
    settings: Readonly<Partial<Record<string, number>>>;
  }): Promise<number> {
    const [row]: GroupIdRow[] = await this.em.query(
      `INSERT INTO user_groups (realm_id, name, description, creator_id, date_created, ${SETTING_COLUMNS.join(', ')})
       VALUES ($1, $2, $3, $4, $5, ${SETTING_COLUMNS.map((_, i) => `$${i + 6}`).join(', ')})
       RETURNING id`,
      [g.realmId, g.name, g.description, g.creatorId, g.dateCreated, ...USER_GROUP_SETTING_NAMES.map((s) => g.settings[s] ?? null)],
    );
    return row.id;
  }

  async find(realmId: number, groupId: number, forUpdate = false): Promise<UserGroupRecord | null> {
    const rows: UserGroupTableRow[] = await this.em.query(
      `SELECT * FROM user_groups WHERE realm_id = $1 AND id = $2::bigint ${forUpdate ? 'FOR UPDATE' : ''}`,
      [realmId, groupId],
    );
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  async getForUpdate(realmId: number, groupId: number): Promise<UserGroup | null> {
    const [row]: (UserGroupTableRow & { name: string })[] = await this.em.query(
      `SELECT * FROM user_groups WHERE realm_id = $1 AND id = $2::bigint AND name IS NOT NULL FOR UPDATE`,
      [realmId, groupId],
    );
    if (row === undefined) return null;
    // A second statement, so that a concurrent change the lock waited for is seen.
    const [links]: UserGroupLinksRow[] = await this.em.query(
      `SELECT ARRAY(SELECT m.user_id FROM user_group_members m WHERE m.group_id = ug.id ORDER BY 1) AS members,
              ARRAY(SELECT s.subgroup_id FROM user_group_subgroups s WHERE s.supergroup_id = ug.id ORDER BY 1) AS subgroups,
              ${anonymousGroupsColumn('ug', SETTING_COLUMNS)} AS anonymous
       FROM user_groups ug WHERE ug.id = $1`,
      [row.id],
    );
    return toDomain(row, links);
  }

  async insert(group: UserGroup, settings: Readonly<Partial<Record<UserGroupSettingName, number>>>): Promise<void> {
    const g = group.snapshot();
    const id = await this.createNamed({ ...g, settings });
    group.identify(id);
    await this.addMembers(g.realmId, id, g.members);
    await this.addSubgroups(g.realmId, id, g.subgroups);
  }

  async save(group: UserGroup, settings: Readonly<Partial<Record<UserGroupSettingName, number>>>): Promise<void> {
    const g = group.snapshot();
    const changes = group.pendingChanges();
    const stored = USER_GROUP_SETTING_NAMES.filter((s) => settings[s] !== undefined);
    if (changes.row || stored.length > 0) {
      await this.em.query(
        `UPDATE user_groups SET name = $3, description = $4, deactivated = $5${stored.map((s, i) => `, ${settingColumn(s)} = $${i + 6}`).join('')}
         WHERE id = $1 AND realm_id = $2`,
        [g.id, g.realmId, g.name, g.description, g.deactivated, ...stored.map((s) => settings[s])],
      );
    }
    await this.addMembers(g.realmId, g.id, changes.addedMembers);
    await this.removeMembers(g.realmId, g.id, changes.removedMembers);
    await this.addSubgroups(g.realmId, g.id, changes.addedSubgroups);
    await this.removeSubgroups(g.realmId, g.id, changes.removedSubgroups);
  }

  async namedGroupExists(realmId: number, name: string): Promise<boolean> {
    const rows: FoundRow[] = await this.em.query(`SELECT 1 AS found FROM user_groups WHERE realm_id = $1 AND name = $2`, [realmId, name]);
    return rows.length > 0;
  }

  async addMembers(realmId: number, groupId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.em.query(
      `INSERT INTO user_group_members (group_id, user_id, realm_id)
       SELECT $1, u, $2 FROM unnest($3::int[]) AS u ON CONFLICT DO NOTHING`,
      [groupId, realmId, userIds],
    );
  }

  private async removeMembers(realmId: number, groupId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.em.query(`DELETE FROM user_group_members WHERE group_id = $1 AND realm_id = $2 AND user_id = ANY($3::int[])`, [
      groupId,
      realmId,
      userIds,
    ]);
  }

  private async addSubgroups(realmId: number, groupId: number, subgroupIds: readonly number[]): Promise<void> {
    if (subgroupIds.length === 0) return;
    await this.em.query(
      `INSERT INTO user_group_subgroups (supergroup_id, subgroup_id, realm_id)
       SELECT $1, s, $2 FROM unnest($3::int[]) AS s ON CONFLICT DO NOTHING`,
      [groupId, realmId, subgroupIds],
    );
  }

  private async removeSubgroups(realmId: number, groupId: number, subgroupIds: readonly number[]): Promise<void> {
    if (subgroupIds.length === 0) return;
    await this.em.query(`DELETE FROM user_group_subgroups WHERE supergroup_id = $1 AND realm_id = $2 AND subgroup_id = ANY($3::int[])`, [
      groupId,
      realmId,
      subgroupIds,
    ]);
  }

  async ancestorIds(groupId: number): Promise<Set<number>> {
    const rows: GroupIdRow[] = await this.em.query(ANCESTORS_SQL, [groupId]);
    return new Set(rows.map((r) => r.id));
  }

  async groupIdsOfUsers(userIds: readonly number[]): Promise<Map<number, Set<number>>> {
    const out = new Map(userIds.map((id) => [id, new Set<number>()]));
    if (userIds.length === 0) return out;
    const rows: UserGroupIdRow[] = await this.em.query(
      `WITH RECURSIVE up(user_id, id) AS (
         SELECT m.user_id, m.group_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
         WHERE m.user_id = ANY($1::int[])
         UNION
         SELECT up.user_id, s.supergroup_id FROM user_group_subgroups s JOIN up ON s.subgroup_id = up.id
       )
       SELECT user_id, id FROM up`,
      [userIds],
    );
    for (const r of rows) out.get(r.user_id)!.add(r.id);
    return out;
  }

  groupIdsOfUser(userId: number, reader?: SettingsReader): Promise<Set<number>> {
    const cached = reader === undefined ? undefined : settingsEntry(this.em, reader.realmId, reader);
    return cached ? cached.groupsOf(userId, () => groupIdsOfUser(this.em, userId)) : groupIdsOfUser(this.em, userId);
  }

  async settingValue(groupId: number): Promise<GroupSettingValue> {
    const [row]: GroupContentsRow[] = await this.em.query(
      `SELECT g.name, ${GROUP_MEMBERS_SQL} AS members, ${GROUP_SUBGROUPS_SQL} AS subgroups FROM user_groups g WHERE g.id = $1`,
      [groupId],
    );
    if (row.name !== null) return groupId;
    return { directMembers: row.members, directSubgroups: row.subgroups };
  }

  settingValuesOf(groupIds: readonly number[]): Promise<Map<number, GroupSettingValue>> {
    return groupSettingValues(this.em, groupIds);
  }

  async memberIds(groupId: number, directOnly: boolean): Promise<number[]> {
    const rows: MemberIdRow[] = await this.em.query(
      directOnly
        ? `SELECT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
           WHERE m.group_id = $1 ORDER BY m.user_id`
        : `WITH RECURSIVE down(id) AS (
             SELECT $1::int
             UNION
             SELECT s.subgroup_id FROM user_group_subgroups s JOIN down ON s.supergroup_id = down.id
           )
           SELECT DISTINCT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
           WHERE m.group_id IN (SELECT id FROM down) ORDER BY m.user_id`,
      [groupId],
    );
    return rows.map((r) => r.user_id);
  }

  async subgroupIdsOf(groupId: number, directOnly: boolean): Promise<number[]> {
    const rows: GroupIdRow[] = await this.em.query(
      directOnly
        ? `SELECT subgroup_id AS id FROM user_group_subgroups WHERE supergroup_id = $1 ORDER BY subgroup_id`
        : `WITH RECURSIVE down(id) AS (
             SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = $1
             UNION
             SELECT s.subgroup_id FROM user_group_subgroups s JOIN down ON s.supergroup_id = down.id
           )
           SELECT id FROM down WHERE id <> $1 ORDER BY id`,
      [groupId],
    );
    return rows.map((r) => r.id);
  }

  async isMember(groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
    const rows: FoundRow[] = await this.em.query(
      directOnly
        ? `SELECT 1 AS found FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
           WHERE m.group_id = $1 AND m.user_id = $2`
        : `WITH RECURSIVE down(id) AS (
             SELECT $1::int
             UNION
             SELECT s.subgroup_id FROM user_group_subgroups s JOIN down ON s.supergroup_id = down.id
           )
           SELECT 1 AS found FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
           WHERE m.group_id IN (SELECT id FROM down) AND m.user_id = $2 LIMIT 1`,
      [groupId, userId],
    );
    return rows.length > 0;
  }

  async usage(realmId: number, groupId: number): Promise<GroupUsage> {
    const supers: SupergroupRow[] = await this.em.query(
      `SELECT g.id, g.name IS NOT NULL AS named, g.deactivated
       FROM user_group_subgroups s JOIN user_groups g ON g.id = s.supergroup_id
       WHERE s.subgroup_id = $1 AND g.realm_id = $2 ORDER BY g.id`,
      [groupId, realmId],
    );
    const settingGroupIds = [groupId, ...supers.filter((g) => !g.named).map((g) => g.id)];
    const rows: SettingHolderRow[] = await this.em.query(
      `SELECT id, ${SETTING_COLUMNS.join(', ')} FROM user_groups
       WHERE realm_id = $1 AND name IS NOT NULL AND NOT deactivated
         AND (${SETTING_COLUMNS.map((c) => `${c} = ANY($2::int[])`).join(' OR ')})
       ORDER BY id`,
      [realmId, settingGroupIds],
    );
    return {
      supergroupIds: supers.filter((g) => g.named && !g.deactivated).map((g) => g.id),
      settingGroupIds,
      groups: rows.map((r) => ({
        groupId: r.id,
        settings: USER_GROUP_SETTING_NAMES.filter((s) => {
          const id = r[settingColumn(s)];
          return id !== null && settingGroupIds.includes(id);
        }),
      })),
    };
  }
}
