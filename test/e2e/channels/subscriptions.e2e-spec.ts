import { createChannels, subscription, systemGroups } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let member: Account;
let other: Account;
let guest: Account;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200 });
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  guest = await t.createUser({ role: 600 });
  ids = await createChannels(t, ['general', 'random']);
  Object.assign(ids, await createChannels(t, ['private'], { as: member, form: { invite_only: true } }));
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }, { name: 'random' }], principals: [member.id, other.id, guest.id] } });
});
afterAll(() => t.close());

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

describe('personal subscription settings', () => {
  it('sets colour and in_home_view, and in_home_view is the inverse of is_muted', async () => {
    const res = await t.post('users/me/subscriptions/properties', {
      as: member,
      form: {
        subscription_data: [
          { stream_id: ids.general, property: 'color', value: '#FF0000' },
          { stream_id: ids.general, property: 'in_home_view', value: false },
          { stream_id: ids.random, property: 'pin_to_top', value: true },
          { stream_id: ids.random, property: 'desktop_notifications', value: false },
        ],
      },
    });
    expectSuccess(res);
    expect(await subscription(t, member, ids.general)).toMatchObject({ color: '#FF0000', is_muted: true, in_home_view: false });
    expect(await subscription(t, member, ids.random)).toMatchObject({ pin_to_top: true, desktop_notifications: false });
    expectSuccess(
      await t.post('users/me/subscriptions/properties', { as: member, form: { subscription_data: [{ stream_id: ids.general, property: 'is_muted', value: false }] } }),
    );
    expect(await subscription(t, member, ids.general)).toMatchObject({ is_muted: false, in_home_view: true });
  });

  it('validates every entry before changing anything', async () => {
    const res = await t.post('users/me/subscriptions/properties', {
      as: member,
      form: {
        subscription_data: [
          { stream_id: ids.random, property: 'pin_to_top', value: false },
          { stream_id: ids.random, property: 'color', value: 'blue' },
        ],
      },
    });
    expectError(res, 400, 'Invalid subscription_data[1]: Value error, color is not a valid hex color code');
    expect((await subscription(t, member, ids.random)).pin_to_top).toBe(true);
  });

  it.each([
    [[{ stream_id: 1, property: 'volume', value: true }], 'Unknown subscription property: volume'],
    [[{ stream_id: 1, property: 'is_muted', value: 'yes' }], 'is_muted is not a boolean'],
    [[{ stream_id: 424242, property: 'is_muted', value: true }], 'Invalid channel ID'],
    [[{ property: 'is_muted', value: true }], 'subscription_data[0]["stream_id"] field is missing: Field required'],
  ])('rejects %j', async (data, msg) => {
    expectError(await t.post('users/me/subscriptions/properties', { as: member, form: { subscription_data: data } }), 400, msg);
  });

  it('needs a subscription, and access to the channel', async () => {
    const { lonely } = await createChannels(t, ['lonely']);
    expectError(
      await t.post('users/me/subscriptions/properties', { as: member, form: { subscription_data: [{ stream_id: lonely, property: 'pin_to_top', value: true }] } }),
      400,
      `Not subscribed to channel ID ${lonely}`,
    );
    expectError(
      await t.post('users/me/subscriptions/properties', { as: other, form: { subscription_data: [{ stream_id: ids.private, property: 'pin_to_top', value: true }] } }),
      400,
      'Invalid channel ID',
    );
  });

  it('has a single-channel form whose value is JSON when it parses', async () => {
    expectSuccess(await t.post(`users/me/subscriptions/${ids.random}`, { as: member, form: { property: 'color', value: '#00ff00' } }));
    expect((await subscription(t, member, ids.random)).color).toBe('#00ff00');
    expectSuccess(await t.post(`users/me/subscriptions/${ids.random}`, { as: member, form: { property: 'is_muted', value: 'true' } }));
    expect((await subscription(t, member, ids.random)).in_home_view).toBe(false);
    expectError(await t.post(`users/me/subscriptions/${ids.random}`, { as: member, form: { property: 'color', value: 'true' } }), 400, 'color is not a valid hex color code');
    expectError(await t.post(`users/me/subscriptions/${ids.random}`, { as: member, form: { property: 'pin_to_top', value: 'yes' } }), 400, 'pin_to_top is not a boolean');
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes oneself, listing what was not subscribed', async () => {
    const { leave } = await createChannels(t, ['leave'], { as: other });
    // The fifth palette colour: other already uses the first four (the initial default channels
    // Zulip, sandbox and general, which other joined on signup, then random).
    expect(await subscription(t, other, leave)).toMatchObject({ stream_id: leave, color: '#bfd56f', is_muted: false, pin_to_top: false });
    const settings = [
      { stream_id: leave, property: 'is_muted', value: true },
      { stream_id: leave, property: 'pin_to_top', value: true },
    ];
    expectSuccess(await t.post('users/me/subscriptions/properties', { as: other, form: { subscription_data: settings } }));
    const res = await t.delete('users/me/subscriptions', { as: other, query: { subscriptions: ['leave', 'private'] } });
    expectSuccess(res, { removed: ['leave'], not_removed: ['private'] });
    expect(await subscription(t, other, leave)).toBeUndefined();
    // Resubscribing restores the subscription with its colour and settings.
    expectSuccess(await t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'leave' }] } }), {
      subscribed: { [other.id]: ['leave'] },
      already_subscribed: {},
    });
    expect(await subscription(t, other, leave)).toMatchObject({
      stream_id: leave,
      name: 'leave',
      color: '#bfd56f',
      is_muted: true,
      in_home_view: false,
      pin_to_top: true,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it('answers a missing channel with STREAM_DOES_NOT_EXIST and removes nothing', async () => {
    const res = await t.delete('users/me/subscriptions', { as: other, form: { subscriptions: ['general', 'no-such-channel'] } });
    expectError(res, 400, "Channel 'no-such-channel' does not exist", 'STREAM_DOES_NOT_EXIST', {
      stream: 'no-such-channel',
      channel_name: 'no-such-channel',
    });
    expect(await subscription(t, other, ids.general)).toMatchObject({ stream_id: ids.general, name: 'general', color: '#a6c7e5', is_muted: false });
  });

  it('lets administrators remove others, and members only with can_remove_subscribers_group', async () => {
    expectError(
      await t.delete('users/me/subscriptions', { as: member, form: { subscriptions: ['random'], principals: [other.id] } }),
      400,
      'Insufficient permission',
    );
    expectSuccess(await t.delete('users/me/subscriptions', { as: admin, form: { subscriptions: ['random'], principals: [other.id] } }), {
      removed: ['random'],
      not_removed: [],
    });
    const groups = await systemGroups(t);
    expectSuccess(await t.patch(`streams/${ids.general}`, { form: { can_remove_subscribers_group: { new: groups['role:members'] } } }));
    expectSuccess(await t.delete('users/me/subscriptions', { as: member, form: { subscriptions: ['general'], principals: [other.email] } }), {
      removed: ['general'],
    });
    expectError(
      await t.delete('users/me/subscriptions', { as: guest, form: { subscriptions: ['general'], principals: [member.id] } }),
      400,
      'Insufficient permission',
    );
  });

  it('lets a user remove their own bot', async () => {
    const bot = await t.createBot(other, 'ownbot');
    await t.post('users/me/subscriptions', { as: bot, form: { subscriptions: [{ name: 'random' }] } });
    expectSuccess(await t.delete('users/me/subscriptions', { as: other, form: { subscriptions: ['random'], principals: [bot.id] } }), {
      removed: ['random'],
    });
  });

  it('refuses unknown and deactivated principals with 400', async () => {
    expectError(await t.delete('users/me/subscriptions', { as: admin, form: { subscriptions: ['random'], principals: [424242] } }), 400, 'No such user');
    const gone = await t.createUser();
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await t.delete('users/me/subscriptions', { as: admin, form: { subscriptions: ['random'], principals: [gone.id] } }), 400, 'User is deactivated');
  });
});

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  const mute = (form: Record<string, unknown>, as: Account = member) => t.patch('users/me/subscriptions/muted_topics', { as, form });
  const policy = async (channelId: number, topic: string) =>
    (await sql('SELECT visibility_policy FROM user_topics WHERE user_id = $1 AND channel_id = $2 AND topic_name = $3', [member.id, channelId, topic]))[0]
      ?.visibility_policy;

  it('mutes and unmutes a topic, twice each, by id or name', async () => {
    expectSuccess(await mute({ stream_id: ids.random, topic: 'lunch', op: 'add' }));
    expectSuccess(await mute({ stream: 'random', topic: 'lunch', op: 'add' }));
    expect(await policy(ids.random, 'lunch')).toBe(1);
    expectSuccess(await mute({ stream_id: ids.random, topic: 'lunch', op: 'remove' }));
    expectSuccess(await mute({ stream_id: ids.random, topic: 'lunch', op: 'remove' }));
    expect(await policy(ids.random, 'lunch')).toBeUndefined();
  });

  it.each([
    [{ topic: 't', op: 'add' }, "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' }],
    [{ stream_id: 1, stream: 'random', topic: 't', op: 'add' }, 'Unsupported parameter combination: stream_id, stream', 'BAD_REQUEST', { parameters: 'stream_id, stream' }],
    [{ stream: 'random', topic: 'x'.repeat(61), op: 'add' }, 'topic is too long (limit: 60 characters)', 'BAD_REQUEST', {}],
    [{ stream: 'random', topic: 't', op: 'mute' }, 'Invalid op', 'BAD_REQUEST', {}],
    [{ stream: 'nowhere', topic: 't', op: 'remove' }, 'Topic is not muted', 'BAD_REQUEST', {}],
    [{ stream: 'nowhere', topic: 't', op: 'add' }, "Invalid channel name 'nowhere'", 'BAD_REQUEST', {}],
  ])('rejects %j', async (form, msg, code, extra) => {
    expectError(await mute(form), 400, msg, code, extra);
  });

  it('needs a subscription to mute, and access to the channel', async () => {
    const { quiet } = await createChannels(t, ['quiet']);
    expectError(await mute({ stream_id: quiet, topic: 't', op: 'add' }), 400, 'Not subscribed to channel');
    expectError(await mute({ stream_id: ids.private, topic: 't', op: 'add' }, other), 400, 'Invalid channel ID');
  });
});

