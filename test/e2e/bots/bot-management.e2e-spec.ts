import { DataSource } from 'typeorm';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let member: Account;
let member2: Account;
let guest: Account;
let otherOwner: Account;
let otherBotId: number;
let deactivatedHuman: Account;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  member = await t.createUser({ fullName: 'Member' });
  member2 = await t.createUser({ fullName: 'Member Two' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  deactivatedHuman = await t.createUser({ fullName: 'Gone' });
  expectSuccess(await t.delete(`users/${deactivatedHuman.id}`));
  await createChannels(t, ['Public one']);
  await createChannels(t, ['Secret one'], { form: { invite_only: true } });
  otherOwner = await t.createOrganization('other');
  const b = await t.post('bots', { as: otherOwner, form: { full_name: 'Other bot', short_name: 'far' } });
  expectSuccess(b);
  otherBotId = b.body.user_id;
});
afterAll(() => t.close());

const db = () => t.app.get(DataSource);
const botRow = async (id: number) =>
  (
    await db().query(
      `SELECT full_name, role, is_active, api_key, bot_owner_id, default_sending_stream_id, default_events_register_stream_id,
              default_all_public_streams FROM users WHERE id = $1`,
      [id],
    )
  )[0];
let n = 0;
const newBot = async (owner: Account = member) => t.createBot(owner, `mgmt${++n}`);

