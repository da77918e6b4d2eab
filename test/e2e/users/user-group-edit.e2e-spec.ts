import { systemGroups } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// PATCH /user_groups/{id} (Zulip's edit_user_group) and POST /user_groups/{id}/deactivate
// (do_deactivate_user_group), their user_group events, register's realm_user_groups and
// GET /user_groups with include_deactivated_groups.
let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let otherOwner: Account;
let system: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  otherOwner = await t.createOrganization('other');
  system = await systemGroups(t);
});
afterAll(() => t.close());

let counter = 0;
/** A group created by alice (so alice manages it through can_manage_group). */
const newGroup = async (form: Record<string, unknown> = {}): Promise<number> => {
  counter += 1;
  const res = await t.post('user_groups/create', { as: alice, form: { name: `team ${counter}`, description: 'd', members: [bob.id], ...form } });
  expectSuccess(res);
  return res.body.group_id;
};
const listed = async (id: number, include = true, as?: Account) =>
  ((await t.get('user_groups', { as, query: { include_deactivated_groups: include } })).body.user_groups as Record<string, unknown>[]).find(
    (g) => g.id === id,
  );
const groupEvents = async (c: EventClient) => (await c.drain()).filter((e) => e.type === 'user_group').map(({ id: _id, ...e }) => e);

