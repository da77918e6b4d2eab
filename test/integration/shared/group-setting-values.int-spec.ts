import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import {
  anonymousGroupsColumn,
  type GroupRowWithMembers,
  GROUPS_WITH_MEMBERS_SQL,
  groupIdsOfUser,
  groupSettingValues,
  settingValueFrom,
  settingValueOf,
} from '../../../src/shared/persistence/group-setting-values.js';
import { type Account, TestApp } from '../../support/test-app.js';

/** The kernel's group-setting reads (group-setting-values.ts): the SQL fragments and helpers every context's adapters share. */
let t: TestApp;
let ds: DataSource;
let realmId: number;
let everyone: number;
let u: Account;
let gone: Account;
let anonymous: number;
let nested: number;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  [{ id: everyone }] = await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1 AND name = 'role:everyone'`, [realmId]);
  u = await t.createUser();
  gone = await t.createUser();
  await t.createOrganization('other');
  [anonymous, nested] = await t.app.get(UnitOfWork).run(async (tx) => {
    const a = await tx.groupSettings.store(realmId, { directMembers: [u.id, gone.id], directSubgroups: [everyone] });
    const b = await tx.groupSettings.store(realmId, { directMembers: [], directSubgroups: [a] });
    return [a, b];
  });
  await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
});
afterAll(() => t.close());

describe('group-setting values', () => {
  it('GROUPS_WITH_MEMBERS_SQL: every group of the organization with its active direct members and subgroups', async () => {
    const rows: GroupRowWithMembers[] = await ds.query(GROUPS_WITH_MEMBERS_SQL, [realmId]);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
    expect(rows.find((r) => r.id === anonymous)).toMatchObject({
      id: anonymous,
      name: null,
      description: '',
      creator_id: null,
      is_system_group: false,
      deactivated: false,
      members: [u.id],
      subgroups: [everyone],
    });
    expect(rows.find((r) => r.id === everyone)).toMatchObject({ name: 'role:everyone', is_system_group: true, date_created: null });
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM user_groups WHERE realm_id = $1`, [realmId]);
    expect(rows).toHaveLength(n);
  });

  it('groupSettingValues: a named group by its id, an anonymous one by its contents; unknown ids as themselves', async () => {
    const values = await groupSettingValues(ds.manager, [everyone, anonymous, nested, anonymous, 999_999]);
    expect(values).toEqual(
      new Map<number, unknown>([
        [everyone, everyone],
        [anonymous, { directMembers: [u.id], directSubgroups: [everyone] }],
        [nested, { directMembers: [], directSubgroups: [anonymous] }],
        [999_999, 999_999],
      ]),
    );
    expect(await groupSettingValues(ds.manager, [])).toEqual(new Map());
  });

  it('settingValueFrom: the same answer from rows already read', async () => {
    const rows: GroupRowWithMembers[] = await ds.query(GROUPS_WITH_MEMBERS_SQL, [realmId]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(settingValueFrom(byId, anonymous)).toEqual({ directMembers: [u.id], directSubgroups: [everyone] });
    expect(settingValueFrom(byId, everyone)).toBe(everyone);
    expect(settingValueFrom(byId, 999_999)).toBe(999_999);
  });

  it('anonymousGroupsColumn / settingValueOf: a row and its anonymous setting groups in one statement', async () => {
    const [row]: { anon: Record<string, { members: number[]; subgroups: number[] }> }[] = await ds.query(
      `SELECT ${anonymousGroupsColumn('x', ['a', 'b', 'c'])} AS anon FROM (SELECT $1::int AS a, $2::int AS b, $3::int AS c) x`,
      [everyone, anonymous, nested],
    );
    expect(row.anon).toEqual({ [anonymous]: { members: [u.id], subgroups: [everyone] }, [nested]: { members: [], subgroups: [anonymous] } });
    expect(settingValueOf(row.anon, anonymous)).toEqual({ directMembers: [u.id], directSubgroups: [everyone] });
    expect(settingValueOf(row.anon, everyone)).toBe(everyone);
  });

  it("groupIdsOfUser: the user's groups, directly or through subgroups; none for an inactive user", async () => {
    const mine = await groupIdsOfUser(ds.manager, u.id);
    expect(mine.has(anonymous) && mine.has(nested)).toBe(true);
    expect(mine.has(everyone)).toBe(true);
    const [{ ids }] = await ds.query(`SELECT array_agg(group_id ORDER BY group_id) AS ids FROM user_group_members WHERE user_id = $1`, [u.id]);
    for (const id of ids as number[]) expect(mine.has(id)).toBe(true);
    expect(await groupIdsOfUser(ds.manager, gone.id)).toEqual(new Set());
  });
});
