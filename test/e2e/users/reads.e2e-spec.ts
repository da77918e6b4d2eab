import { createChannels, subscription, systemGroups } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// Small read/compat endpoints Zulip clients call: users by email, subscription status, a user's
// channels, group members/subgroups, POST /user_groups/{id}/subgroups and PATCH of one subscription property.
let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let admin: Account;
let otherOwner: Account;
let system: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice', email: 'alice@example.com' });
  bob = await t.createUser({ fullName: 'Bob', email: 'bob@example.com' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  otherOwner = await t.createOrganization('other');
  system = await systemGroups(t);
});
afterAll(() => t.close());

const visibility = async (as: Account, value: number) =>
  expectSuccess(await t.patch('settings', { as, form: { email_address_visibility: value } }));

describe('GET /users/{email}', () => {
  it('finds a user by real address when the caller may see it, case-insensitively', async () => {
    await visibility(alice, 1);
    const res = await t.get('users/ALICE@example.com', { as: bob });
    expectSuccess(res);
    expect(res.body.user).toMatchObject({ user_id: alice.id, full_name: 'Alice', delivery_email: 'alice@example.com' });
    // Same answer as by id.
    const byId = await t.get(`users/${alice.id}`, { as: bob });
    expect(res.body.user).toEqual(byId.body.user);
  });

  it('honours email_address_visibility: hidden addresses are "No such user", the display address works', async () => {
    await visibility(bob, 3); // administrators only
    expectError(await t.get('users/bob@example.com', { as: alice }), 400, 'No such user');
    expectError(await t.get('users/bob@example.com', { as: guest }), 400, 'No such user');
    expectSuccess(await t.get('users/bob@example.com', { as: admin }), { user: expect.objectContaining({ user_id: bob.id }) });
    const display = (await t.get(`users/${bob.id}`, { as: alice })).body.user.email as string;
    expect(display).toMatch(/^user\d+@/);
    expectSuccess(await t.get(`users/${encodeURIComponent(display)}`, { as: alice }), { user: expect.objectContaining({ user_id: bob.id }) });
    await visibility(bob, 1);
  });

  it('rejects unknown addresses and other organizations’ users', async () => {
    expectError(await t.get('users/nobody@example.com', { as: alice }), 400, 'No such user');
    // Without an @ the segment is neither an id nor an email: no route (the seed's wire convention).
    expectError(await t.get('users/not-an-email', { as: alice }), 404, 'Not Found', 'NOT_FOUND');
    // The other organization's owner has the same address as this one's owner: each sees only their own.
    const own = await t.get(`users/${encodeURIComponent('owner@example.com')}`, { as: otherOwner });
    expectSuccess(own, { user: expect.objectContaining({ user_id: otherOwner.id }) });
    expectError(await t.get('users/alice@example.com', { as: otherOwner }), 400, 'No such user');
    // Integer ids keep their own route.
    expectSuccess(await t.get(`users/${alice.id}`, { as: bob }));
    expectError(await t.get('users/999999', { as: bob }), 400, 'No such user');
  });
});