describe('GET /bots', () => {
  it('lists the caller’s active bots, oldest first, with Zulip’s fields', async () => {
    const owner = await t.createUser({ fullName: 'Lister' });
    const a = await newBot(owner);
    const b = await newBot(owner);
    const gone = await newBot(owner);
    expectSuccess(await t.delete(`bots/${gone.id}`, { as: owner }));
    await newBot(member2);
    const res = await t.get('bots', { as: owner });
    expectSuccess(res);
    expect(res.body.bots).toEqual([
      {
        username: a.email,
        full_name: `mgmt${n - 3} bot`,
        api_key: a.apiKey,
        avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
      expect.objectContaining({ username: b.email, api_key: b.apiKey }),
    ]);
  });

  it('administrators see only their own bots; guests are refused', async () => {
    const res = await t.get('bots', { as: admin });
    expectSuccess(res, { bots: [] });
    expectError(await t.get('bots', { as: guest }), 400, 'Not allowed for guest users');
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('renames, changes defaults and answers as Zulip does; events reach owners and everyone', async () => {
    const bot = await newBot();
    const ownerQ = await EventClient.register(t, member, { event_types: ['realm_bot', 'realm_user'] });
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_bot'] });
    const otherQ = await EventClient.register(t, member2, { event_types: ['realm_bot', 'realm_user'] });
    const res = await t.patch(`bots/${bot.id}`, {
      as: member,
      form: { full_name: 'Renamed bot', default_sending_stream: 'Public one', default_events_register_stream: 'Public one', default_all_public_streams: true },
    });
    expectSuccess(res);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      full_name: 'Renamed bot',
      avatar_url: expect.any(String),
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: 'Public one',
      default_events_register_stream: 'Public one',
      default_all_public_streams: true,
      bot_owner: member.email,
    });
    const row = await botRow(bot.id);
    expect(row).toMatchObject({ full_name: 'Renamed bot', default_all_public_streams: true });
    expect(row.default_sending_stream_id).not.toBeNull();
    const update = (fields: Record<string, unknown>) => expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } });
    const expected = [
      update({ full_name: 'Renamed bot' }),
      update({ default_sending_stream: 'Public one' }),
      update({ default_events_register_stream: 'Public one' }),
      update({ default_all_public_streams: true }),
    ];
    expect(await ownerQ.ofType('realm_bot', 4)).toEqual(expected);
    expect(await adminQ.ofType('realm_bot', 4)).toEqual(expected);
    const others = await otherQ.next();
    expect(others).toEqual([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: 'Renamed bot' } })]);

    // "" clears a default channel.
    const cleared = await t.patch(`bots/${bot.id}`, { as: member, form: { default_sending_stream: '' } });
    expectSuccess(cleared, { default_sending_stream: null, default_events_register_stream: 'Public one' });
  });

  it('a bot renamed through PATCH /users/{id} tells its owners with realm_bot, everyone with realm_user (Zulip’s do_change_full_name)', async () => {
    const bot = await newBot(member);
    const ownerQ = await EventClient.register(t, member, { event_types: ['realm_bot'] });
    const otherQ = await EventClient.register(t, member2, { event_types: ['realm_bot', 'realm_user'] });
    expectSuccess(await t.patch(`users/${bot.id}`, { as: admin, form: { full_name: 'Renamed by an admin' } }));
    expect(await ownerQ.next()).toEqual([expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, full_name: 'Renamed by an admin' } })]);
    expect(await otherQ.next()).toEqual([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: 'Renamed by an admin' } })]);
    // A role change is a realm_user update only.
    expectSuccess(await t.patch(`users/${bot.id}`, { as: admin, form: { role: 300 } }));
    expect(await otherQ.next()).toEqual([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, role: 300 } })]);
    expect(await ownerQ.drain()).toEqual([]);
  });

  it('a private default channel needs a subscription and then keeps realm_bot events to the owner', async () => {
    const bot = await newBot(member);
    const before = await botRow(bot.id);
    expectError(await t.patch(`bots/${bot.id}`, { as: member, form: { default_sending_stream: 'Secret one' } }), 400, "Invalid channel name 'Secret one'");
    expectError(await t.patch(`bots/${bot.id}`, { as: member, form: { full_name: 'Half', default_events_register_stream: 'Nope' } }), 400, "Invalid channel name 'Nope'");
    expect(await botRow(bot.id)).toEqual(before);
    const ownBot = await newBot(t.owner);
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_bot'] });
    const ownerQ = await EventClient.register(t, t.owner, { event_types: ['realm_bot'] });
    expectSuccess(await t.patch(`bots/${ownBot.id}`, { form: { default_sending_stream: 'Secret one' } }), { default_sending_stream: 'Secret one' });
    expectSuccess(await t.patch(`bots/${ownBot.id}`, { form: { default_all_public_streams: true } }));
    expect((await ownerQ.ofType('realm_bot', 2)).length).toBe(2);
    expect(await adminQ.drain()).toEqual([]);
  });

  it('transfers ownership with Zulip’s delete / add / update events', async () => {
    const bot = await newBot(member);
    const oldQ = await EventClient.register(t, member, { event_types: ['realm_bot', 'realm_user'] });
    const newQ = await EventClient.register(t, member2, { event_types: ['realm_bot'] });
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_bot'] });
    const res = await t.patch(`bots/${bot.id}`, { as: member, form: { bot_owner_id: member2.id } });
    expectSuccess(res, { bot_owner: member2.email });
    expect((await botRow(bot.id)).bot_owner_id).toBe(member2.id);
    const oldEvents = await oldQ.next();
    expect(oldEvents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }),
        expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: member2.id } }),
      ]),
    );
    const [added] = await newQ.ofType('realm_bot');
    expect(added).toMatchObject({
      op: 'add',
      bot: {
        email: bot.email,
        user_id: bot.id,
        bot_type: 1,
        is_active: true,
        api_key: bot.apiKey,
        owner_id: member2.id,
        services: [],
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
    });
    expect(await adminQ.ofType('realm_bot')).toEqual([
      expect.objectContaining({ op: 'update', bot: { user_id: bot.id, owner_id: member2.id } }),
    ]);
    // The old owner no longer manages it.
    expectError(await t.patch(`bots/${bot.id}`, { as: member, form: { full_name: 'Mine again' } }), 400, 'Insufficient permission');
  });

  it('refuses bad owners, taken names, bad names and wrong types; nothing is written', async () => {
    const bot = await newBot(member);
    const other = await newBot(member);
    const before = await botRow(bot.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ bot_owner_id: 999999 }, 'Failed to change owner, no such user'],
      [{ bot_owner_id: otherOwner.id }, 'Failed to change owner, no such user'],
      [{ bot_owner_id: deactivatedHuman.id }, 'Failed to change owner, user is deactivated'],
      [{ bot_owner_id: other.id }, "Failed to change owner, bots can't own other bots"],
      [{ bot_owner_id: '"x"' }, 'bot_owner_id is not an integer'],
      [{ full_name: 'Member Two' }, 'Name is already in use.'],
      [{ full_name: 'x'.repeat(101) }, 'Name too long!'],
      [{ full_name: 'Fine', bot_owner_id: deactivatedHuman.id }, 'Failed to change owner, user is deactivated'],
      [{ default_all_public_streams: 'maybe' }, 'default_all_public_streams is not valid JSON'],
      [{ default_all_public_streams: '"yes"' }, 'default_all_public_streams is not a boolean'],
      [{ role: 500 }, 'Invalid role'],
      [{ role: '"x"' }, 'role is not an integer'],
    ];
    for (const [form, msg] of cases) {
      expectError(await t.patch(`bots/${bot.id}`, { as: member, form }), 400, msg);
    }
    expect(await botRow(bot.id)).toEqual(before);
  });

  it('role changes need an administrator (and an owner for the owner role)', async () => {
    const bot = await newBot(member);
    expectError(await t.patch(`bots/${bot.id}`, { as: member, form: { role: 300 } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.patch(`bots/${bot.id}`, { as: admin, form: { role: 100 } }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expect((await botRow(bot.id)).role).toBe(400);
    const q = await EventClient.register(t, member2, { event_types: ['realm_user'] });
    expectSuccess(await t.patch(`bots/${bot.id}`, { as: admin, form: { role: 300 } }));
    expect((await botRow(bot.id)).role).toBe(300);
    expect(await q.ofType('realm_user')).toEqual([expect.objectContaining({ op: 'update', person: { user_id: bot.id, role: 300 } })]);
  });
});

describe('access: unknown ids, other organizations, humans, other owners', () => {
  it.each([
    ['an unknown id', () => 999999],
    ['another organization’s bot', () => otherBotId],
    ['a human user', () => member2.id],
    ['another organization’s owner', () => otherOwner.id],
  ])('%s reads "No such bot" on every route and nothing changes', async (_what, id) => {
    const before = await db().query(`SELECT id, full_name, api_key, is_active, bot_owner_id FROM users ORDER BY id`);
    expectError(await t.patch(`bots/${id()}`, { as: admin, form: { full_name: 'Hijack' } }), 400, 'No such bot');
    expectError(await t.delete(`bots/${id()}`, { as: admin }), 400, 'No such bot');
    expectError(await t.post(`bots/${id()}/api_key/regenerate`, { as: admin }), 400, 'No such bot');
    expectError(await t.get(`bots/${id()}/api_key`, { as: admin }), 400, 'No such bot');
    expect(await db().query(`SELECT id, full_name, api_key, is_active, bot_owner_id FROM users ORDER BY id`)).toEqual(before);
  });

  it('another member’s bot: "Insufficient permission"; guests are refused', async () => {
    const bot = await newBot(member);
    const before = await botRow(bot.id);
    expectError(await t.patch(`bots/${bot.id}`, { as: member2, form: { full_name: 'Mine' } }), 400, 'Insufficient permission');
    expectError(await t.delete(`bots/${bot.id}`, { as: member2 }), 400, 'Insufficient permission');
    expectError(await t.post(`bots/${bot.id}/api_key/regenerate`, { as: member2 }), 400, 'Insufficient permission');
    expectError(await t.get(`bots/${bot.id}/api_key`, { as: member2 }), 400, 'Insufficient permission');
    expectError(await t.get(`bots/${bot.id}/api_key`, { as: guest }), 400, 'Not allowed for guest users');
    expectError(await t.patch(`bots/${bot.id}`, { as: guest, form: { full_name: 'Mine' } }), 400, 'Not allowed for guest users');
    expectError(await t.delete(`bots/${bot.id}`, { as: guest }), 400, 'Insufficient permission');
    expect(await botRow(bot.id)).toEqual(before);
  });
});

describe('DELETE /bots/{bot_id}', () => {
  it('deactivates the bot; realm_user and realm_bot updates; the bot can no longer authenticate', async () => {
    const bot = await newBot(member);
    const ownerQ = await EventClient.register(t, member, { event_types: ['realm_bot', 'realm_user'] });
    expectSuccess(await t.delete(`bots/${bot.id}`, { as: admin }));
    expect((await botRow(bot.id)).is_active).toBe(false);
    const events = await ownerQ.next();
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, is_active: false } }),
        expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: false } }),
      ]),
    );
    expect((await t.get('users/me', { as: bot })).status).toBe(401);
    // Deactivating again succeeds and sends nothing.
    expectSuccess(await t.delete(`bots/${bot.id}`, { as: member }));
    expect(await ownerQ.drain()).toEqual([]);
  });
});

