import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let system: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  const groups = (await t.get('user_groups')).body.user_groups;
  system = Object.fromEntries(groups.map((g: { name: string; id: number }) => [g.name, g.id]));
});
afterAll(() => t.close());

const create = (form: Record<string, unknown>, as?: Account) =>
  t.post('user_groups/create', { as, form: { description: '', members: [], ...form } });
const isMember = (gid: number, uid: number, direct?: boolean) =>
  t.get(`user_groups/${gid}/members/${uid}`, { query: direct === undefined ? {} : { direct_member_only: direct } });

describe('system groups', () => {
  it('exist with their nesting', async () => {
    const groups = (await t.get('user_groups')).body.user_groups;
    const byName = Object.fromEntries(groups.map((g: { name: string }) => [g.name, g]));
    expect(Object.keys(byName).filter((n) => n.startsWith('role:')).sort()).toEqual(
      ['role:administrators', 'role:everyone', 'role:fullmembers', 'role:internet', 'role:members', 'role:moderators', 'role:nobody', 'role:owners'],
    );
    expect(byName['role:administrators'].direct_subgroup_ids).toEqual([system['role:owners']]);
    expect(byName['role:internet'].direct_subgroup_ids).toEqual([system['role:everyone']]);
    expect(byName['role:owners']).toMatchObject({
      is_system_group: true,
      members: [t.owner.id],
      description: 'Owners of this organization',
      can_manage_group: system['role:nobody'],
      deactivated: false,
    });
    expect(byName['role:nobody'].direct_subgroup_ids).toEqual([]);
  });

  it('answer membership recursively, and directly with direct_member_only', async () => {
    expect((await isMember(system['role:everyone'], t.owner.id)).body.is_user_group_member).toBe(true);
    expect((await isMember(system['role:everyone'], t.owner.id, true)).body.is_user_group_member).toBe(false);
    expect((await isMember(system['role:owners'], alice.id)).body.is_user_group_member).toBe(false);
    expect((await isMember(system['role:fullmembers'], alice.id, true)).body.is_user_group_member).toBe(true);
    expect((await isMember(system['role:nobody'], alice.id)).body.is_user_group_member).toBe(false);
  });

  it('count guests only in role:everyone and up', async () => {
    const guest = await t.createUser({ role: 600 });
    expect((await isMember(system['role:members'], guest.id)).body.is_user_group_member).toBe(false);
    expect((await isMember(system['role:everyone'], guest.id, true)).body.is_user_group_member).toBe(true);
    expect((await isMember(system['role:internet'], guest.id)).body.is_user_group_member).toBe(true);
  });

  it('cannot be edited directly', async () => {
    expectError(await t.post(`user_groups/${system['role:members']}/members`, { form: { add: [alice.id] } }), 400, 'Insufficient permission');
  });
});

describe('membership query', () => {
  it('does not count deactivated users, and rejects bad ids', async () => {
    const leaver = await t.createUser();
    expectSuccess(await t.delete(`users/${leaver.id}`));
    expectSuccess(await isMember(system['role:members'], leaver.id), { is_user_group_member: false });
    expectError(await isMember(999999, alice.id), 400, 'Invalid user group');
    expectError(await isMember(system['role:members'], 999999), 400, 'No such user');
    const bot = await t.createBot(alice, 'memberbot');
    expectError(await isMember(system['role:members'], bot.id), 400, 'No such user');
    expectError(await t.get(`user_groups/${system['role:members']}/members/${alice.id}`, { query: { direct_member_only: 'yes' } }), 400, 'direct_member_only is not valid JSON');
  });
});