describe('PATCH /users/{email}', () => {
  it('updates like PATCH /users/{id}, with the realm_user event', async () => {
    const c = await EventClient.register(t, alice, { event_types: ['realm_user'] });
    expectSuccess(await t.patch('users/alice@example.com', { form: { full_name: 'Alice Liddell' } }));
    const events = await c.ofType('realm_user');
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: alice.id, full_name: 'Alice Liddell' } }]);
    expect((await t.get(`users/${alice.id}`)).body.user.full_name).toBe('Alice Liddell');
  });

  it('refuses non-administrators, unknown addresses and bad values, writing nothing', async () => {
    expectError(await t.patch('users/bob@example.com', { as: alice, form: { full_name: 'Bobby' } }), 400, 'Insufficient permission');
    expectError(await t.patch('users/ghost@example.com', { form: { full_name: 'Ghost' } }), 400, 'No such user');
    expectError(await t.patch('users/alice@example.com', { as: otherOwner, form: { full_name: 'X' } }), 400, 'No such user');
    expectError(await t.patch('users/bob@example.com', { form: { role: 'admin' } }), 400, 'role is not valid JSON');
    expect((await t.get(`users/${bob.id}`)).body.user).toMatchObject({ full_name: 'Bob', role: 400 });
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id} and GET /users/{user_id}/channels', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    ids = await createChannels(t, ['reads-public'], { as: alice });
    Object.assign(ids, await createChannels(t, ['reads-secret'], { as: alice, form: { invite_only: true } }));
  });

  it('answers is_subscribed', async () => {
    expectSuccess(await t.get(`users/${alice.id}/subscriptions/${ids['reads-public']}`, { as: bob }), { is_subscribed: true });
    expectSuccess(await t.get(`users/${bob.id}/subscriptions/${ids['reads-public']}`, { as: bob }), { is_subscribed: false });
    expectSuccess(await t.get(`users/${bob.id}/subscriptions/${ids['reads-secret']}`, { as: alice }), { is_subscribed: false });
  });

  it('hides private channels the caller cannot see and rejects unknown, foreign and bot users', async () => {
    expectError(await t.get(`users/${alice.id}/subscriptions/${ids['reads-secret']}`, { as: bob }), 400, 'Invalid channel ID');
    expectError(await t.get(`users/${alice.id}/subscriptions/999999`, { as: bob }), 400, 'Invalid channel ID');
    expectError(await t.get(`users/999999/subscriptions/${ids['reads-public']}`, { as: bob }), 400, 'No such user');
    expectError(await t.get(`users/${otherOwner.id}/subscriptions/${ids['reads-public']}`, { as: bob }), 400, 'No such user');
    expectError(await t.get(`users/${alice.id}/subscriptions/${ids['reads-public']}`, { as: otherOwner }), 400, 'No such user');
    const bot = await t.createBot(alice, 'readsbot');
    expectError(await t.get(`users/${bot.id}/subscriptions/${ids['reads-public']}`, { as: bob }), 400, 'No such user');
    expect((await t.get(`users/${alice.id}/subscriptions/abc`, { as: bob })).status).toBe(404);
  });

  it('lists the channels a user is subscribed to that the caller may see', async () => {
    const mine = (await t.get(`users/${alice.id}/channels`, { as: alice })).body.subscribed_channel_ids as number[];
    expect(mine).toEqual(expect.arrayContaining([ids['reads-public'], ids['reads-secret']]));
    const seenByBob = await t.get(`users/${alice.id}/channels`, { as: bob });
    expectSuccess(seenByBob);
    expect(seenByBob.body.subscribed_channel_ids).toContain(ids['reads-public']);
    expect(seenByBob.body.subscribed_channel_ids).not.toContain(ids['reads-secret']);
    expect((await t.get(`users/${alice.id}/channels`, { as: admin })).body.subscribed_channel_ids).toContain(ids['reads-secret']);
    expect([...seenByBob.body.subscribed_channel_ids].sort((a: number, b: number) => a - b)).toEqual(seenByBob.body.subscribed_channel_ids);
    expectError(await t.get('users/999999/channels', { as: bob }), 400, 'No such user');
    expectError(await t.get(`users/${alice.id}/channels`, { as: otherOwner }), 400, 'No such user');
  });
});

describe('PATCH /users/me/subscriptions/{stream_id}', () => {
  it('updates one property (as POST did) with the subscription update event', async () => {
    const { 'reads-patch': id } = await createChannels(t, ['reads-patch'], { as: bob });
    const c = await EventClient.register(t, bob, { event_types: ['subscription'] });
    expectSuccess(await t.patch(`users/me/subscriptions/${id}`, { as: bob, form: { property: 'is_muted', value: 'true' } }));
    const events = await c.ofType('subscription');
    // Zulip sends the legacy in_home_view update before is_muted.
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'subscription', op: 'update', stream_id: id, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: id, property: 'is_muted', value: true },
    ]);
    expect((await subscription(t, bob, id)).is_muted).toBe(true);
    // Query-string parameters, as zulip-js sends PATCH.
    expectSuccess(await t.patch(`users/me/subscriptions/${id}`, { as: bob, query: { property: 'pin_to_top', value: 'true' } }));
    expect((await subscription(t, bob, id)).pin_to_top).toBe(true);
  });

  it('rejects bad values, unknown properties and channels, writing nothing', async () => {
    const { 'reads-patch2': id } = await createChannels(t, ['reads-patch2'], { as: bob });
    expectError(await t.patch(`users/me/subscriptions/${id}`, { as: bob, form: { property: 'color', value: 'red' } }), 400, 'color is not a valid hex color code');
    expectError(await t.patch(`users/me/subscriptions/${id}`, { as: bob, form: { property: 'pin_to_top', value: 'yes' } }), 400, 'pin_to_top is not a boolean');
    expect((await t.patch(`users/me/subscriptions/999999`, { as: bob, form: { property: 'is_muted', value: 'true' } })).body.result).toBe('error');
    expectError(await t.patch(`users/me/subscriptions/${id}`, { as: bob, form: { value: 'true' } }), 400, 'Missing \'property\' argument', 'REQUEST_VARIABLE_MISSING', { var_name: 'property' });
    const sub = await subscription(t, bob, id);
    expect(sub).toMatchObject({ pin_to_top: false, is_muted: false });
  });
});