describe('POST /bots/{bot_id}/api_key/regenerate', () => {
  it('returns a new key that works, the old one stops working, owners get realm_bot update', async () => {
    const bot = await newBot(member);
    const q = await EventClient.register(t, member, { event_types: ['realm_bot'] });
    const res = await t.post(`bots/${bot.id}/api_key/regenerate`, { as: member });
    expectSuccess(res);
    const apiKey = res.body.api_key as string;
    expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(apiKey).not.toBe(bot.apiKey);
    expect((await botRow(bot.id)).api_key).toBe(apiKey);
    expect((await t.get('users/me', { as: bot })).status).toBe(401);
    expectSuccess(await t.get('users/me', { as: { ...bot, apiKey } }));
    expect(await q.ofType('realm_bot')).toEqual([expect.objectContaining({ op: 'update', bot: { user_id: bot.id, api_key: apiKey } })]);
    expectSuccess(await t.get(`bots/${bot.id}/api_key`, { as: member }), { api_key: apiKey });
    expectSuccess(await t.get(`bots/${bot.id}/api_key`, { as: admin }), { api_key: apiKey });
  });
});

describe('POST /bots events and the realm_bots register section', () => {
  it('creation sends realm_bot add to the owner and administrators, realm_user add to everyone', async () => {
    const ownerQ = await EventClient.register(t, member, { event_types: ['realm_bot', 'realm_user'] });
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_bot'] });
    const otherQ = await EventClient.register(t, member2, { event_types: ['realm_bot', 'realm_user'] });
    const bot = await newBot(member);
    const mine = await ownerQ.next();
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'realm_user', op: 'add', person: expect.objectContaining({ user_id: bot.id, is_bot: true }) }),
        expect.objectContaining({
          type: 'realm_bot',
          op: 'add',
          bot: expect.objectContaining({ user_id: bot.id, owner_id: member.id, api_key: bot.apiKey, is_active: true }),
        }),
      ]),
    );
    expect(await adminQ.ofType('realm_bot')).toHaveLength(1);
    const others = await otherQ.next();
    expect(others.map((e) => e.type)).toEqual(['realm_user']);
  });

  it('realm_bots: own bots (deactivated too) for members, all bots for administrators', async () => {
    const owner = await t.createUser({ fullName: 'Registrant' });
    const a = await newBot(owner);
    const b = await newBot(owner);
    expectSuccess(await t.delete(`bots/${b.id}`, { as: owner }));
    const mine = (await EventClient.register(t, owner, { fetch_event_types: ['realm_bot'] })).state.realm_bots as Record<string, unknown>[];
    expect(mine).toEqual([
      {
        email: a.email,
        user_id: a.id,
        full_name: `mgmt${n - 1} bot`,
        bot_type: 1,
        is_active: true,
        api_key: a.apiKey,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        owner_id: owner.id,
        avatar_url: expect.any(String),
        services: [],
      },
      expect.objectContaining({ user_id: b.id, is_active: false }),
    ]);
    const all = (await EventClient.register(t, admin, { fetch_event_types: ['realm_bot'] })).state.realm_bots as { user_id: number }[];
    expect(all.map((x) => x.user_id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(all.map((x) => x.user_id)).not.toContain(otherBotId);
    expect(all.length).toBeGreaterThan(2);
    const guestState = (await EventClient.register(t, guest, { fetch_event_types: ['realm_bot'] })).state;
    expect(guestState.realm_bots).toEqual([]);
  });
});

