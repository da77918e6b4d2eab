import pg from 'pg';
import zulip from 'zulip-js';
import { createChannels, systemGroups } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** POST /typing (Zulip's zerver/views/typing.py, zerver/actions/typing.py, zerver/tests/test_typing.py). */
let t: TestApp;
let member: Account;
let other: Account;
let guest: Account;
let moderator: Account;
let gone: Account;
let bot: Account & { ownerId: number };
let otherOwner: Account;
let notificationBot: { user_id: number; email: string };
let ch: Record<string, number>;

const STREAM_TYPING = { client_capabilities: { notification_settings_null: false, stream_typing_notifications: true } };
const person = (a: Account) => ({ user_id: a.id, email: a.email });

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  moderator = await t.createUser({ role: 300, fullName: 'Moderator' });
  gone = await t.createUser({ fullName: 'Gone' });
  expectSuccess(await t.delete(`users/${gone.id}`));
  bot = await t.createBot(member, 'typist');
  otherOwner = await t.createOrganization('elsewhere');
  const reg = await t.post('register', { form: { fetch_event_types: ['realm_user'] } });
  notificationBot = reg.body.cross_realm_bots.map((b: { user_id: number; email: string }) => ({ user_id: b.user_id, email: b.email }))[0];
  ch = await createChannels(t, ['lounge', 'old', 'announce'], { form: { principals: [t.owner.id, member.id, other.id, moderator.id] } });
  Object.assign(ch, await createChannels(t, ['secret'], { form: { invite_only: true } }));
  Object.assign(ch, await createChannels(t, ['lobby'], { form: { principals: [guest.id] } }));
  expectSuccess(await t.delete(`streams/${ch.old}`));
  const groups = await systemGroups(t);
  const announce = await t.patch(`streams/${ch.announce}`, { form: { can_send_message_group: { new: groups['role:moderators'] } } });
  expectSuccess(announce);
});
afterAll(() => t.close());

const typing = (as: Account, form: Record<string, unknown>) => t.post('typing', { as, form });