describe('user group members and subgroups', () => {
  let counter = 0;
  const newGroup = async (form: Record<string, unknown> = {}, as: Account = alice): Promise<number> => {
    counter += 1;
    const res = await t.post('user_groups/create', { as, form: { name: `reads ${counter}`, description: 'd', members: [], ...form } });
    expectSuccess(res);
    return res.body.group_id;
  };

  it('GET members: recursive by default, direct with direct_member_only, without deactivated users', async () => {
    const inner = await newGroup({ members: [bob.id] });
    const outer = await newGroup({ members: [alice.id], subgroups: [inner] });
    expectSuccess(await t.get(`user_groups/${outer}/members`, { as: bob }), { members: [alice.id, bob.id].sort((a, b) => a - b) });
    expectSuccess(await t.get(`user_groups/${outer}/members`, { as: bob, query: { direct_member_only: true } }), { members: [alice.id] });
    const leaver = await t.createUser();
    const g = await newGroup({ members: [leaver.id, bob.id] });
    expectSuccess(await t.delete(`users/${leaver.id}`));
    expectSuccess(await t.get(`user_groups/${g}/members`), { members: [bob.id] });
    expect((await t.get(`user_groups/${system['role:owners']}/members`)).body.members).toEqual([t.owner.id]);
  });

  it('GET subgroups: recursive by default, direct with direct_subgroup_only', async () => {
    const leaf = await newGroup();
    const mid = await newGroup({ subgroups: [leaf] });
    const top = await newGroup({ subgroups: [mid] });
    expectSuccess(await t.get(`user_groups/${top}/subgroups`), { subgroups: [mid, leaf].sort((a, b) => a - b) });
    expectSuccess(await t.get(`user_groups/${top}/subgroups`, { query: { direct_subgroup_only: true } }), { subgroups: [mid] });
    expectSuccess(await t.get(`user_groups/${leaf}/subgroups`), { subgroups: [] });
  });

  it('GET members/subgroups reject unknown and foreign groups, bad types and guests', async () => {
    const g = await newGroup();
    for (const path of ['members', 'subgroups']) {
      expectError(await t.get(`user_groups/999999/${path}`), 400, 'Invalid user group');
      expectError(await t.get(`user_groups/${g}/${path}`, { as: otherOwner }), 400, 'Invalid user group');
      expectError(await t.get(`user_groups/${g}/${path}`, { as: guest }), 400, 'Not allowed for guest users');
    }
    expectError(await t.get(`user_groups/${g}/members`, { query: { direct_member_only: 'yes' } }), 400, 'direct_member_only is not valid JSON');
    expectError(await t.get(`user_groups/${g}/subgroups`, { query: { direct_subgroup_only: 5 } }), 400, 'direct_subgroup_only is not a boolean');
  });

  it('POST subgroups adds and removes, with add_subgroups / remove_subgroups events', async () => {
    const a = await newGroup();
    const b = await newGroup();
    const g = await newGroup();
    const c = await EventClient.register(t, bob, { event_types: ['user_group'] });
    expectSuccess(await t.post(`user_groups/${g}/subgroups`, { as: alice, form: { add: [a, b] } }));
    expectSuccess(await t.post(`user_groups/${g}/subgroups`, { as: alice, form: { delete: [a] } }));
    const events = (await c.ofType('user_group', 2)).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: g, direct_subgroup_ids: [a, b] },
      { type: 'user_group', op: 'remove_subgroups', group_id: g, direct_subgroup_ids: [a] },
    ]);
    expectSuccess(await t.get(`user_groups/${g}/subgroups`, { query: { direct_subgroup_only: true } }), { subgroups: [b] });
    const listed = (await t.get('user_groups', { as: bob })).body.user_groups.find((x: { id: number }) => x.id === g);
    expect(listed.direct_subgroup_ids).toEqual([b]);
  });

  it('POST subgroups refuses nothing-to-do, cycles, duplicates, unknown/foreign ids, bad types and outsiders; nothing written', async () => {
    const child = await newGroup();
    const g = await newGroup({ subgroups: [child] });
    const parent = await newGroup({ subgroups: [g] });
    const post = (form: Record<string, unknown>, as: Account = alice) => t.post(`user_groups/${g}/subgroups`, { as, form });
    expectError(await post({}), 400, 'Nothing to do. Specify at least one of "add" or "delete".');
    expectError(await post({ add: [parent] }), 400, `User group ${g} is already a subgroup of one of the passed subgroups.`);
    expectError(await post({ add: [g] }), 400, `User group ${g} is already a subgroup of one of the passed subgroups.`);
    expectError(await post({ add: [child] }), 400, `User group ${child} is already a subgroup of this group.`);
    expectError(await post({ delete: [parent] }), 400, `User group ${parent} is not a subgroup of this group.`);
    expectError(await post({ add: [999999] }), 400, 'Invalid user group ID: 999999');
    expectError(await post({ add: 'x' }), 400, 'add is not valid JSON');
    expectError(await post({ add: ['x'] }), 400, 'add[0] is not an integer');
    expectError(await t.post(`user_groups/999999/subgroups`, { as: alice, form: { add: [child] } }), 400, 'Invalid user group');
    expectError(await t.post(`user_groups/${g}/subgroups`, { as: otherOwner, form: { add: [child] } }), 400, 'Invalid user group');
    expectError(await post({ delete: [child] }, bob), 400, 'Insufficient permission');
    expectError(await post({ add: [parent] }, guest), 400, 'Not allowed for guest users');
    // A valid addition in the same request as a bad removal is not applied.
    const extra = await newGroup();
    expectError(await post({ add: [extra], delete: [parent] }), 400, `User group ${parent} is not a subgroup of this group.`);
    expectSuccess(await t.get(`user_groups/${g}/subgroups`, { query: { direct_subgroup_only: true } }), { subgroups: [child] });
  });
});
