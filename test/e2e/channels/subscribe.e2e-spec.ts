import pg from 'pg';
import { channelIds, createChannels, subscription, systemGroups } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let member: Account;
let other: Account;
let guest: Account;
let groups: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  groups = await systemGroups(t);
});
afterAll(() => t.close());

const subscribe = (as: Account | undefined, form: Record<string, unknown>) => t.post('users/me/subscriptions', { as, form });

describe('creating channels by subscribing', () => {
  it('creates a public channel, subscribes the creator and makes them its administrator', async () => {
    const res = await subscribe(member, { subscriptions: [{ name: ' design ', description: 'Line one\nline two' }] });
    expectSuccess(res);
    expect(res.body.subscribed).toEqual({ [member.id]: ['design'] });
    expect(res.body.already_subscribed).toEqual({});
    const { design } = await channelIds(t, ['design']);
    const sub = await subscription(t, member, design);
    expect(sub).toMatchObject({
      name: 'design',
      description: 'Line one line two',
      rendered_description: '<p>Line one line two</p>',
      invite_only: false,
      history_public_to_subscribers: true,
      is_web_public: false,
      creator_id: member.id,
      can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
      can_add_subscribers_group: groups['role:nobody'],
      can_remove_subscribers_group: groups['role:administrators'],
      can_send_message_group: groups['role:everyone'],
      can_create_topic_group: groups['role:everyone'],
      stream_post_policy: 1,
      is_announcement_only: false,
      message_retention_days: null,
      topics_policy: 'inherit',
      subscriber_count: 1,
      // The member already uses three palette colours: the organization's initial default channels.
      color: '#e79ab5',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it('reports existing subscriptions, matching names case-insensitively', async () => {
    const res = await subscribe(member, { subscriptions: [{ name: 'DESIGN' }] });
    expectSuccess(res, { subscribed: {}, already_subscribed: { [member.id]: ['design'] } });
  });

  it('picks unused palette colours and honours requested ones', async () => {
    const res = await subscribe(member, { subscriptions: [{ name: 'c1' }, { name: 'c2', color: '#123456' }] });
    expectSuccess(res);
    const ids = await channelIds(t, ['c1', 'c2']);
    expect((await subscription(t, member, ids.c1)).color).toBe('#bfd56f');
    expect((await subscription(t, member, ids.c2)).color).toBe('#123456');
  });

  it('forces shared history on public channels', async () => {
    await subscribe(member, { subscriptions: [{ name: 'shared' }], history_public_to_subscribers: false });
    const { shared } = await channelIds(t, ['shared']);
    expect((await subscription(t, member, shared)).history_public_to_subscribers).toBe(true);
  });

  it('creates a private channel with protected history that others cannot join', async () => {
    expectSuccess(await subscribe(member, { subscriptions: [{ name: 'secret' }], invite_only: true }));
    const { secret } = await channelIds(t, ['secret']);
    expect(await subscription(t, member, secret)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expectError(await subscribe(other, { subscriptions: [{ name: 'secret' }] }), 400, 'Unable to access channel (secret).');
    const lenient = await subscribe(other, { subscriptions: [{ name: 'secret' }, { name: 'design' }], authorization_errors_fatal: false });
    expectSuccess(lenient, { subscribed: { [other.id]: ['design'] }, already_subscribed: {}, unauthorized: ['secret'] });
  });

  it('lets the channel’s administrator add a member, by id or email', async () => {
    const res = await subscribe(member, { subscriptions: [{ name: 'secret' }], principals: [other.id] });
    expectSuccess(res, { subscribed: { [other.id]: ['secret'] } });
    const byEmail = await subscribe(member, { subscriptions: [{ name: 'secret' }], principals: [other.email] });
    expectSuccess(byEmail, { already_subscribed: { [other.id]: ['secret'] } });
  });

  it('uses the organization’s can_add_subscribers_group for channels one can access', async () => {
    const { design } = await channelIds(t, ['design']);
    const third = await t.createUser();
    expectSuccess(await subscribe(other, { subscriptions: [{ name: 'design' }], principals: [third.id] }));
    expect((await t.get(`streams/${design}/members`)).body.subscribers).toContain(third.id);
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      await t.sql(
        `UPDATE realm_group_settings SET group_id = $1 WHERE setting = 'can_add_subscribers_group'`,
        [groups['role:administrators']],
      );
      expectError(await subscribe(other, { subscriptions: [{ name: 'design' }], principals: [admin.id] }), 400, 'Insufficient permission');
      expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'design' }], principals: [other.id, admin.id] }));
    } finally {
      await t.sql(`UPDATE realm_group_settings SET group_id = $1 WHERE setting = 'can_add_subscribers_group'`, [groups['role:members']]);
      await c.end();
    }
  });

  it('keeps guests out, lets bots subscribe themselves', async () => {
    expectError(await subscribe(guest, { subscriptions: [{ name: 'design' }] }), 400, 'Not allowed for guest users');
    const bot = await t.createBot(member, 'subscriber');
    expectSuccess(await subscribe(bot, { subscriptions: [{ name: 'design' }] }), { subscribed: { [bot.id]: ['design'] } });
  });

  it.each([
    [{ subscriptions: [{ name: '  ' }] }, "Channel name can't be empty."],
    [{ subscriptions: [{ name: 'x'.repeat(61) }] }, 'Channel name too long (limit: 60 characters).'],
    [{ subscriptions: [{ name: 'bad\u0007name' }] }, 'Invalid character in channel name, at position 4.'],
    [{ subscriptions: [{ name: 'd', description: 'x'.repeat(1025) }] }, 'subscriptions[0]["description"] is too long (limit: 1024 characters)'],
    [{ subscriptions: [{ name: 'a' }, { name: 'b', color: 'red' }] }, 'Invalid subscriptions[1]: Value error, add.color is not a valid hex color code'],
    [{ subscriptions: [{ description: 'no name' }] }, 'subscriptions[0]["name"] field is missing: Field required'],
    [{ subscriptions: '{}' }, 'subscriptions is not a list'],
    [{ subscriptions: [{ name: 'n' }], is_default_stream: true }, 'Insufficient permission'],
    [{ subscriptions: [{ name: 'n' }], is_web_public: true }, 'Web-public channels are not enabled.'],
    [{ subscriptions: [{ name: 'n' }], message_retention_days: 'forever' }, "Bad value for 'message_retention_days': forever"],
    [{ subscriptions: [{ name: 'n' }], topics_policy: 'bogus' }, 'topics_policy is not valid JSON'],
    [{ subscriptions: [{ name: 'n' }], topics_policy: '"bogus"' }, 'Invalid topics_policy'],
    [{ subscriptions: [{ name: 'n' }], principals: [424242] }, 'No such user'],
    [{ subscriptions: [{ name: 'n' }], principals: [1, 'a@b.c'] }, 'principals["list[str]"][0] is not a string'],
    [{ subscriptions: [{ name: 'n' }], folder_id: 424242 }, 'Invalid channel folder ID'],
  ])('rejects %j: %s', async (form, msg) => {
    const res = await subscribe(member, form);
    expect(res.body.msg).toBe(msg);
    expect(res.status).toBe(400);
  });

  it('reports bad retention values with REQUEST_VARIABLE_INVALID', async () => {
    expectError(
      await subscribe(t.owner, { subscriptions: [{ name: 'n' }], message_retention_days: 0 }),
      400,
      "Bad value for 'message_retention_days': 0",
      'REQUEST_VARIABLE_INVALID',
      { var_name: 'message_retention_days', bad_value: 0 },
    );
  });

  it('lets only owners set a retention period; accepts quoted and bare strings', async () => {
    expectError(
      await subscribe(admin, { subscriptions: [{ name: 'kept' }], message_retention_days: 30 }),
      400,
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectSuccess(await subscribe(t.owner, { subscriptions: [{ name: 'kept' }], message_retention_days: 30 }));
    expectSuccess(await subscribe(t.owner, { subscriptions: [{ name: 'forever' }], message_retention_days: 'unlimited' }));
    expectSuccess(await subscribe(t.owner, { subscriptions: [{ name: 'default-days' }], message_retention_days: '"realm_default"' }));
    const ids = await channelIds(t, ['kept', 'forever', 'default-days']);
    expect((await t.get(`streams/${ids.kept}`)).body.stream.message_retention_days).toBe(30);
    expect((await t.get(`streams/${ids.forever}`)).body.stream.message_retention_days).toBe(-1);
    expect((await t.get(`streams/${ids['default-days']}`)).body.stream.message_retention_days).toBeNull();
  });

  it('checks permission settings of new channels', async () => {
    expectError(
      await subscribe(member, { subscriptions: [{ name: 'p1' }], invite_only: true, can_create_topic_group: groups['role:members'] }),
      400,
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
      'BAD_REQUEST',
      { parameters: 'history_public_to_subscribers, can_create_topic_group' },
    );
    expectError(
      await subscribe(member, { subscriptions: [{ name: 'p2' }], can_add_subscribers_group: groups['role:everyone'] }),
      400,
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await subscribe(member, { subscriptions: [{ name: 'p3' }], can_delete_any_message_group: groups['role:members'] }),
      400,
      'Insufficient permission',
    );
    expectError(
      await subscribe(admin, { subscriptions: [{ name: 'p4' }], invite_only: true, is_default_stream: true }),
      400,
      'A default channel cannot be private.',
    );
    const res = await subscribe(member, {
      subscriptions: [{ name: 'announcements' }],
      can_send_message_group: groups['role:administrators'],
      can_add_subscribers_group: { direct_members: [other.id], direct_subgroups: [] },
    });
    expectSuccess(res);
    const { announcements } = await channelIds(t, ['announcements']);
    expect((await t.get(`streams/${announcements}`)).body.stream).toMatchObject({
      stream_post_policy: 2,
      is_announcement_only: true,
      can_add_subscribers_group: { direct_members: [other.id], direct_subgroups: [] },
    });
  });

  it('makes default channels when an administrator asks', async () => {
    expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'welcome' }], is_default_stream: true }));
    const streams = (await t.get('streams', { as: admin, query: { include_default: true } })).body.streams;
    expect(streams.find((s: { name: string }) => s.name === 'welcome').is_default).toBe(true);
    expect(streams.find((s: { name: string }) => s.name === 'design').is_default).toBe(false);
  });

  it('changes nothing when any part of the request fails', async () => {
    const before = (await t.get('streams', { query: { include_all: true } })).body.streams.length;
    expectError(await subscribe(member, { subscriptions: [{ name: 'fresh-one' }, { name: 'secret2' }], principals: [424242] }), 400, 'No such user');
    expect((await t.get('streams', { query: { include_all: true } })).body.streams.length).toBe(before);
  });

  it('refuses deactivated principals', async () => {
    const gone = await t.createUser();
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await subscribe(member, { subscriptions: [{ name: 'design' }], principals: [gone.id] }), 400, 'User is deactivated');
  });
});

