import { systemGroups } from '../../support/channels.js';
import { expectAllGot, registerAll } from '../../support/events.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

// user_group events (spec 30 §7.14): to every active user of the organization (Zulip's
// active_user_ids: guests and bots too), nothing to another organization.
let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let bot: Account;
let subOwner: Account;
let system: Record<string, number>;
const NOW = 1_750_000_000;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000 + 600);
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(alice, 'groupie');
  subOwner = await t.createOrganization('sub');
  system = await systemGroups(t);
});
afterAll(() => t.close());


const groupListed = async (id: number) =>
  (await t.get('user_groups')).body.user_groups.find((g: { id: number }) => g.id === id) as Record<string, unknown>;

describe('user_group events', () => {
  it('add: the whole group as GET /user_groups shows it, then add_subgroups for the initial subgroups', async () => {
    const everyone = await registerAll(t, [t.owner, alice, guest, bot]);
    const [sub] = await registerAll(t, [subOwner]);
    const inner = (await t.post('user_groups/create', { as: alice, form: { name: 'inner', description: 'in', members: [bob.id] } })).body.group_id;
    const res = await t.post('user_groups/create', {
      as: alice,
      form: { name: 'outer', description: 'Out', members: [bob.id, alice.id], subgroups: [inner], can_join_group: system['role:members'] },
    });
    expectSuccess(res);
    const outer = res.body.group_id;
    const shown = await groupListed(outer);
    await expectAllGot(everyone, [
      { type: 'user_group', op: 'add', group: { ...(await groupListed(inner)) } },
      { type: 'user_group', op: 'add', group: { ...shown, direct_subgroup_ids: [] } },
      { type: 'user_group', op: 'add_subgroups', group_id: outer, direct_subgroup_ids: [inner] },
    ]);
    expect(shown).toMatchObject({
      name: 'outer',
      description: 'Out',
      members: [alice.id, bob.id].sort((a, b) => a - b),
      direct_subgroup_ids: [inner],
      creator_id: alice.id,
      date_created: NOW,
      is_system_group: false,
      deactivated: false,
      can_join_group: system['role:members'],
      can_manage_group: { direct_members: [alice.id], direct_subgroups: [] },
    });
    expect(await sub.drain()).toEqual([]);
  });

  it('add_members, remove_members, add_subgroups and remove_subgroups, one event each in that order', async () => {
    const g = (await t.post('user_groups/create', { as: alice, form: { name: 'crew', description: '', members: [alice.id] } })).body.group_id;
    const s1 = (await t.post('user_groups/create', { as: alice, form: { name: 's1', description: '', members: [] } })).body.group_id;
    const s2 = (await t.post('user_groups/create', { as: alice, form: { name: 's2', description: '', members: [] } })).body.group_id;
    expectSuccess(await t.post(`user_groups/${g}/members`, { as: alice, form: { add_subgroups: [s2] } }));
    const everyone = await registerAll(t, [t.owner, bob, guest, bot]);
    const [sub] = await registerAll(t, [subOwner]);
    expectSuccess(
      await t.post(`user_groups/${g}/members`, {
        as: alice,
        form: { add: [guest.id, bob.id], delete: [alice.id], add_subgroups: [s1], delete_subgroups: [s2] },
      }),
    );
    await expectAllGot(everyone, [
      { type: 'user_group', op: 'add_members', group_id: g, user_ids: [guest.id, bob.id] },
      { type: 'user_group', op: 'remove_members', group_id: g, user_ids: [alice.id] },
      { type: 'user_group', op: 'add_subgroups', group_id: g, direct_subgroup_ids: [s1] },
      { type: 'user_group', op: 'remove_subgroups', group_id: g, direct_subgroup_ids: [s2] },
    ]);
    expect(await sub.drain()).toEqual([]);

    // A refused change sends nothing (the next event is the only one).
    expect((await t.post(`user_groups/${g}/members`, { as: alice, form: { add: [bob.id] } })).status).toBe(400);
    expectSuccess(await t.post(`user_groups/${g}/members`, { as: t.owner, form: { delete: [bob.id] } }));
    await expectAllGot(everyone.slice(0, 1), [{ type: 'user_group', op: 'remove_members', group_id: g, user_ids: [bob.id] }]);
  });

  it('a group created in another organization reaches only that organization', async () => {
    const [sub] = await registerAll(t, [subOwner]);
    const [own] = await registerAll(t, [t.owner]);
    expectSuccess(await t.post('user_groups/create', { as: subOwner, form: { name: 'sub-group', description: '', members: [] } }));
    expect((await sub.next()).map((e) => e.op)).toEqual(['add']);
    expect(await own.drain()).toEqual([]);
  });
});