describe('typing in a direct message', () => {
  it('tells every participant, the sender included, with the participants listed', async () => {
    const [m, o, owner] = [await EventClient.register(t, member), await EventClient.register(t, other), await EventClient.register(t, t.owner)];
    const res = await typing(member, { op: 'start', to: [other.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const expected = { type: 'typing', op: 'start', message_type: 'direct', sender: person(member), recipients: [person(other), person(member)] };
    for (const c of [m, o]) expect((await c.ofType('typing')).map(({ id: _, ...e }) => e)).toEqual([expected]);
    expect(await owner.drain()).toEqual([]);
  });

  it('keeps the order of `to`, adds the sender last when absent, and sends "stop" alike', async () => {
    const [m, o] = [await EventClient.register(t, member), await EventClient.register(t, other)];
    expectSuccess(await typing(member, { op: 'stop', to: [other.id, t.owner.id], type: 'direct' }));
    const [e] = await o.ofType('typing');
    expect(e).toMatchObject({ op: 'stop', recipients: [person(other), person(t.owner), person(member)] });
    expect(await m.ofType('typing')).toHaveLength(1);
    expectSuccess(await typing(member, { op: 'start', to: [member.id] }));
    expect((await m.ofType('typing'))[0]).toMatchObject({ sender: person(member), recipients: [person(member)] });
    expect(await o.drain()).toEqual([]);
  });

  it('names deactivated users and bots but tells only active users', async () => {
    const [m, b] = [await EventClient.register(t, member), await EventClient.register(t, bot)];
    expectSuccess(await typing(member, { op: 'start', to: [gone.id, bot.id, notificationBot.user_id] }));
    const [e] = await m.ofType('typing');
    expect(e.recipients).toEqual([person(gone), person(bot), notificationBot, person(member)]);
    expect(await b.ofType('typing')).toHaveLength(1);
  });

  it('lets bots and guests type too', async () => {
    expectSuccess(await typing(bot, { op: 'start', to: [member.id] }));
    expectSuccess(await typing(guest, { op: 'start', to: [member.id] }));
  });

  it.each([
    [{ to: [1] }, "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'op' }],
    [{ to: [1], op: 'foo' }, 'Invalid op'],
    [{ op: 'foo', stream_id: 1, topic: 'topic' }, 'Invalid op'],
    [{ to: [1], op: 'start', type: 'invalid' }, 'Invalid type'],
    [{ to: [1], op: 'start', type: 'private' }, 'Invalid type'],
    [{ op: 'start', to: '2' }, 'to is not a list'],
    [{ op: 'start', to: [2, 'a', 4] }, 'to[1] is not an integer'],
    [{ op: 'start', to: ['other@example.com'] }, 'to[0] is not an integer'],
    [{ op: 'start', to: [2.5] }, 'to[0] is not an integer'],
    [{ op: 'start', to: 'not json' }, 'to is not valid JSON'],
    [{ op: 'start', to: [] }, "Empty 'to' list"],
    [{ op: 'start', to: null }, "Missing 'to' argument"],
    [{ op: 'start' }, "Missing 'to' argument"],
    [{ op: 'start', type: 'direct' }, "Missing 'to' argument"],
    [{ op: 'start', to: [9_999_999] }, 'Invalid user ID 9999999'],
    [{ op: 'start', to: [2 ** 40] }, `Invalid user ID ${2 ** 40}`],
    [{ op: 'start', to: [-1] }, 'Invalid user ID -1'],
  ])('refuses %j: %s', async (form, msg, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => {
    const o = await EventClient.register(t, other);
    expectError(await typing(member, form), 400, msg, code, extra);
    expect(await o.drain()).toEqual([]);
  });

  it('treats users of another organization as unknown, the first unknown ID in the order given', async () => {
    expectError(await typing(member, { op: 'start', to: [other.id, otherOwner.id, 9_999_998] }), 400, `Invalid user ID ${otherOwner.id}`);
    expectError(await typing(otherOwner, { op: 'start', to: [member.id] }), 400, `Invalid user ID ${member.id}`);
  });

  it('reports parameters it does not know', async () => {
    const res = await typing(member, { op: 'start', to: [other.id], color: 'red' });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['color'] });
  });
});

describe('typing in a channel', () => {
  it('tells the subscribers whose clients show channel typing', async () => {
    const [m, o, plain, outsider] = [
      await EventClient.register(t, member, STREAM_TYPING),
      await EventClient.register(t, other, STREAM_TYPING),
      await EventClient.register(t, other),
      await EventClient.register(t, guest, STREAM_TYPING),
    ];
    for (const type of ['stream', 'channel']) {
      expectSuccess(await typing(member, { type, op: 'start', stream_id: ch.lounge, topic: ' Lunch plans ' }));
      const expected = { type: 'typing', op: 'start', message_type: 'stream', sender: person(member), stream_id: ch.lounge, topic: 'Lunch plans' };
      for (const c of [m, o]) expect((await c.ofType('typing')).map(({ id: _, ...e }) => e)).toEqual([expected]);
    }
    expect(await plain.drain()).toEqual([]);
    expect(await outsider.drain()).toEqual([]);
  });

  it('takes `subject` for `topic`, and shows the empty topic as clients expect', async () => {
    const modern = await EventClient.register(t, other, { client_capabilities: { ...STREAM_TYPING.client_capabilities, empty_topic_name: true } });
    const older = await EventClient.register(t, other, STREAM_TYPING);
    for (const topic of ['general chat', '(no topic)', '']) {
      expectSuccess(await typing(member, { type: 'channel', op: 'stop', stream_id: ch.lounge, subject: topic }));
      expect((await modern.ofType('typing'))[0]).toMatchObject({ op: 'stop', topic: '' });
      expect((await older.ofType('typing'))[0]).toMatchObject({ op: 'stop', topic: 'general chat' });
    }
    expectError(await typing(member, { type: 'channel', op: 'stop', stream_id: ch.lounge, topic: 'a', subject: 'b' }), 400, "Can't decide between 'topic' and 'subject' arguments", 'REQUEST_CONFUSING_VAR', {
      var_name1: 'topic',
      var_name2: 'subject',
    });
  });

  it('lets a member type in a public channel they are not subscribed to', async () => {
    const o = await EventClient.register(t, other, STREAM_TYPING);
    expectSuccess(await typing(guest, { type: 'stream', op: 'start', stream_id: ch.lobby, topic: 'hi' }));
    expectSuccess(await typing(other, { type: 'stream', op: 'start', stream_id: ch.lobby, topic: 'hi' }));
    // other is not subscribed to lobby: nothing for them.
    expect(await o.drain()).toEqual([]);
  });

  it('follows the channel posting permission, a bot also by its owner', async () => {
    const denied = 'You do not have permission to post in this channel.';
    expectError(await typing(member, { type: 'stream', op: 'start', stream_id: ch.announce, topic: 'x' }), 400, denied);
    expectError(await typing(bot, { type: 'stream', op: 'start', stream_id: ch.announce, topic: 'x' }), 400, denied);
    expectSuccess(await typing(moderator, { type: 'stream', op: 'start', stream_id: ch.announce, topic: 'x' }));
    expectSuccess(await typing(bot, { type: 'stream', op: 'start', stream_id: ch.lounge, topic: 'x' }));
  });

  it.each([
    [{ type: 'stream', op: 'start', topic: 'test' }, "Missing 'stream_id' argument"],
    [{ type: 'channel', op: 'start', stream_id: null, topic: 'test' }, "Missing 'stream_id' argument"],
    [{ type: 'stream', op: 'start', stream_id: 'invalid', topic: 'test' }, 'stream_id is not valid JSON'],
    [{ type: 'stream', op: 'start', stream_id: '"5"', topic: 'test' }, 'stream_id is not an integer'],
    [{ type: 'stream', op: 'start', stream_id: 2 ** 40, topic: 'test' }, 'Invalid channel ID'],
    [{ type: 'stream', op: 'start', stream_id: 9_999_999, topic: 'test' }, 'Invalid channel ID'],
  ])('refuses %j: %s', async (form, msg) => {
    expectError(await typing(member, form), 400, msg);
  });

  it('needs the channel id before the topic', async () => {
    expectError(await typing(member, { type: 'stream', op: 'start' }), 400, "Missing 'stream_id' argument");
    expectError(await typing(member, { type: 'stream', op: 'start', stream_id: ch.lounge }), 400, 'Missing topic');
  });

  it('refuses archived, unreadable and other organizations\' channels alike', async () => {
    const o = await EventClient.register(t, other, STREAM_TYPING);
    expectSuccess(await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'theirs' }] } }));
    const theirs = (await t.get('streams', { as: otherOwner })).body.streams.find((s: { name: string }) => s.name === 'theirs').stream_id;
    for (const [as, id] of [
      [member, ch.old],
      [member, ch.secret],
      [guest, ch.lounge],
      [member, theirs],
    ] as const) {
      expectError(await typing(as, { type: 'stream', op: 'start', stream_id: id, topic: 'x' }), 400, 'Invalid channel ID');
    }
    expect(await o.drain()).toEqual([]);
  });

  it('stays silent in channels with more than 100 subscribers', async () => {
    const { crowded } = await createChannels(t, ['crowded'], { form: { principals: [t.owner.id, member.id] } });
    const m = await EventClient.register(t, member, STREAM_TYPING);
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      // 98 more: 100 subscribers in all, still told.
      await t.sql(
        `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
         SELECT 1, 'crowd' || g || '@example.com', 'crowd' || g || '@example.com', 'Crowd ' || g, md5('crowd' || g), 400
         FROM generate_series(1, 99) AS g`,
      );
      await c.query(`INSERT INTO subscriptions (realm_id, user_id, channel_id, color) SELECT 1, id, $1, '#c2c2c2' FROM users WHERE email LIKE 'crowd%' AND email <> 'crowd99@example.com'`, [crowded]);
      expectSuccess(await typing(member, { type: 'stream', op: 'start', stream_id: crowded, topic: 'x' }));
      expect(await m.ofType('typing')).toHaveLength(1);
      await c.query(`INSERT INTO subscriptions (realm_id, user_id, channel_id, color) SELECT 1, id, $1, '#c2c2c2' FROM users WHERE email = 'crowd99@example.com'`, [crowded]);
      expectSuccess(await typing(member, { type: 'stream', op: 'start', stream_id: crowded, topic: 'x' }));
      expect(await m.drain()).toEqual([]);
      // Deactivated subscribers do not count.
      await t.sql(`UPDATE users SET is_active = false WHERE email = 'crowd99@example.com'`);
      expectSuccess(await typing(member, { type: 'stream', op: 'start', stream_id: crowded, topic: 'x' }));
      expect(await m.ofType('typing')).toHaveLength(1);
    } finally {
      await c.end();
    }
  });
});