describe('POST /channels/create', () => {
  it('creates one channel with the listed subscribers only', async () => {
    const res = await t.post('channels/create', { as: member, form: { name: 'created', subscribers: [other.id], description: 'd' } });
    expectSuccess(res, { id: expect.any(Number) });
    expect((await t.get(`streams/${res.body.id}/members`, { as: other })).body.subscribers).toEqual([other.id]);
  });

  it('answers a taken name with 409 CHANNEL_ALREADY_EXISTS, also when two requests race', async () => {
    expectError(
      await t.post('channels/create', { as: member, form: { name: 'CREATED', subscribers: [] } }),
      409,
      "Channel 'CREATED' already exists",
      'CHANNEL_ALREADY_EXISTS',
      { channel_name: 'CREATED' },
    );
    const results = await Promise.all(
      [1, 2, 3].map(() => t.post('channels/create', { as: member, form: { name: 'racy', subscribers: [] } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toMatchObject({ code: 'CHANNEL_ALREADY_EXISTS', msg: "Channel 'racy' already exists" });
    }
  });

  it('requires subscribers and refuses guests', async () => {
    expectError(await t.post('channels/create', { as: member, form: { name: 'x' } }), 400, "Missing 'subscribers' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'subscribers',
    });
    expectError(await t.post('channels/create', { as: guest, form: { name: 'x', subscribers: [] } }), 400, 'Not allowed for guest users');
  });
});

describe('channels are per organization', () => {
  it('never shows or resolves another organization’s channels', async () => {
    const foreign = await t.createOrganization('elsewhere');
    const { design } = await channelIds(t, ['design']);
    // Only the channels every new organization starts with.
    const theirStreams = (await t.get('streams', { as: foreign, query: { include_all: true } })).body.streams;
    expect(theirStreams.map((s: { name: string }) => s.name).sort()).toEqual(['Zulip', 'general', 'sandbox']);
    expectError(await t.get(`streams/${design}`, { as: foreign }), 400, 'Invalid channel ID');
    expectError(await t.patch(`streams/${design}`, { as: foreign, form: { description: 'x' } }), 400, 'Invalid channel ID');
    expectError(await t.get('get_stream_id', { as: foreign, query: { stream: 'design' } }), 400, "Invalid channel name 'design'");
    // The same name is free there, and makes a separate channel.
    expectSuccess(await subscribe(foreign, { subscriptions: [{ name: 'design' }] }), { subscribed: { [foreign.id]: ['design'] } });
    const theirs = (await t.get('get_stream_id', { as: foreign, query: { stream: 'design' } })).body.stream_id;
    expect(theirs).not.toBe(design);
    expectError(await subscribe(member, { subscriptions: [{ name: 'design' }], principals: [foreign.id] }), 400, 'No such user');
  });
});

describe('creating channels needs the organization permissions', () => {
  it('refuses members when only administrators may create channels', async () => {
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      await t.sql(`UPDATE realm_group_settings SET group_id = $1 WHERE setting IN ('can_create_public_channel_group', 'can_create_private_channel_group')`, [
        groups['role:administrators'],
      ]);
      expectError(await subscribe(member, { subscriptions: [{ name: 'nope-public' }] }), 400, 'Insufficient permission');
      expectError(await subscribe(member, { subscriptions: [{ name: 'nope-private' }], invite_only: true }), 400, 'Insufficient permission');
      expectSuccess(await subscribe(member, { subscriptions: [{ name: 'design' }] })); // joining is still fine
      await createChannels(t, ['by-admin'], { as: admin });
    } finally {
      await t.sql(`UPDATE realm_group_settings SET group_id = $1 WHERE setting IN ('can_create_public_channel_group', 'can_create_private_channel_group')`, [
        groups['role:members'],
      ]);
      await c.end();
    }
  });
});

describe('default channels', () => {
  it('are joined by new users', async () => {
    const newcomer = await t.createUser();
    const subs = (await t.get('users/me/subscriptions', { as: newcomer })).body.subscriptions.map((s: { name: string }) => s.name);
    // The organization's initial default channels, and the one this file made default.
    expect(subs).toEqual(['Zulip', 'general', 'sandbox', 'welcome']);
  });
});
