import zulip from 'zulip-js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;

beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, guest, bot, otherOwner } = await t.createRoleAccounts());
});
afterAll(() => t.close());

const create = (form: Record<string, unknown>, as: Account = admin) => t.post('realm/profile_fields', { as, form });
const fields = async (as: Account = member) => (await t.get('realm/profile_fields', { as })).body.custom_fields as Record<string, unknown>[];
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
const setData = (as: Account, data: unknown) => t.patch('users/me/profile_data', { as, form: { data } });
const profileOf = async (userId: number, as: Account = admin) =>
  (await t.get(`users/${userId}`, { as, query: { include_custom_profile_fields: true } })).body.user.profile_data;

describe('custom profile fields: administration', () => {
  it('creates a field, lists it, and tells everyone the whole list', async () => {
    const q = await EventClient.register(t, member, { event_types: ['custom_profile_fields'] });
    const res = await create({ name: ' Phone ', hint: 'Work phone', field_type: 1 });
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const phone = {
      id: res.body.id,
      name: 'Phone',
      type: 1,
      hint: 'Work phone',
      field_data: '',
      order: res.body.id,
      required: false,
      editable_by_user: true,
      use_for_user_matching: false,
    };
    expect(await fields()).toEqual([phone]);
    expect(strip(await q.next())).toEqual([{ type: 'custom_profile_fields', fields: [phone] }]);
    expect(await fields(bot)).toEqual([phone]);
    expect(await fields(otherOwner)).toEqual([]);
  });

  it('stores the choices of a List of options and the subtype of an external account', async () => {
    const choices = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };
    const editor = await create({ name: 'Editor', field_type: 3, field_data: choices, display_in_profile_summary: true, required: true });
    expectSuccess(editor);
    const github = await create({ field_type: 7, field_data: { subtype: 'github' }, editable_by_user: false });
    const custom = await create({ name: 'Blog', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://blog.example.com/%(username)s' } });
    const list = await fields();
    expect(list.find((f) => f.id === editor.body.id)).toMatchObject({
      type: 3,
      field_data: JSON.stringify(choices),
      required: true,
      display_in_profile_summary: true,
    });
    expect(list.find((f) => f.id === github.body.id)).toMatchObject({
      name: 'GitHub username',
      hint: '',
      field_data: '{"subtype":"github"}',
      editable_by_user: false,
    });
    expect(list.find((f) => f.id === custom.body.id)).toMatchObject({
      field_data: '{"subtype":"custom","url_pattern":"https://blog.example.com/%(username)s"}',
    });
    expect(list.find((f) => f.id === custom.body.id)).not.toHaveProperty('display_in_profile_summary');
  });

  it.each<[Record<string, unknown>, string, string?, Record<string, unknown>?]>([
    [{ name: 'X' }, "Missing 'field_type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'field_type' }],
    [{ name: 'X', field_type: '"1"' }, 'field_type is not an integer'],
    [{ name: 'X', field_type: 99 }, 'Invalid field type.'],
    [{ name: '   ', field_type: 1 }, 'Label cannot be blank.'],
    [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
    [{ name: 'X', hint: 'h'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
    [{ name: 'Phone', field_type: 2 }, 'A field with that label already exists.'],
    [{ name: 'Bio', field_type: 2, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
    [{ name: 'Buddies', field_type: 6, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
    [{ name: 'L', field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
    [{ name: 'L', field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } }, "'value' cannot be blank."],
    [{ name: 'L', field_type: 3, field_data: { a: { order: '1' } } }, 'text key is missing from field_data'],
    [{ name: 'L', field_type: 3, field_data: { a: { text: ' ', order: '1' } } }, 'field_data["text"] cannot be blank.'],
    [{ name: 'L', field_type: 3, field_data: { a: { text: 'A', order: '1', color: 'red' } } }, 'Unexpected arguments: color'],
    [{ name: 'L', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } }, 'Field must not have duplicate choices.'],
    [{ name: 'L', field_type: 3, field_data: { a: 'A' } }, 'field_data is not a dict'],
    [{ name: 'L', field_type: 3, field_data: '[1]' }, 'field_data is not a dict'],
    [{ name: 'E', field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
    [{ name: 'E', field_type: 7, field_data: {} }, 'subtype key is missing from field_data'],
    [{ name: 'E', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.example.com/' } }, "URL pattern must contain '%(username)s'."],
    [{ name: 'E', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'not a url %(username)s' } }, 'field_data["url_pattern"] is not a URL'],
  ])('refuses %j: %s, creating nothing', async (form, msg, code = 'BAD_REQUEST', extra = {}) => {
    const before = await fields();
    expectError(await create(form), 400, msg, code, extra);
    expect(await fields()).toEqual(before);
  });

  it('allows at most two fields in the profile summary', async () => {
    expectSuccess(await create({ name: 'Pronouns', field_type: 8, display_in_profile_summary: true }));
    expectError(
      await create({ name: 'Third', field_type: 1, display_in_profile_summary: true }),
      400,
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
  });

  it('is for administrators; a field of another organization is not found', async () => {
    expectError(await create({ name: 'Nope', field_type: 1 }, member), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    const id = (await fields())[0].id as number;
    expectError(await t.patch(`realm/profile_fields/${id}`, { as: member, form: { name: 'x' } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.patch(`realm/profile_fields/${id}`, { as: otherOwner, form: { name: 'Stolen' } }), 400, `Field id ${id} not found.`);
    expectError(await t.delete(`realm/profile_fields/${id}`, { as: otherOwner }), 400, `Field id ${id} not found.`);
    expectError(await t.delete('realm/profile_fields/99999'), 400, 'Field id 99999 not found.');
    expect((await fields())[0]).toMatchObject({ id, name: 'Phone' });
  });
});

describe('custom profile fields: updates, order, deletion', () => {
  it('updates only what is sent, and tells everyone', async () => {
    const id = (await create({ name: 'Team', field_type: 1 })).body.id;
    const q = await EventClient.register(t, member, { event_types: ['custom_profile_fields'] });
    expectSuccess(await t.patch(`realm/profile_fields/${id}`, { form: { hint: 'Your team', required: true, use_for_user_matching: true } }));
    const [event] = strip(await q.next());
    expect((event.fields as Record<string, unknown>[]).find((f) => f.id === id)).toEqual({
      id,
      name: 'Team',
      type: 1,
      hint: 'Your team',
      field_data: '',
      order: id,
      required: true,
      editable_by_user: true,
      use_for_user_matching: true,
    });
    expectError(await t.patch(`realm/profile_fields/${id}`, { form: { name: 'Phone' } }), 400, 'A field with that label already exists.');
    expectError(await t.patch(`realm/profile_fields/${id}`, { form: { name: '' } }), 400, 'Label cannot be blank.');
  });

  it('keeps a default external account’s label, hint and data', async () => {
    const id = (await create({ field_type: 7, field_data: { subtype: 'gitlab' } })).body.id;
    expectError(await t.patch(`realm/profile_fields/${id}`, { form: { name: 'My GitLab' } }), 400, 'Default custom field cannot be updated.');
    expectError(await t.patch(`realm/profile_fields/${id}`, { form: { field_data: { subtype: 'github' } } }), 400, 'Default custom field cannot be updated.');
    expectSuccess(await t.patch(`realm/profile_fields/${id}`, { form: { name: 'GitLab username', editable_by_user: false } }));
    expect((await fields()).find((f) => f.id === id)).toMatchObject({ name: 'GitLab username', editable_by_user: false });
  });

  it('drops the values of removed choices', async () => {
    const id = (await create({ name: 'Shift', field_type: 3, field_data: { d: { text: 'Day', order: '1' }, n: { text: 'Night', order: '2' } } })).body.id;
    const other = await t.createUser();
    expectSuccess(await setData(member, [{ id, value: 'n' }]));
    expectSuccess(await setData(other, [{ id, value: 'd' }]));
    expectSuccess(await t.patch(`realm/profile_fields/${id}`, { form: { field_data: { d: { text: 'Day', order: '1' } } } }));
    expect((await profileOf(member.id))[String(id)]).toBeUndefined();
    expect((await profileOf(other.id))[String(id)]).toEqual({ value: 'd' });
  });

  it('reorders the fields; every field needs a place', async () => {
    const ids = (await fields()).map((f) => f.id as number);
    const reversed = [...ids].reverse();
    const q = await EventClient.register(t, member, { event_types: ['custom_profile_fields'] });
    expectSuccess(await t.patch('realm/profile_fields', { form: { order: reversed } }));
    const list = await fields();
    expect(list.map((f) => f.id)).toEqual(reversed);
    expect(list.map((f) => f.order)).toEqual(reversed.map((_, i) => i));
    expect(strip(await q.next())).toEqual([{ type: 'custom_profile_fields', fields: list }]);
    expectError(await t.patch('realm/profile_fields', { form: { order: reversed.slice(1) } }), 400, 'Invalid order mapping.');
    expectError(await t.patch('realm/profile_fields', { form: { order: 'x' } }), 400, 'order is not valid JSON');
    expectError(await t.patch('realm/profile_fields', { as: member, form: { order: reversed } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expect((await fields()).map((f) => f.id)).toEqual(reversed);
  });

  it('deletes a field with everyone’s values of it', async () => {
    const id = (await create({ name: 'Temporary', field_type: 1 })).body.id;
    expectSuccess(await setData(member, [{ id, value: 'soon gone' }]));
    const q = await EventClient.register(t, member, { event_types: ['custom_profile_fields'] });
    expectSuccess(await t.delete(`realm/profile_fields/${id}`));
    expect((await fields()).some((f) => f.id === id)).toBe(false);
    expect((await profileOf(member.id))[String(id)]).toBeUndefined();
    expect(strip(await q.next())).toEqual([{ type: 'custom_profile_fields', fields: await fields() }]);
  });
});

describe('profile data', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    ids = {};
    const defs: [string, number, Record<string, unknown>?][] = [
      ['Nickname', 1],
      ['About', 2],
      ['Birthday', 4],
      ['Website', 5],
      ['Mentor', 6],
      ['Seat', 3, { a: { text: 'Aisle', order: '1' }, w: { text: 'Window', order: '2' } }],
      ['Badge', 1],
    ];
    for (const [name, field_type, field_data] of defs) ids[name] = (await create({ name, field_type, ...(field_data ? { field_data } : {}) })).body.id;
    expectSuccess(await t.patch(`realm/profile_fields/${ids.Badge}`, { form: { editable_by_user: false } }));
  });

  it('stores values by type, renders text, and tells everyone', async () => {
    const q = await EventClient.register(t, admin, { event_types: ['realm_user'] });
    const res = await setData(member, [
      { id: ids.Nickname, value: 'Mem <3' },
      { id: ids.Birthday, value: '2000-02-29' },
      { id: ids.Website, value: 'https://example.com/me' },
      { id: ids.Mentor, value: [admin.id] },
      { id: ids.Seat, value: 'w' },
    ]);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const update = (id: number, value: unknown, rendered?: string) => ({
      type: 'realm_user',
      op: 'update',
      person: { user_id: member.id, custom_profile_field: rendered === undefined ? { id, value } : { id, value, rendered_value: rendered } },
    });
    expect(strip(await q.next())).toEqual([
      update(ids.Nickname, 'Mem <3', '<p>Mem &lt;3</p>'),
      update(ids.Birthday, '2000-02-29'),
      update(ids.Website, 'https://example.com/me'),
      update(ids.Mentor, `[${admin.id}]`),
      update(ids.Seat, 'w'),
    ]);
    const expected = {
      [ids.Nickname]: { value: 'Mem <3', rendered_value: '<p>Mem &lt;3</p>' },
      [ids.Birthday]: { value: '2000-02-29' },
      [ids.Website]: { value: 'https://example.com/me' },
      [ids.Mentor]: { value: `[${admin.id}]` },
      [ids.Seat]: { value: 'w' },
    };
    expect(await profileOf(member.id)).toEqual(expected);
    expect((await t.get('users/me', { as: member })).body.profile_data).toEqual(expected);
    const listed = (await t.get('users', { query: { include_custom_profile_fields: true } })).body.members;
    expect(listed.find((m: { user_id: number }) => m.user_id === member.id).profile_data).toEqual(expected);
    expect(listed.find((m: { user_id: number }) => m.user_id === guest.id).profile_data).toEqual({});
    expect(listed.find((m: { user_id: number }) => m.user_id === bot.id)).not.toHaveProperty('profile_data');
    expect((await t.get('users')).body.members[0]).not.toHaveProperty('profile_data');
    const state = await t.post('register', { as: guest, form: { fetch_event_types: ['realm_user'] } });
    expect(state.body.realm_users.find((u: { user_id: number }) => u.user_id === member.id).profile_data).toEqual(expected);
    // The same values again change nothing and tell nobody.
    expectSuccess(await setData(member, [{ id: ids.Seat, value: 'w' }]));
    expect(await q.drain()).toEqual([]);
  });

  it('refuses bad values with Zulip’s texts, writing none of the request', async () => {
    const gone = await t.createUser();
    expectSuccess(await t.delete(`users/${gone.id}`));
    const cases: [unknown, string][] = [
      [[{ id: ids.Birthday, value: '2001-02-29' }], 'Birthday is not a date'],
      [[{ id: ids.Birthday, value: '01/02/2003' }], 'Birthday is not a date'],
      [[{ id: ids.Website, value: 'example.com' }], 'Website is not a URL'],
      [[{ id: ids.Seat, value: 'x' }], "'x' is not a valid choice for 'Seat'."],
      [[{ id: ids.Mentor, value: [999999] }], 'Invalid user IDs: 999999'],
      [[{ id: ids.Mentor, value: [otherOwner.id] }], `Invalid user IDs: ${otherOwner.id}`],
      [[{ id: ids.Mentor, value: [bot.id] }], `User with ID ${bot.id} is a bot`],
      [[{ id: ids.Mentor, value: [gone.id] }], `User with ID ${gone.id} is deactivated`],
      [[{ id: ids.Mentor, value: 'me' }], 'User IDs is not a list'],
      [[{ id: ids.Nickname, value: 'n'.repeat(51) }], 'Nickname is too long (limit: 50 characters)'],
      [[{ id: ids.About, value: 'a'.repeat(501) }], 'About is too long (limit: 500 characters)'],
      [[{ id: ids.Nickname, value: [1] }], 'Nickname is not a string'],
      [[{ id: ids.Nickname, value: 5 }], 'data[0]["value"] is not a string'],
      [[{ id: 'x', value: 'v' }], 'data[0]["id"] is not an integer'],
      [[{ id: 999999, value: 'v' }], 'Field id 999999 not found.'],
      [[{ id: ids.Badge, value: 'VIP' }], 'You are not allowed to change this field. Contact an administrator to update it.'],
      [[{ id: ids.Nickname, value: 'Changed' }, { id: ids.Website, value: 'nope' }], 'Website is not a URL'],
      ['{}', 'data is not a list'],
    ];
    for (const [data, msg] of cases) {
      const before = await profileOf(member.id);
      expectError(await setData(member, data), 400, msg);
      expect(await profileOf(member.id)).toEqual(before);
    }
    expectError(await setData(bot, [{ id: ids.Nickname, value: 'x' }]), 400, 'This endpoint does not accept bot requests.');
    expectError(await t.patch('users/me/profile_data', { as: member }), 400, "Missing 'data' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'data' });
  });

  it('lets administrators set fields users may not, theirs and others’', async () => {
    expectSuccess(await setData(admin, [{ id: ids.Badge, value: 'Boss' }]));
    expectSuccess(await t.patch(`users/${member.id}`, { form: { profile_data: [{ id: ids.Badge, value: 'Helper' }, { id: ids.Seat, value: '' }] } }));
    const data = await profileOf(member.id);
    expect(data[String(ids.Badge)]).toEqual({ value: 'Helper', rendered_value: '<p>Helper</p>' });
    expect(data[String(ids.Seat)]).toBeUndefined();
    expectError(await t.patch(`users/${admin.id}`, { as: member, form: { profile_data: [{ id: ids.Badge, value: 'x' }] } }), 400, 'Insufficient permission');
    expectError(await t.patch(`users/${member.id}`, { form: { profile_data: [{ id: 999999, value: null }] } }), 400, 'Field id 999999 not found.');
    expectError(await t.patch(`users/${member.id}`, { form: { profile_data: [{ id: ids.Birthday, value: 'soon' }] } }), 400, 'Birthday is not a date');
    expect(await profileOf(member.id)).toEqual(data);
  });

  it('removes values; unknown fields are refused, fields without a value ignored', async () => {
    const q = await EventClient.register(t, admin, { event_types: ['realm_user'] });
    expectSuccess(await t.delete('users/me/profile_data', { as: member, form: { data: [ids.Nickname, ids.About] } }));
    expect(strip(await q.next())).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: ids.Nickname, value: null } } },
    ]);
    expect((await profileOf(member.id))[String(ids.Nickname)]).toBeUndefined();
    expectError(await t.delete('users/me/profile_data', { as: member, form: { data: [ids.Website, 999999] } }), 400, 'Field id 999999 not found.');
    expect((await profileOf(member.id))[String(ids.Website)]).toEqual({ value: 'https://example.com/me' });
    expectError(await t.delete('users/me/profile_data', { as: member, form: { data: [ids.Badge] } }), 400, 'You are not allowed to change this field. Contact an administrator to update it.');
  });
});

describe('register', () => {
  it('returns the fields and the field types', async () => {
    const res = await t.post('register', { as: guest, form: { fetch_event_types: ['custom_profile_fields'] } });
    expectSuccess(res);
    expect(res.body.custom_profile_fields).toEqual(await fields());
    expect(res.body.custom_profile_field_types).toEqual({
      DATE: { id: 4, name: 'Date' },
      EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
      URL: { id: 5, name: 'Link' },
      SELECT: { id: 3, name: 'List of options' },
      PRONOUNS: { id: 8, name: 'Pronouns' },
      LONG_TEXT: { id: 2, name: 'Text (long)' },
      SHORT_TEXT: { id: 1, name: 'Text (short)' },
      USER: { id: 6, name: 'Users' },
    });
    expect(res.body).not.toHaveProperty('realm_users');
  });
});

describe('zulip-js', () => {
  it('reads profile data and settings through the client library', async () => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const client = await zulip({ username: member.email, apiKey: member.apiKey, realm: `http://127.0.0.1:${port}` });
      const nickname = (await fields()).find((f) => f.name === 'Nickname')!.id as number;
      const set = await client.callEndpoint('/users/me/profile_data', 'PATCH', { data: JSON.stringify([{ id: nickname, value: 'via zulip-js' }]) });
      expect(set).toEqual({ result: 'success', msg: '' });
      const me = await client.users.me.getProfile();
      expect(me).toMatchObject({ result: 'success', user_id: member.id, profile_data: { [nickname]: { value: 'via zulip-js', rendered_value: '<p>via zulip-js</p>' } } });
      const changed = await client.callEndpoint('/settings', 'PATCH', { twenty_four_hour_time: true });
      expect(changed).toEqual({ result: 'success', msg: '' });
      const state = await client.queues.register({ fetch_event_types: ['user_settings', 'custom_profile_fields'] });
      expect(state.user_settings.twenty_four_hour_time).toBe(true);
      expect(state.custom_profile_fields.map((f: { id: number }) => f.id)).toContain(nickname);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