describe('PATCH /user_groups/{id}', () => {
  it('renames, describes and changes settings, one update event each, in Zulip’s order', async () => {
    const gid = await newGroup();
    const c = await EventClient.register(t, guest);
    const res = await t.patch(`user_groups/${gid}`, {
      as: alice,
      form: {
        name: 'renamed',
        description: 'new words',
        can_mention_group: { new: system['role:members'] },
        can_join_group: { new: { direct_members: [alice.id], direct_subgroups: [system['role:moderators']] }, old: system['role:nobody'] },
      },
    });
    expectSuccess(res);
    await c.next();
    expect(await groupEventsAfter(c)).toEqual([
      { type: 'user_group', op: 'update', group_id: gid, data: { name: 'renamed' } },
      { type: 'user_group', op: 'update', group_id: gid, data: { description: 'new words' } },
      { type: 'user_group', op: 'update', group_id: gid, data: { can_join_group: { direct_members: [alice.id], direct_subgroups: [system['role:moderators']] } } },
      { type: 'user_group', op: 'update', group_id: gid, data: { can_mention_group: system['role:members'] } },
    ]);
    expect(await listed(gid)).toMatchObject({
      name: 'renamed',
      description: 'new words',
      can_mention_group: system['role:members'],
      can_join_group: { direct_members: [alice.id], direct_subgroups: [system['role:moderators']] },
    });
    const state = (await t.post('register', { as: bob, form: { fetch_event_types: ['realm_user_groups'] } })).body;
    expect(state.realm_user_groups.find((g: { id: number }) => g.id === gid)).toEqual(await listed(gid));
  });

  it('sends nothing for values that do not change', async () => {
    const gid = await newGroup();
    const before = await listed(gid);
    const c = await EventClient.register(t, bob);
    expectSuccess(await t.patch(`user_groups/${gid}`, { as: alice, form: { name: before!.name, description: 'd', can_mention_group: { new: system['role:everyone'] } } }));
    expect(await groupEvents(c)).toEqual([]);
    expect(await listed(gid)).toEqual(before);
  });

  it('refuses bad input with Zulip’s errors and writes nothing', async () => {
    const gid = await newGroup();
    const taken = await newGroup();
    const before = await listed(gid);
    const c = await EventClient.register(t, bob);
    const patch = (form: Record<string, unknown>, as: Account = alice, id = gid) => t.patch(`user_groups/${id}`, { as, form });
    expectError(await patch({}), 400, 'No new data supplied');
    expectError(await patch({ name: 'x' }, alice, 999_999), 400, 'Invalid user group');
    // An id beyond the integers ids can be is no route here (the server's convention for path ids).
    expectError(await patch({ name: 'x' }, alice, 2 ** 40), 404, 'Not Found', 'NOT_FOUND');
    const foreign = (await t.post('user_groups/create', { as: otherOwner, form: { name: 'theirs', description: '', members: [] } })).body.group_id;
    expectError(await patch({ name: 'x' }, alice, foreign), 400, 'Invalid user group');
    expectError(await patch({ name: 'x' }, t.owner, system['role:members']), 400, 'Insufficient permission');
    expectError(await patch({ name: 'x' }, bob), 400, 'Insufficient permission');
    expectError(await patch({ name: 'x' }, guest), 400, 'Not allowed for guest users');
    expectError(await patch({ name: `team ${counter}` }), 400, `User group 'team ${counter}' already exists.`);
    expectError(await patch({ name: '' }), 400, "User group name can't be empty!");
    expectError(await patch({ name: 'x'.repeat(101) }), 400, 'User group name cannot exceed 100 characters.');
    expectError(await patch({ name: 'role:x' }), 400, "User group name cannot start with 'role:'.");
    expectError(await patch({ deactivated: 'yes' }), 400, 'deactivated is not valid JSON');
    // A later setting's error undoes the earlier changes of the same request.
    expectError(await patch({ description: 'changed', can_mention_group: { new: 999_999 } }), 400, 'Invalid user group');
    expectError(await patch({ name: 'fine', can_mention_group: { new: system['role:members'], old: system['role:nobody'] } }), 400, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH', { field_name: 'old' });
    expectError(await patch({ can_manage_group: { new: system['role:internet'] } }), 400, "'can_manage_group' setting cannot be set to 'role:internet' group.");
    expectError(await patch({ can_mention_group: { new: foreign } }), 400, 'Invalid user group');
    expectError(await patch({ can_mention_group: system['role:members'] }), 400, 'can_mention_group is not a dict');
    expect(await listed(gid)).toEqual(before);
    expect(await groupEvents(c)).toEqual([]);
    void taken;
  });

  it('lets can_manage_all_groups holders (the owner here) and can_manage_group holders edit', async () => {
    const gid = await newGroup();
    expectSuccess(await t.patch(`user_groups/${gid}`, { form: { description: 'by the owner' } }));
    expectError(await t.patch(`user_groups/${gid}`, { as: bob, form: { description: 'by bob' } }), 400, 'Insufficient permission');
    expectSuccess(await t.patch(`user_groups/${gid}`, { as: alice, form: { can_manage_group: { new: { direct_members: [alice.id, bob.id], direct_subgroups: [] } } } }));
    expectSuccess(await t.patch(`user_groups/${gid}`, { as: bob, form: { description: 'by bob' } }));
    expect(await listed(gid)).toMatchObject({ description: 'by bob' });
  });
});

/** The user_group events after the first batch already read by `next()`. */
async function groupEventsAfter(c: EventClient): Promise<Record<string, unknown>[]> {
  // next() consumed the first batch; read it again from the start of the queue.
  const res = await t.get('events', { as: c.as, query: { queue_id: c.queueId, last_event_id: -1, dont_block: true } });
  return (res.body.events as Record<string, unknown>[]).filter((e) => e.type === 'user_group').map(({ id: _id, ...e }) => e);
}

describe('POST /user_groups/{id}/deactivate', () => {
  it('deactivates: update for clients that list deactivated groups, remove for the others; lists and register agree', async () => {
    const gid = await newGroup();
    const modern = await EventClient.register(t, bob, { client_capabilities: { notification_settings_null: false, include_deactivated_groups: true } });
    const legacy = await EventClient.register(t, guest);
    const other = await EventClient.register(t, otherOwner);
    expectSuccess(await t.post(`user_groups/${gid}/deactivate`, { as: alice }));
    await modern.next();
    await legacy.next();
    expect(await groupEventsAfter(modern)).toEqual([{ type: 'user_group', op: 'update', group_id: gid, data: { deactivated: true } }]);
    expect(await groupEventsAfter(legacy)).toEqual([{ type: 'user_group', op: 'remove', group_id: gid }]);
    expect(await groupEvents(other)).toEqual([]);
    expect(await listed(gid, false)).toBeUndefined();
    expect(await listed(gid, true)).toMatchObject({ deactivated: true });
    const withCap = (await t.post('register', { as: bob, form: { fetch_event_types: ['realm_user_groups'], client_capabilities: { notification_settings_null: false, include_deactivated_groups: true } } })).body;
    expect(withCap.realm_user_groups.find((g: { id: number }) => g.id === gid)).toMatchObject({ deactivated: true });
    const without = (await t.post('register', { as: bob, form: { fetch_event_types: ['realm_user_groups'] } })).body;
    expect(without.realm_user_groups.find((g: { id: number }) => g.id === gid)).toBeUndefined();
    expectError(await t.post(`user_groups/${gid}/deactivate`, { as: alice }), 400, 'User group is deactivated.');
  });

  it('a deactivated group can be renamed (only listing clients hear it) and reactivated with deactivated=false', async () => {
    const gid = await newGroup();
    expectSuccess(await t.post(`user_groups/${gid}/deactivate`, { as: alice }));
    const modern = await EventClient.register(t, bob, { client_capabilities: { notification_settings_null: false, include_deactivated_groups: true } });
    const legacy = await EventClient.register(t, guest);
    expectSuccess(await t.patch(`user_groups/${gid}`, { as: alice, form: { name: `revived ${gid}` } }));
    await modern.next();
    expect(await groupEventsAfter(modern)).toEqual([{ type: 'user_group', op: 'update', group_id: gid, data: { name: `revived ${gid}` } }]);
    expect(await groupEvents(legacy)).toEqual([]);
    const m2 = await EventClient.register(t, bob, { client_capabilities: { notification_settings_null: false, include_deactivated_groups: true } });
    const l2 = await EventClient.register(t, guest);
    expectSuccess(await t.patch(`user_groups/${gid}`, { as: alice, form: { deactivated: false } }));
    await m2.next();
    await l2.next();
    expect(await groupEventsAfter(m2)).toEqual([{ type: 'user_group', op: 'update', group_id: gid, data: { deactivated: false } }]);
    expect(await groupEventsAfter(l2)).toEqual([{ type: 'user_group', op: 'add', group: await listed(gid, false) }]);
    expect(await listed(gid, false)).toMatchObject({ deactivated: false, name: `revived ${gid}`, members: [bob.id] });
  });

  it('refuses a group in use, listing the objections as Zulip does, and writes nothing', async () => {
    const used = await newGroup();
    const parent = await newGroup({ subgroups: [used] });
    const user = await newGroup();
    expectSuccess(await t.patch(`user_groups/${user}`, { as: alice, form: { can_mention_group: { new: { direct_members: [bob.id], direct_subgroups: [used] } } } }));
    const channel = (await t.post('channels/create', { form: { name: 'uses', subscribers: [t.owner.id], can_send_message_group: used } })).body.id as number;
    expectSuccess(await t.patch('realm', { form: { can_create_groups: { new: { direct_members: [], direct_subgroups: [used, system['role:members']] } } } }));
    const res = await t.post(`user_groups/${used}/deactivate`, { as: alice });
    expectError(res, 400, 'Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE', {
      objections: [
        { type: 'subgroup', supergroup_ids: [parent] },
        { type: 'channel', channel_id: channel, settings: ['can_send_message_group'] },
        { type: 'user_group', group_id: user, settings: ['can_mention_group'] },
        { type: 'realm', settings: ['can_create_groups'] },
      ],
    });
    expect(await listed(used)).toMatchObject({ deactivated: false });
    // Once nothing active uses it, it can go.
    expectSuccess(await t.post(`user_groups/${parent}/deactivate`, { as: alice }));
    expectSuccess(await t.delete(`streams/${channel}`));
    expectSuccess(await t.post(`user_groups/${user}/deactivate`, { as: alice }));
    expectSuccess(await t.patch('realm', { form: { can_create_groups: { new: system['role:members'] } } }));
    expectSuccess(await t.post(`user_groups/${used}/deactivate`, { as: alice }));
  });

  it('refuses unknown, foreign, system groups and callers without permission', async () => {
    const gid = await newGroup();
    const foreign = (await t.post('user_groups/create', { as: otherOwner, form: { name: 'theirs too', description: '', members: [] } })).body.group_id;
    expectError(await t.post('user_groups/999999/deactivate', { as: alice }), 400, 'Invalid user group');
    expectError(await t.post(`user_groups/${foreign}/deactivate`, { as: alice }), 400, 'Invalid user group');
    expectError(await t.post(`user_groups/${system['role:members']}/deactivate`), 400, 'Insufficient permission');
    expectError(await t.post(`user_groups/${gid}/deactivate`, { as: bob }), 400, 'Insufficient permission');
    expectError(await t.post(`user_groups/${gid}/deactivate`, { as: guest }), 400, 'Insufficient permission');
    expect(await listed(gid)).toMatchObject({ deactivated: false });
    // The owner holds can_manage_all_groups.
    expectSuccess(await t.post(`user_groups/${gid}/deactivate`));
  });
});
