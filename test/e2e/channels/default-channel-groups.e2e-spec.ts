import { createChannels } from '../../support/channels.js';
import { EventClient, registerAll } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Default channel groups: POST /default_stream_groups/create, PATCH and DELETE
 * /default_stream_groups/{id}, PATCH /default_stream_groups/{id}/streams (Zulip's
 * zerver/views/streams.py, zerver/actions/default_streams.py, zerver/tests/test_default_channels.py),
 * register's realm_default_stream_groups and the `default_stream_groups` event (every group,
 * by name, its channels' ids by channel name) to the organization's non-guests.
 */
let t: TestApp;
let admin: Account;
let member: Account;
let moderator: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let ch: Record<string, number>;
let otherChannel: number;

beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, moderator, guest, bot, otherOwner } = await t.createRoleAccounts());
  ch = await createChannels(t, ['stream1', 'stream2', 'stream3', 'stream4', 'Zebra', 'apple'], { as: admin });
  Object.assign(ch, await createChannels(t, ['secret'], { form: { invite_only: true } }));
  Object.assign(ch, await createChannels(t, ['gone'], { as: admin }));
  expectSuccess(await t.delete(`streams/${ch.gone}`));
  expectSuccess(await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  otherChannel = (await t.sql(`SELECT id FROM channels WHERE name = 'elsewhere'`))[0].id;
});
afterAll(() => t.close());

type Group = { id: number; name: string; description: string; streams: number[] };
const groups = async (as: Account = t.owner): Promise<Group[]> =>
  (await t.post('register', { as, form: { fetch_event_types: ['default_stream_groups'] } })).body.realm_default_stream_groups;
const groupId = async (name: string) => (await groups()).find((g) => g.name === name)!.id;
const create = (form: Record<string, unknown>, as: Account = admin) => t.post('default_stream_groups/create', { as, form });
const rowCounts = async () =>
  (await t.sql(`SELECT (SELECT count(*)::int FROM default_channel_groups) AS g, (SELECT count(*)::int FROM default_channel_group_channels) AS c`))[0];
const noId = ({ id: _, ...e }: Record<string, unknown>) => e;