describe('default channels at creation, cascades and reactivation', () => {
  it('POST /bots resolves default channel names (a private one needs a subscription)', async () => {
    const res = await t.post('bots', {
      as: member,
      form: { full_name: 'Channel bot', short_name: 'chanbot', default_sending_stream: 'Public one', default_events_register_stream: 'public ONE' },
    });
    expectSuccess(res, { default_sending_stream: 'Public one', default_events_register_stream: 'Public one' });
    const row = await botRow(res.body.user_id);
    expect(row.default_sending_stream_id).toBe(row.default_events_register_stream_id);
    const count = async () => (await db().query(`SELECT count(*)::int AS n FROM users WHERE is_bot`))[0].n as number;
    const before = await count();
    expectError(
      await t.post('bots', { as: member, form: { full_name: 'Secret bot', short_name: 'secretbot', default_sending_stream: 'Secret one' } }),
      400,
      "Invalid channel name 'Secret one'",
    );
    expect(await count()).toBe(before);
  });

  it('deactivating a human deactivates their bots with realm_user and realm_bot updates', async () => {
    const human = await t.createUser({ fullName: 'Leaving' });
    const a = await newBot(human);
    const b = await newBot(human);
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_bot', 'realm_user'] });
    expectSuccess(await t.delete(`users/${human.id}`));
    const events = await adminQ.ofType('realm_bot', 2);
    expect(events).toEqual([
      expect.objectContaining({ op: 'update', bot: { user_id: a.id, is_active: false } }),
      expect.objectContaining({ op: 'update', bot: { user_id: b.id, is_active: false } }),
    ]);
    expect((await botRow(a.id)).is_active).toBe(false);
  });

  it('reactivating a bot sends realm_bot add to its owners', async () => {
    const bot = await newBot(member);
    expectSuccess(await t.delete(`bots/${bot.id}`, { as: member }));
    const q = await EventClient.register(t, member, { event_types: ['realm_bot'] });
    expectSuccess(await t.post(`users/${bot.id}/reactivate`, { as: admin }));
    expect(await q.ofType('realm_bot')).toEqual([
      expect.objectContaining({ op: 'add', bot: expect.objectContaining({ user_id: bot.id, is_active: true, owner_id: member.id }) }),
    ]);
  });
});