describe('GET /streams/{id}/email_address', () => {
  it('gives a stable address with the channel slug and the gateway domain', async () => {
    const first = await t.get(`streams/${ids.general}/email_address`, { as: member });
    expectSuccess(first);
    expect(first.body.email).toMatch(/^general\.[0-9a-f]{32}\.show-sender@chat\.example\.com$/);
    expect((await t.get(`streams/${ids.general}/email_address`, { as: member })).body.email).toBe(first.body.email);
    const own = await t.get(`streams/${ids.general}/email_address`, { as: member, query: { sender_id: member.id } });
    expect(own.body.email).not.toBe(first.body.email);
  });

  it('drops a name that does not slugify cleanly', async () => {
    const { 'Café ☕': cafe } = await createChannels(t, ['Café ☕']);
    expect((await t.get(`streams/${cafe}/email_address`)).body.email).toMatch(/^[0-9a-f]{32}\.show-sender@chat\.example\.com$/);
    const { 'Verona 2': verona } = await createChannels(t, ['Verona 2']);
    expect((await t.get(`streams/${verona}/email_address`)).body.email).toMatch(/^verona-2\.[0-9a-f]{32}\.show-sender@/);
  });

  it('accepts the caller’s own bots as senders, not others', async () => {
    const bot = await t.createBot(member, 'mailer');
    expectSuccess(await t.get(`streams/${ids.general}/email_address`, { as: member, query: { sender_id: bot.id } }));
    expectError(await t.get(`streams/${ids.general}/email_address`, { as: other, query: { sender_id: bot.id } }), 400, 'Insufficient permission');
    expectError(await t.get(`streams/${ids.general}/email_address`, { as: member, query: { sender_id: other.id } }), 400, 'No such bot');
    expectError(await t.get(`streams/${ids.private}/email_address`, { as: other }), 400, 'Invalid channel ID');
  });
});