describe('POST /default_stream_groups/create', () => {
  it('creates a group; every non-guest hears all groups; register agrees, guests see none', async () => {
    expect(await groups()).toEqual([]);
    const listeners = await registerAll(t, [t.owner, member, moderator, bot]);
    const guestQueue = await EventClient.register(t, guest);
    const otherQueue = await EventClient.register(t, otherOwner);
    expectSuccess(await create({ group_name: 'group1', description: 'This is group1', stream_names: ['stream2', 'Stream1', ' stream3 '] }));
    const expected = [{ name: 'group1', id: expect.any(Number), description: 'This is group1', streams: [ch.stream1, ch.stream2, ch.stream3] }];
    for (const c of listeners) {
      expect((await c.ofType('default_stream_groups')).map(noId)).toEqual([{ type: 'default_stream_groups', default_stream_groups: expected }]);
    }
    expect(await groups()).toEqual(expected);
    expect(await groups(member)).toEqual(expected);
    expect(await groups(guest)).toEqual([]);
    expect((await guestQueue.drain()).filter((e) => e.type === 'default_stream_groups')).toEqual([]);
    expect((await otherQueue.drain()).filter((e) => e.type === 'default_stream_groups')).toEqual([]);
    expect(await groups(otherOwner)).toEqual([]);
  });

  it('lists groups by name and each group’s channels by channel name; a group may be empty', async () => {
    expectSuccess(await create({ group_name: 'another', description: '', stream_names: ['Zebra', 'apple'] }));
    expectSuccess(await create({ group_name: 'empty', description: 'nothing yet', stream_names: [] }));
    const all = await groups();
    expect(all.map((g) => g.name)).toEqual(['another', 'empty', 'group1']);
    expect(all[0].streams).toEqual([ch.Zebra, ch.apple]);
    expect(all[1].streams).toEqual([]);
  });

  it('refuses bad input with Zulip’s words and writes nothing', async () => {
    const before = await rowCounts();
    const [c] = await registerAll(t, [member]);
    const form = (o: Record<string, unknown>) => ({ group_name: 'new group', description: 'd', stream_names: ['stream4'], ...o });
    expectError(await create(form({ group_name: 'group1' })), 400, "Default channel group 'group1' already exists");
    expectError(await create(form({ group_name: '' })), 400, "Invalid default channel group name ''");
    expectError(await create(form({ group_name: '   ' })), 400, "Invalid default channel group name '   '");
    expectError(await create(form({ group_name: 'x'.repeat(61) })), 400, 'Default channel group name too long (limit: 60 characters)');
    expectSuccess(await create(form({ group_name: 'x'.repeat(60) })));
    expectError(await create(form({ group_name: 'abc\u0000' })), 400, "Default channel group name 'abc\u0000' contains NULL (0x00) characters.");
    expectError(await create(form({ description: 'd'.repeat(1025) })), 400, 'description is too long (limit: 1024 characters)');
    expectError(await create(form({ stream_names: ['stream4', 'random stream name'] })), 400, "Invalid channel name 'random stream name'");
    expectError(await create(form({ stream_names: ['gone'] })), 400, "Invalid channel name 'gone'");
    // A private channel the administrator is not in looks unknown; another organization's too.
    expectError(await create(form({ stream_names: ['secret'] })), 400, "Invalid channel name 'secret'");
    expectError(await create(form({ stream_names: ['elsewhere'] })), 400, "Invalid channel name 'elsewhere'");
    expectError(await create(form({ stream_names: 'stream4' })), 400, 'stream_names is not valid JSON');
    expectError(await create(form({ stream_names: [4] })), 400, 'stream_names[0] is not a string');
    expectError(await create({ group_name: 'g', stream_names: [] }), 400, "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'description',
    });
    for (const as of [moderator, member, guest, bot]) {
      expectError(await create(form({}), as), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    const after = await rowCounts();
    expect(after).toEqual({ g: before.g + 1, c: before.c + 1 });
    const events = (await c.drain()).filter((e) => e.type === 'default_stream_groups');
    expect(events).toHaveLength(1);
    expectSuccess(await t.delete(`default_stream_groups/${await groupId('x'.repeat(60))}`, { as: admin }));
  });

  it('refuses a default channel, first checking the channels, then the name', async () => {
    expectSuccess(await t.post('default_streams', { form: { stream_id: ch.stream4 } }));
    expectError(
      await create({ group_name: 'x'.repeat(99), description: '', stream_names: ['stream3', 'stream4'] }),
      400,
      "'stream4' is a default channel and cannot be added to '" + 'x'.repeat(99) + "'",
    );
    expectSuccess(await t.delete('default_streams', { query: { stream_id: ch.stream4 } }));
  });

  it('the owner may create a group with a private channel they are in', async () => {
    expectSuccess(await create({ group_name: 'private ones', description: '', stream_names: ['secret'] }, t.owner));
    expect((await groups()).find((g) => g.name === 'private ones')!.streams).toEqual([ch.secret]);
    expectSuccess(await t.delete(`default_stream_groups/${await groupId('private ones')}`));
  });
});

describe('PATCH /default_stream_groups/{group_id}/streams', () => {
  it('adds channels, and removes them; each change is heard', async () => {
    const id = await groupId('group1');
    const [c] = await registerAll(t, [member]);
    expectSuccess(await t.patch(`default_stream_groups/${id}/streams`, { as: admin, form: { op: 'add', stream_names: ['stream4', 'Zebra'] } }));
    let [e] = await c.ofType('default_stream_groups');
    expect((e.default_stream_groups as Group[]).find((g) => g.id === id)!.streams).toEqual([ch.Zebra, ch.stream1, ch.stream2, ch.stream3, ch.stream4]);
    expectSuccess(await t.patch(`default_stream_groups/${id}/streams`, { as: admin, form: { op: 'remove', stream_names: ['stream4', 'zebra'] } }));
    [e] = await c.ofType('default_stream_groups');
    expect((e.default_stream_groups as Group[]).find((g) => g.id === id)!.streams).toEqual([ch.stream1, ch.stream2, ch.stream3]);
    expect(e.default_stream_groups).toEqual(await groups());
  });

  it('checks the group, then the channels, then op; errors change nothing', async () => {
    const id = await groupId('group1');
    const before = await rowCounts();
    const patch = (form: Record<string, unknown>, gid: number = id, as: Account = admin) => t.patch(`default_stream_groups/${gid}/streams`, { as, form });
    expectError(await patch({ stream_names: ['stream4'] }), 400, "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'op' });
    expectError(await patch({ op: 'invalid', stream_names: ['stream4'] }), 400, 'Invalid value for "op". Specify one of "add" or "remove".');
    expectError(await patch({ op: 'invalid', stream_names: ['nope'] }), 400, "Invalid channel name 'nope'");
    expectError(await patch({ op: 'add', stream_names: ['stream4'] }, 12345), 400, "Default channel group with id '12345' does not exist.");
    expectError(await patch({ op: 'invalid', stream_names: ['nope'] }, 12345), 400, "Default channel group with id '12345' does not exist.");
    expectError(await patch({ op: 'add' }), 400, "Missing 'stream_names' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_names' });
    expectError(await patch({ op: 'add', stream_names: ['stream4', 'stream1'] }), 400, "Channel 'stream1' is already present in default channel group 'group1'");
    expectError(await patch({ op: 'add', stream_names: ['stream4', 'STREAM4'] }), 400, "Channel 'stream4' is already present in default channel group 'group1'");
    expectError(await patch({ op: 'remove', stream_names: ['stream1', 'stream4'] }), 400, "Channel 'stream4' is not present in default channel group 'group1'");
    expectError(await patch({ op: 'remove', stream_names: ['random stream name'] }), 400, "Invalid channel name 'random stream name'");
    expectSuccess(await t.post('default_streams', { form: { stream_id: ch.stream4 } }));
    expectError(await patch({ op: 'add', stream_names: ['stream4'] }), 400, "'stream4' is a default channel and cannot be added to 'group1'");
    expectSuccess(await t.delete('default_streams', { query: { stream_id: ch.stream4 } }));
    expectError(await patch({ op: 'add', stream_names: ['stream4'] }, id, moderator), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await patch({ op: 'add', stream_names: ['elsewhere'] }, id, otherOwner), 400, `Default channel group with id '${id}' does not exist.`);
    expect(await rowCounts()).toEqual(before);
    const res = await t.patch('default_stream_groups/abc/streams', { as: admin, form: { op: 'add', stream_names: [] } });
    expect(res.status).toBe(404);
  });
});

describe('PATCH /default_stream_groups/{group_id}', () => {
  it('changes the description, then the name; one event for each', async () => {
    const id = await groupId('group1');
    const [c] = await registerAll(t, [member]);
    expectSuccess(await t.patch(`default_stream_groups/${id}`, { as: admin, form: { new_description: 'new group1 description' } }));
    expectSuccess(await t.patch(`default_stream_groups/${id}`, { as: admin, form: { new_group_name: 'new group1', new_description: 'both' } }));
    const events = await c.ofType('default_stream_groups', 3);
    const mine = (e: Record<string, unknown>) => (e.default_stream_groups as Group[]).find((g) => g.id === id)!;
    expect(events.map((e) => [mine(e).name, mine(e).description])).toEqual([
      ['group1', 'new group1 description'],
      ['new group1', 'new group1 description'],
      ['new group1', 'both'],
    ]);
    expect((await groups()).map((g) => g.name)).toEqual(['another', 'empty', 'new group1']);
  });

  it('refuses what Zulip refuses and changes nothing', async () => {
    const id = await groupId('new group1');
    const before = await groups();
    const patch = (form: Record<string, unknown>, gid: number = id, as: Account = admin) => t.patch(`default_stream_groups/${gid}`, { as, form });
    expectError(await patch({}), 400, 'You must pass "new_description" or "new_group_name".');
    expectError(await patch({ new_group_name: '', new_description: '' }), 400, 'You must pass "new_description" or "new_group_name".');
    expectError(await patch({ new_description: 'x' }, 12345), 400, "Default channel group with id '12345' does not exist.");
    expectError(await patch({ new_group_name: 'another' }), 400, "Default channel group 'another' already exists");
    expectError(await patch({ new_group_name: 'new group1' }), 400, "This default channel group is already named 'new group1'");
    expectError(await patch({ new_group_name: 'y'.repeat(61) }), 400, 'Default channel group name too long (limit: 60 characters)');
    expectError(await patch({ new_description: 'd'.repeat(1025) }), 400, 'new_description is too long (limit: 1024 characters)');
    // The name is checked before the description is written: nothing of the request stays.
    expectError(await patch({ new_group_name: 'another', new_description: 'lost' }), 400, "Default channel group 'another' already exists");
    expectError(await patch({ new_description: 'x' }, id, member), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await patch({ new_description: 'x' }, id, otherOwner), 400, `Default channel group with id '${id}' does not exist.`);
    expect(await groups()).toEqual(before);
  });
});

describe('DELETE /default_stream_groups/{group_id}', () => {
  it('removes the group; everyone hears the rest; a second time it does not exist', async () => {
    const id = await groupId('empty');
    const [c] = await registerAll(t, [member]);
    expectError(await t.delete(`default_stream_groups/${id}`, { as: otherOwner }), 400, `Default channel group with id '${id}' does not exist.`);
    expectError(await t.delete(`default_stream_groups/${id}`, { as: moderator }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await t.delete(`default_stream_groups/${id}`, { as: admin }));
    const [e] = await c.ofType('default_stream_groups');
    expect((e.default_stream_groups as Group[]).map((g) => g.name)).toEqual(['another', 'new group1']);
    expectError(await t.delete(`default_stream_groups/${id}`, { as: admin }), 400, `Default channel group with id '${id}' does not exist.`);
    expectError(await t.delete('default_stream_groups/999999999', { as: admin }), 400, "Default channel group with id '999999999' does not exist.");
  });

  it('Zulip has no GET of the groups: the paths answer 405 / 404', async () => {
    expect((await t.get('default_stream_groups/create')).status).toBe(405);
  });
});

describe('archiving a channel', () => {
  it('takes it out of every group, one event per group it left, after the default_streams one', async () => {
    expectSuccess(await create({ group_name: 'more', description: '', stream_names: ['stream2', 'apple'] }));
    const c = await EventClient.register(t, member, { event_types: ['default_stream_groups', 'default_streams', 'stream'] });
    expectSuccess(await t.post('default_streams', { form: { stream_id: ch.stream3 } }));
    await c.ofType('default_streams');
    expectSuccess(await t.delete(`streams/${ch.apple}`));
    const events = await c.next();
    const groupEvents = events.filter((e) => e.type === 'default_stream_groups');
    expect(groupEvents).toHaveLength(2);
    expect((groupEvents[0].default_stream_groups as Group[]).map((g) => [g.name, g.streams])).toEqual([
      ['another', [ch.Zebra]],
      ['more', [ch.apple, ch.stream2]],
      ['new group1', [ch.stream1, ch.stream2, ch.stream3]],
    ]);
    expect(groupEvents[1].default_stream_groups).toEqual(await groups());
    expect((await groups()).find((g) => g.name === 'more')!.streams).toEqual([ch.stream2]);
    expect(events.findIndex((e) => e.type === 'default_stream_groups')).toBeLessThan(events.findIndex((e) => e.type === 'stream'));
    expect(otherChannel).toBeGreaterThan(0);
  });
});