describe('typing through zulip-js', () => {
  it('sends typing.send to one or several users', async () => {
    await t.app.listen(0, '127.0.0.1');
    const client = await zulip({ username: member.email, apiKey: member.apiKey, realm: await t.app.getUrl() });
    const o = await EventClient.register(t, other);
    expect(await client.typing.send({ to: [other.id], op: 'start' })).toEqual({ result: 'success', msg: '' });
    expect((await o.ofType('typing'))[0]).toMatchObject({ op: 'start', sender: person(member), recipients: [person(other), person(member)] });
    expect(await client.typing.send({ to: [other.id, t.owner.id], op: 'stop' })).toEqual({ result: 'success', msg: '' });
    expect((await o.ofType('typing'))[0]).toMatchObject({ op: 'stop', recipients: [person(other), person(t.owner), person(member)] });
  });
});

describe('the typing settings (PATCH /settings)', () => {
  it('a sender who shares no typing is refused; a receiver who wants none is not told', async () => {
    expectSuccess(await t.patch('settings', { as: member, form: { send_private_typing_notifications: false } }));
    expectError(await typing(member, { op: 'start', to: [other.id] }), 400, 'User has disabled typing notifications for direct messages');
    expectSuccess(await t.patch('settings', { as: member, form: { send_private_typing_notifications: true } }));
    expectSuccess(await t.patch('settings', { as: other, form: { receives_typing_notifications: false } }));
    const [m, o] = [await EventClient.register(t, member), await EventClient.register(t, other)];
    expectSuccess(await typing(member, { op: 'start', to: [other.id] }));
    expect((await m.ofType('typing')).length).toBe(1);
    expect(await o.drain()).toEqual([]);
    expectSuccess(await t.patch('settings', { as: other, form: { receives_typing_notifications: true } }));
  });

  it('channel typing follows send_stream_typing_notifications', async () => {
    expectSuccess(await t.patch('settings', { as: member, form: { send_stream_typing_notifications: false } }));
    const res = await typing(member, { op: 'start', type: 'stream', stream_id: ch.lounge, topic: 'lunch' });
    expectError(res, 400, 'User has disabled typing notifications for channel messages');
    expectSuccess(await t.patch('settings', { as: member, form: { send_stream_typing_notifications: true } }));
    expectSuccess(await typing(member, { op: 'start', type: 'stream', stream_id: ch.lounge, topic: 'lunch' }));
  });
});

describe('many typing notifications at once', () => {
  // Found by `npm run load`: each request held its transaction's connection while asking the
  // pool for a second one (the receivers' settings), so as many concurrent requests as pooled
  // connections (DB_POOL_SIZE, 10) waited on each other forever and the server stopped answering.
  it('all answer, ten times as many as pooled connections, and the server goes on serving', async () => {
    const requests = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? typing(member, { op: 'start', to: [other.id] })
        : typing(member, { op: 'start', type: 'stream', stream_id: ch.lounge, topic: `t${i}` }),
    );
    for (const res of await Promise.all(requests)) expectSuccess(res);
    expectSuccess(await t.get('users/me', { as: member }));
  }, 60_000);
});
