import type { GroupSettingValue } from '@app/domain/users';

/*
 * Group-setting values are the kernel's: the organization, its channels and its user groups
 * all keep permission settings as a user group (named, or anonymous with direct members and
 * subgroups). These read them back in the shape the rules use.
 */

/** A group's name (null: anonymous) with its active direct members and direct subgroups, ascending. */
export interface GroupValueRow {
  id: number;
  name: string | null;
  members: number[];
  subgroups: number[];
}

/**
 * A row of GROUPS_WITH_MEMBERS_SQL (`g.*` with members and subgroups). Its permission-setting
 * columns (`<setting>_id`) are typed by the reader, which knows which group it reads.
 */
export interface GroupRowWithMembers extends GroupValueRow {
  description: string;
  creator_id: number | null;
  date_created: Date | null;
  is_system_group: boolean;
  deactivated: boolean;
}

/** A group the user belongs to. */
interface GroupIdRow {
  id: number;
}

/**
 * The active direct members of the group aliased `g`, ascending. Each member is probed by the
 * users' primary key (a join let the planner hash the whole users table).
 */
export const GROUP_MEMBERS_SQL = `ARRAY(SELECT m.user_id FROM user_group_members m
  WHERE m.group_id = g.id AND EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id AND u.is_active) ORDER BY 1)`;

/** The direct subgroups of the group aliased `g`, ascending. */
export const GROUP_SUBGROUPS_SQL = `ARRAY(SELECT sg.subgroup_id FROM user_group_subgroups sg WHERE sg.supergroup_id = g.id ORDER BY 1)`;

/** Every group of the organization (named and anonymous) with active direct members and subgroups. */
export const GROUPS_WITH_MEMBERS_SQL = `
  SELECT g.*, ${GROUP_MEMBERS_SQL} AS members, ${GROUP_SUBGROUPS_SQL} AS subgroups
  FROM user_groups g WHERE g.realm_id = $1 ORDER BY g.id`;

/** A setting pointing at `id` reports the id of a named group, or an anonymous group's contents. */
export function settingValueFrom(byId: ReadonlyMap<number, GroupValueRow>, id: number): GroupSettingValue {
  const g = byId.get(id);
  if (!g || g.name !== null) return id;
  return { directMembers: g.members, directSubgroups: g.subgroups };
}

/**
 * A column expression: the anonymous groups among `columns` of the row aliased `alias`, as JSON
 * `{ "<id>": { "members": [...], "subgroups": [...] } }` (named groups need only their id), so a
 * row and its group-setting values load in one statement. Read back with `settingValueOf`.
 */
export function anonymousGroupsColumn(alias: string, columns: readonly string[]): string {
  return `(SELECT coalesce(json_object_agg(g.id, json_build_object('members', ${GROUP_MEMBERS_SQL}, 'subgroups', ${GROUP_SUBGROUPS_SQL})), '{}')
    FROM user_groups g WHERE g.name IS NULL AND g.id IN (${columns.map((c) => `${alias}.${c}`).join(', ')}))`;
}

/** The value of a setting pointing at `id`, given the row's anonymous groups (`anonymousGroupsColumn`). */
export function settingValueOf(anonymous: Record<string, { members: number[]; subgroups: number[] }>, id: number): GroupSettingValue {
  const g = anonymous[String(id)];
  return g === undefined ? id : { directMembers: g.members, directSubgroups: g.subgroups };
}

/** The setting values of these groups (ids of named groups, contents of anonymous ones), in one query. */
export async function groupSettingValues(
  em: { query: (sql: string, params?: unknown[]) => Promise<GroupValueRow[]> },
  groupIds: readonly number[],
): Promise<Map<number, GroupSettingValue>> {
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return new Map();
  const rows = await em.query(
    `SELECT g.id, g.name, ${GROUP_MEMBERS_SQL} AS members, ${GROUP_SUBGROUPS_SQL} AS subgroups
     FROM user_groups g WHERE g.id = ANY($1::int[])`,
    [unique],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return new Map(unique.map((id) => [id, settingValueFrom(byId, id)]));
}

/** Every group the user belongs to, directly or through subgroups (active users only). */
export async function groupIdsOfUser(em: { query: (sql: string, params?: unknown[]) => Promise<GroupIdRow[]> }, userId: number): Promise<Set<number>> {
  const rows = await em.query(
    `WITH RECURSIVE up(id) AS (
       SELECT m.group_id FROM user_group_members m JOIN users u ON u.id = m.user_id AND u.is_active
       WHERE m.user_id = $1
       UNION
       SELECT s.supergroup_id FROM user_group_subgroups s JOIN up ON s.subgroup_id = up.id
     )
     SELECT id FROM up`,
    [userId],
  );
  return new Set(rows.map((r) => r.id));
}