describe('POST /user_groups/create', () => {
  it('creates a group with members, subgroups and Zulip’s default settings', async () => {
    const inner = await create({ name: 'inner', members: [bob.id] }, alice);
    expectSuccess(inner, { group_id: expect.any(Number) });
    const res = await create({ name: 'outer', description: 'The outer group', members: [alice.id], subgroups: [inner.body.group_id] }, alice);
    expectSuccess(res);
    const group = (await t.get('user_groups')).body.user_groups.find((g: { id: number }) => g.id === res.body.group_id);
    expect(group).toEqual({
      id: res.body.group_id,
      name: 'outer',
      description: 'The outer group',
      members: [alice.id],
      direct_subgroup_ids: [inner.body.group_id],
      creator_id: alice.id,
      date_created: expect.any(Number),
      is_system_group: false,
      deactivated: false,
      can_add_members_group: { direct_members: [alice.id], direct_subgroups: [] },
      can_join_group: system['role:nobody'],
      can_leave_group: system['role:everyone'],
      can_manage_group: { direct_members: [alice.id], direct_subgroups: [] },
      can_mention_group: system['role:everyone'],
      can_remove_members_group: system['role:nobody'],
    });
    expect((await isMember(res.body.group_id, bob.id)).body.is_user_group_member).toBe(true);
    expect((await isMember(res.body.group_id, bob.id, true)).body.is_user_group_member).toBe(false);
  });

  it('normalises setting values', async () => {
    const res = await create({
      name: 'normalised',
      can_mention_group: { direct_members: [], direct_subgroups: [system['role:members']] },
      can_join_group: { direct_members: [], direct_subgroups: [] },
    });
    const group = (await t.get('user_groups')).body.user_groups.find((g: { id: number }) => g.id === res.body.group_id);
    expect(group.can_mention_group).toBe(system['role:members']);
    expect(group.can_join_group).toBe(system['role:nobody']);
  });

  it.each([
    [{ name: '' }, "User group name can't be empty!"],
    [{ name: 'role:x' }, "User group name cannot start with 'role:'."],
    [{ name: 'x'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
    [{ name: 'ok', members: [424242] }, 'Invalid user ID: 424242'],
    [{ name: 'ok', subgroups: [424242] }, 'Invalid user group ID: 424242'],
    [{ name: 'ok', can_manage_group: 424242 }, 'Invalid user group'],
    [{ name: 'ok', can_join_group: 'x' }, 'can_join_group is not valid JSON'],
  ])('rejects %j: %s', async (form, msg) => {
    expectError(await create(form), 400, msg);
  });

  it('refuses role:internet and role:everyone where Zulip does', async () => {
    expectError(
      await create({ name: 'ok', can_manage_group: system['role:internet'] }),
      400,
      "'can_manage_group' setting cannot be set to 'role:internet' group.",
    );
    expectError(
      await create({ name: 'ok', can_add_members_group: system['role:everyone'] }),
      400,
      "'can_add_members_group' setting cannot be set to 'role:everyone' group.",
    );
  });

  it('refuses a duplicate name', async () => {
    expectSuccess(await create({ name: 'twice' }));
    expectError(await create({ name: 'twice' }), 400, "User group 'twice' already exists.");
  });

  it('requires description and members, after the permission checks', async () => {
    expectError(await t.post('user_groups/create', { form: { name: 'x' } }), 400, "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'description',
    });
    const guest = await t.createUser({ role: 600 });
    expectError(await t.post('user_groups/create', { as: guest }), 400, 'Not allowed for guest users');
  });
});

describe('POST /user_groups/{id}/members', () => {
  it('adds and removes members and subgroups for the group’s managers', async () => {
    const g = (await create({ name: 'managed', members: [alice.id] }, alice)).body.group_id;
    const sub = (await create({ name: 'managed-sub' }, alice)).body.group_id;
    expectSuccess(await t.post(`user_groups/${g}/members`, { as: alice, form: { add: [bob.id], add_subgroups: [sub] } }));
    expect((await isMember(g, bob.id, true)).body.is_user_group_member).toBe(true);
    expectError(await t.post(`user_groups/${g}/members`, { as: alice, form: { add: [bob.id] } }), 400, `User ${bob.id} is already a member of this group`);
    expectError(await t.post(`user_groups/${g}/members`, { as: alice, form: { delete: [t.owner.id] } }), 400, `There is no member '${t.owner.id}' in this user group`);
    expectError(await t.post(`user_groups/${g}/members`, { as: alice, form: { add_subgroups: [sub] } }), 400, `User group ${sub} is already a subgroup of this group.`);
    expectError(await t.post(`user_groups/${sub}/members`, { as: alice, form: { add_subgroups: [g] } }), 400, `User group ${sub} is already a subgroup of one of the passed subgroups.`);
    expectSuccess(await t.post(`user_groups/${g}/members`, { as: alice, form: { delete: [bob.id], delete_subgroups: [sub] } }));
    expect((await isMember(g, bob.id)).body.is_user_group_member).toBe(false);
  });

  it('refuses people who do not manage the group; the owner manages all groups', async () => {
    const g = (await create({ name: 'alices' }, alice)).body.group_id;
    expectError(await t.post(`user_groups/${g}/members`, { as: bob, form: { add: [bob.id] } }), 400, 'Insufficient permission');
    expectSuccess(await t.post(`user_groups/${g}/members`, { form: { add: [bob.id] } }));
    // can_leave_group defaults to everyone: Bob may leave by himself.
    expectSuccess(await t.post(`user_groups/${g}/members`, { as: bob, form: { delete: [bob.id] } }));
  });

  it('validates the request', async () => {
    const g = (await create({ name: 'validated' })).body.group_id;
    expectError(
      await t.post(`user_groups/${g}/members`, { form: {} }),
      400,
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    expectError(await t.post(`user_groups/${g}/members`, { form: { add: [424242] } }), 400, 'Invalid user ID: 424242');
    expectError(await t.post('user_groups/424242/members', { form: { add: [alice.id] } }), 400, 'Invalid user group');
    expectError(await t.post(`user_groups/${g}/members`, { form: { add_subgroups: [424242] } }), 400, 'Invalid user group ID: 424242');
  });
});