describe('reading channels', () => {
  it('lists what each role may see', async () => {
    const names = async (as: Account, query: Record<string, unknown> = {}) =>
      (await t.get('streams', { as, query })).body.streams.map((s: { name: string }) => s.name);
    expect(await names(member)).toContain('private');
    expect(await names(other)).not.toContain('private');
    expect(await names(admin, { include_all: true })).toContain('private');
    expect(await names(other, { include_all: true })).not.toContain('private');
    // Guests see their subscriptions only, not other public channels.
    const guestNames = await names(guest);
    expect(guestNames).toEqual(expect.arrayContaining(['general']));
    expect(guestNames).not.toContain('quiet');
    expect(await names(member, { include_public: false, include_subscribed: false })).toEqual([]);
  });

  it('resolves ids and members within what the caller may see', async () => {
    expectSuccess(await t.get('get_stream_id', { as: member, query: { stream: 'PRIVATE' } }), { stream_id: ids.private });
    expectError(await t.get('get_stream_id', { as: other, query: { stream: 'private' } }), 400, "Invalid channel name 'private'");
    expectError(await t.get(`streams/${ids.private}`, { as: other }), 400, 'Invalid channel ID');
    expectSuccess(await t.get(`streams/${ids.private}`, { as: admin }));
    expectSuccess(await t.get(`streams/${ids.private}/members`, { as: member }), { subscribers: [member.id] });
    expectError(await t.get(`streams/${ids.private}/members`, { as: other }), 400, 'Invalid channel ID');
  });

  it('includes subscribers on request', async () => {
    const res = await t.get('users/me/subscriptions', { as: member, query: { include_subscribers: true } });
    const general = res.body.subscriptions.find((s: { name: string }) => s.name === 'general');
    expect(general.subscribers).toEqual(expect.arrayContaining([t.owner.id, member.id]));
    expect(res.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(
      [...res.body.subscriptions.map((s: { name: string }) => s.name)].sort(),
    );
  });
});
