import pg from 'pg';
import zulip from 'zulip-js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { CredentialCache } from '../../../src/users/application/credential-cache.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * User presence: POST /users/me/presence, GET /users/{user_id_or_email}/presence, GET
 * /realm/presence, `presence` events and POST /register's `presences` (Zulip's
 * zerver/views/presence.py, zerver/actions/presence.py, zerver/lib/presence.py).
 */
let t: TestApp;
let db: pg.Client;
let alice: Account;
let bob: Account;
let guest: Account;
let gone: Account;
let bot: Account & { ownerId: number };
let otherOwner: Account;
/** The test clock's start, whole seconds; every user joined at JOINED. */
const NOW = 1_760_000_000;
const JOINED = NOW - 30 * 86_400;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000);
  alice = await t.createUser({ fullName: 'Alice', email: 'Alice@example.com' });
  bob = await t.createUser({ fullName: 'Bob' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  gone = await t.createUser({ fullName: 'Gone' });
  bot = await t.createBot(alice, 'pinger');
  otherOwner = await t.createOrganization('elsewhere');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  await t.sql(`UPDATE users SET date_joined = to_timestamp($1)`, [JOINED]);
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const at = (seconds: number) => {
  t.clock.current = new Date((NOW + seconds) * 1000);
};
const report = (as: Account, form: Record<string, unknown> = {}) => t.post('users/me/presence', { as, form: { status: 'active', ...form } });
const legacy = (status: string, timestamp: number) => ({
  aggregated: { client: 'website', status, timestamp },
  website: { client: 'website', status, timestamp, pushable: false },
});
const updateIds = async (): Promise<Record<number, number>> =>
  Object.fromEntries((await db.query(`SELECT user_id, last_update_id::int AS id FROM user_presence`)).rows.map((r) => [r.user_id, r.id]));
const presenceRows = async () => (await db.query(`SELECT count(*)::int AS n FROM user_presence`)).rows[0].n as number;

describe('reporting presence', () => {
  it('creates the first presence and answers with everyone\'s, in the legacy format', async () => {
    at(0);
    const res = await report(alice);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      presences: { 'Alice@example.com': legacy('active', NOW) },
      server_timestamp: NOW,
      presence_last_update_id: 1,
    });
    at(5);
    const idle = await report(bob, { status: 'idle' });
    expect(idle.body.presences).toEqual({ 'Alice@example.com': legacy('active', NOW), [bob.email]: legacy('idle', NOW + 5) });
    expect(idle.body.presence_last_update_id).toBe(2);
  });

  it('answers in the modern format, keyed by user ID, for slim_presence or last_update_id', async () => {
    at(10);
    const expected = {
      [String(alice.id)]: { active_timestamp: NOW, idle_timestamp: NOW },
      [String(bob.id)]: { active_timestamp: JOINED, idle_timestamp: NOW + 5 },
    };
    expect((await report(guest, { ping_only: false, slim_presence: true, status: 'idle' })).body.presences).toEqual({
      ...expected,
      [String(guest.id)]: { active_timestamp: JOINED, idle_timestamp: NOW + 10 },
    });
    expect((await report(guest, { last_update_id: -1 })).body).toMatchObject({ presences: { [String(alice.id)]: expected[String(alice.id)] } });
  });

  it('returns only what changed after last_update_id, and the same id when nothing did', async () => {
    at(20);
    const first = await report(bob, { last_update_id: -1, status: 'idle' });
    const last = first.body.presence_last_update_id;
    expect(Object.keys(first.body.presences)).toHaveLength(3);
    expect((await report(bob, { last_update_id: last, status: 'idle' })).body).toMatchObject({ presences: {}, presence_last_update_id: last });
    at(80);
    expectSuccess(await report(alice));
    const next = await report(bob, { last_update_id: last, status: 'idle' });
    expect(next.body.presences).toEqual({
      [String(alice.id)]: { active_timestamp: NOW + 80, idle_timestamp: NOW + 80 },
      [String(bob.id)]: { active_timestamp: JOINED, idle_timestamp: NOW + 80 },
    });
    expect(next.body.presence_last_update_id).toBe(last + 2);
  });

  it('answers ping_only with nothing but the envelope', async () => {
    const res = await report(alice, { ping_only: true, new_user_input: true });
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });

  it('moves a time only when the new one is more than 55 s newer', async () => {
    const before = await updateIds();
    at(135);
    expectSuccess(await report(alice, { ping_only: true }));
    expect(await updateIds()).toEqual(before);
    at(136);
    expectSuccess(await report(alice, { ping_only: true, status: 'idle' }));
    const res = await report(alice, { slim_presence: true, ping_only: false, status: 'idle' });
    expect(res.body.presences[String(alice.id)]).toEqual({ active_timestamp: NOW + 80, idle_timestamp: NOW + 136 });
    // The organization's counter numbers every change: alice's row takes the next id.
    expect((await updateIds())[alice.id]).toBe(Math.max(...Object.values(before)) + 1);
  });

  it('limits the history to history_limit_days (14 by default), 0 meaning none', async () => {
    at(15 * 86_400);
    expectSuccess(await report(bob, { ping_only: true, status: 'idle' }));
    const recent = await report(bob, { slim_presence: true, status: 'idle' });
    expect(Object.keys(recent.body.presences)).toEqual([String(bob.id)]);
    const year = await report(bob, { slim_presence: true, history_limit_days: 365, status: 'idle' });
    expect(Object.keys(year.body.presences).sort()).toEqual([alice.id, bob.id, guest.id].map(String).sort());
    const none = await report(bob, { history_limit_days: 0, status: 'idle' });
    expect(none.body).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    expect((await report(bob, { history_limit_days: 0, last_update_id: 3, status: 'idle' })).body.presence_last_update_id).toBe(3);
    // A client that already has data gets every newer row, however old the history.
    expect(Object.keys((await report(bob, { history_limit_days: 1, last_update_id: 1, status: 'idle' })).body.presences)).toHaveLength(3);
    expectSuccess(await report(bob, { history_limit_days: 9_007_199_254_740_991, last_update_id: -9_007_199_254_740_991, status: 'idle' }));
  });

  it('leaves out deactivated users and bots, and other organizations', async () => {
    await db.query(`INSERT INTO user_presence (user_id, realm_id, last_connected_time, last_active_time, last_update_id)
                    SELECT id, realm_id, to_timestamp($1), to_timestamp($1), 1000 FROM users WHERE id = ANY($2)`, [NOW + 15 * 86_400, [gone.id, bot.id]]);
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectSuccess(await report(otherOwner, { ping_only: true }));
    const res = await report(bob, { slim_presence: true, status: 'idle', history_limit_days: 365 });
    expect(Object.keys(res.body.presences).sort()).toEqual([alice.id, bob.id, guest.id].map(String).sort());
    const theirs = await report(otherOwner, { slim_presence: true });
    expect(theirs.body.presences).toEqual({ [String(otherOwner.id)]: { active_timestamp: NOW + 15 * 86_400, idle_timestamp: NOW + 15 * 86_400 } });
  });

  it.each([
    [{ status: undefined }, "Missing 'status' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'status' }],
    [{ status: 'offline' }, 'Invalid status: offline'],
    [{ status: 'Active' }, 'Invalid status: Active'],
    [{ ping_only: 'yes' }, 'ping_only is not valid JSON'],
    [{ ping_only: 1 }, 'ping_only is not a boolean'],
    [{ slim_presence: 'null' }, 'slim_presence is not a boolean'],
    [{ new_user_input: '"true"' }, 'new_user_input is not a boolean'],
    [{ last_update_id: 'x' }, 'last_update_id is not valid JSON'],
    [{ last_update_id: 1.5 }, 'last_update_id is not an integer'],
    [{ history_limit_days: '"7"' }, 'history_limit_days is not an integer'],
    [{ history_limit_days: 'x', status: 'offline' }, 'history_limit_days is not valid JSON'],
  ])('refuses %j: %s, writing nothing', async (form, msg, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => {
    const rows = await presenceRows();
    const ids = await updateIds();
    at(16 * 86_400);
    expectError(await t.post('users/me/presence', { as: t.owner, form: Object.fromEntries(Object.entries({ status: 'active', ...form }).filter(([, v]) => v !== undefined)) }), 400, msg, code, extra);
    expect(await presenceRows()).toBe(rows);
    expect(await updateIds()).toEqual(ids);
  });

  it('refuses bots', async () => {
    expectError(await report(bot), 400, 'This endpoint does not accept bot requests.');
  });
});

describe('presence events', () => {
  const NEW = 20 * 86_400;
  let carol: Account;

  it('tell everyone at once when a user first reports, each queue in the format it asked for', async () => {
    at(NEW);
    carol = await t.createUser({ fullName: 'Carol' });
    await t.sql(`UPDATE users SET date_joined = to_timestamp($1) WHERE id = $2`, [JOINED, carol.id]);
    const [plain, slim, modern, self, stranger] = [
      await EventClient.register(t, alice),
      await EventClient.register(t, guest, { slim_presence: true }),
      await EventClient.register(t, bob, { client_capabilities: { notification_settings_null: false, simplified_presence_events: true } }),
      await EventClient.register(t, carol),
      await EventClient.register(t, otherOwner),
    ];
    expectSuccess(await report(carol, { status: 'idle', ping_only: true }));
    const legacyEvent = {
      type: 'presence',
      user_id: carol.id,
      email: carol.email,
      server_timestamp: NOW + NEW,
      presence: { website: { client: 'website', status: 'idle', timestamp: NOW + NEW, pushable: false } },
    };
    for (const c of [plain, self]) expect((await c.ofType('presence')).map(({ id: _, ...e }) => e)).toEqual([legacyEvent]);
    const { email: _, ...slimEvent } = legacyEvent;
    expect((await slim.ofType('presence')).map(({ id: _id, ...e }) => e)).toEqual([slimEvent]);
    expect((await modern.ofType('presence')).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'presence', presences: { [String(carol.id)]: { active_timestamp: JOINED, idle_timestamp: NOW + NEW } } },
    ]);
    expect(await stranger.drain()).toEqual([]);
  });

  it('tell everyone when a user comes back after more than 130 s, not on regular reports', async () => {
    const c = await EventClient.register(t, alice);
    at(NEW + 60);
    expectSuccess(await report(carol, { ping_only: true }));
    expect((await c.ofType('presence'))[0]).toMatchObject({ user_id: carol.id, presence: { website: { status: 'active', timestamp: NOW + NEW + 60 } } });
    at(NEW + 120);
    expectSuccess(await report(carol, { ping_only: true }));
    at(NEW + 190);
    expectSuccess(await report(carol, { ping_only: true, status: 'idle' }));
    expect(await c.drain()).toEqual([]);
    at(NEW + 400);
    expectSuccess(await report(carol, { ping_only: true }));
    expect((await c.ofType('presence'))[0]).toMatchObject({ user_id: carol.id, presence: { website: { status: 'active', timestamp: NOW + NEW + 400 } } });
  });

  it('are not sent when the organization has presence off, which also empties the answers', async () => {
    await t.sql(`UPDATE realms SET presence_disabled = true WHERE id = 1`);
    try {
      const c = await EventClient.register(t, alice, { fetch_event_types: ['presence'] });
      expect(c.state).toMatchObject({ presences: {}, presence_last_update_id: -1 });
      at(NEW + 1000);
      const res = await report(carol);
      expect(res.body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: NOW + NEW + 1000, presence_last_update_id: -1 });
      expect((await t.get('realm/presence', { as: bob })).body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: NOW + NEW + 1000 });
      expect(await c.drain()).toEqual([]);
      // The single-user view still answers.
      expect((await t.get(`users/${carol.id}/presence`, { as: bob })).body.presence.website).toEqual({ status: 'active', timestamp: NOW + NEW + 1000 });
    } finally {
      await t.sql(`UPDATE realms SET presence_disabled = false WHERE id = 1`);
    }
  });

  it('are not sent in organizations of more than 100 active users', async () => {
    const c = await EventClient.register(t, alice);
    await t.sql(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
       SELECT 1, 'crowd' || g || '@example.com', 'crowd' || g || '@example.com', 'Crowd ' || g, md5('crowd' || g), 400
       FROM generate_series(1, 100) AS g`,
    );
    try {
      const dave = await t.createUser({ fullName: 'Dave' });
      expectSuccess(await report(dave, { ping_only: true }));
      expect((await c.drain()).filter((e) => e.type === 'presence')).toEqual([]);
    } finally {
      await t.sql(`UPDATE users SET is_active = false WHERE email LIKE 'crowd%'`);
    }
  });
});

describe('presence_enabled (away)', () => {
  const T = 30 * 86_400;

  it('turned off: shown offline at once, 320 s before, and later reports change nothing', async () => {
    at(T);
    expectSuccess(await report(bob, { ping_only: true }));
    const c = await EventClient.register(t, alice, { client_capabilities: { notification_settings_null: false, simplified_presence_events: true } });
    expectSuccess(await t.post('users/me/status', { as: bob, form: { away: true } }));
    const events = [...(await c.next())];
    if (events.length < 2) events.push(...(await c.next()));
    expect(events.map((e) => e.type)).toEqual(['presence', 'user_status']);
    expect(events[0].presences).toEqual({ [String(bob.id)]: { active_timestamp: JOINED, idle_timestamp: NOW + T - 320 } });
    const ids = await updateIds();
    at(T + 600);
    expectSuccess(await report(bob, { ping_only: true }));
    expect(await updateIds()).toEqual(ids);
    expect(await c.drain()).toEqual([]);
    expect((await t.get(`users/${bob.id}/presence`)).body.presence).toEqual({
      aggregated: { status: 'offline', timestamp: NOW + T - 320 },
      website: { status: 'idle', timestamp: NOW + T - 320 },
    });
  });

  it('turned back on: active now, told at once', async () => {
    at(T + 700);
    const c = await EventClient.register(t, alice);
    expectSuccess(await t.post('users/me/status', { as: bob, form: { away: false } }));
    const [e] = await c.ofType('presence');
    expect(e).toMatchObject({ user_id: bob.id, email: bob.email, presence: { website: { status: 'active', timestamp: NOW + T + 700 } } });
    expect((await t.get(`users/${bob.id}/presence`)).body.presence.aggregated).toEqual({ status: 'active', timestamp: NOW + T + 700 });
  });
});

describe('one user\'s presence', () => {
  const T = 40 * 86_400;

  it('is found by ID or by email (any case, surrounding spaces), in the legacy format without client names', async () => {
    at(T);
    expectSuccess(await report(alice, { ping_only: true }));
    const body = { result: 'success', msg: '', presence: { aggregated: { status: 'active', timestamp: NOW + T }, website: { status: 'active', timestamp: NOW + T } } };
    for (const key of [String(alice.id), `+${alice.id}`, 'alice@EXAMPLE.com', encodeURIComponent(' Alice@example.com ')]) {
      expect((await t.get(`users/${key}/presence`, { as: guest })).body).toEqual(body);
    }
  });

  it('is offline once the newest timestamp is more than 200 s old', async () => {
    at(T + 200);
    expect((await t.get(`users/${alice.id}/presence`)).body.presence.aggregated).toEqual({ status: 'active', timestamp: NOW + T });
    at(T + 201);
    expect((await t.get(`users/${alice.id}/presence`)).body.presence.aggregated).toEqual({ status: 'offline', timestamp: NOW + T });
  });

  it('refuses unknown, deactivated and other organizations\' users, bots, and users without presence', async () => {
    const fresh = await t.createUser({ fullName: 'Fresh' });
    for (const key of ['99999', 'nobody@example.com', String(gone.id), gone.email, String(otherOwner.id), 'abc', '-1', '99999999999999999999']) {
      expectError(await t.get(`users/${key}/presence`), 400, 'No such user');
    }
    expectError(await t.get(`users/${bot.id}/presence`), 400, 'Presence is not supported for bot users.');
    expectError(await t.get(`users/${fresh.id}/presence`), 400, `No presence data for ${fresh.id}`);
    expectError(await t.get(`users/${fresh.email}/presence`), 400, `No presence data for ${fresh.email}`);
  });
});

describe('the organization\'s presence', () => {
  it('GET /realm/presence: the legacy format, without presence_last_update_id', async () => {
    at(50 * 86_400);
    expectSuccess(await report(alice, { ping_only: true }));
    expectSuccess(await report(guest, { ping_only: true, status: 'idle' }));
    const res = await t.get('realm/presence', { as: guest });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      presences: { 'Alice@example.com': legacy('active', NOW + 50 * 86_400), [guest.email]: legacy('idle', NOW + 50 * 86_400) },
      server_timestamp: NOW + 50 * 86_400,
    });
    const post = await t.post('realm/presence');
    expect({ status: post.status, msg: post.body.msg }).toEqual({ status: 405, msg: 'Method Not Allowed' });
  });

  it('POST /register: `presences`, `presence_last_update_id` and `server_timestamp` when asked for', async () => {
    const [lastId] = (await db.query(`SELECT last_update_id::int AS id FROM presence_sequences WHERE realm_id = 1`)).rows.map((r) => r.id);
    const state = (await EventClient.register(t, bob, { fetch_event_types: ['presence'] })).state;
    expect(state).toMatchObject({
      presences: { 'Alice@example.com': legacy('active', NOW + 50 * 86_400), [guest.email]: legacy('idle', NOW + 50 * 86_400) },
      presence_last_update_id: lastId,
      server_timestamp: NOW + 50 * 86_400,
    });
    const modern = { [String(alice.id)]: { active_timestamp: NOW + 50 * 86_400, idle_timestamp: NOW + 50 * 86_400 } };
    expect((await EventClient.register(t, bob, { fetch_event_types: ['presence'], slim_presence: true })).state.presences).toMatchObject(modern);
    const simplified = { notification_settings_null: false, simplified_presence_events: true };
    expect((await EventClient.register(t, bob, { fetch_event_types: ['presence'], client_capabilities: simplified })).state.presences).toMatchObject(modern);
    const none = (await EventClient.register(t, bob, { fetch_event_types: ['presence'], presence_history_limit_days: 0 })).state;
    expect(none).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    const longAgo = (await EventClient.register(t, bob, { fetch_event_types: ['presence'], presence_history_limit_days: 365 })).state;
    expect(Object.keys(longAgo.presences as object)).toHaveLength(5); // alice, bob, guest, carol, dave
    const without = (await EventClient.register(t, bob, { fetch_event_types: ['realm_user'] })).state;
    expect(without).not.toHaveProperty('presences');
    expect(without).not.toHaveProperty('presence_last_update_id');
    expect(without).not.toHaveProperty('server_timestamp');
  });

  it('costs a constant number of statements per report', async () => {
    const counter = t.app.get(StatementCounter);
    at(60 * 86_400);
    expectSuccess(await report(alice, { ping_only: true }));
    const count = async (form: Record<string, unknown>) => {
      t.app.get(CredentialCache).all(); // each counts its auth statement (a warm credential cache would spare it)
      const before = counter.count;
      expectSuccess(await report(alice, form));
      return counter.count - before;
    };
    at(60 * 86_400 + 10);
    const ping = await count({ ping_only: true });
    at(60 * 86_400 + 100);
    const write = await count({ ping_only: true });
    const answered = await count({ slim_presence: true, history_limit_days: 365 });
    expect({ ping, write, answered }).toEqual({ ping: 4, write: 5, answered: 6 });
  });
});

describe('presence through zulip-js', () => {
  it('has no presence method; its generic callEndpoint reaches the endpoints', async () => {
    await t.app.listen(0, '127.0.0.1');
    const client = await zulip({ username: alice.email, apiKey: alice.apiKey, realm: await t.app.getUrl() });
    at(70 * 86_400);
    const res = await client.callEndpoint('/users/me/presence', 'POST', { status: 'active', slim_presence: 'true' });
    expect(res).toMatchObject({ result: 'success', msg: '', presences: { [String(alice.id)]: { active_timestamp: NOW + 70 * 86_400 } } });
    expect(await client.callEndpoint(`/users/${alice.id}/presence`, 'GET')).toMatchObject({ result: 'success', presence: { aggregated: { status: 'active' } } });
  });
});

describe('presence_enabled through PATCH /settings', () => {
  const T = 80 * 86_400; // after every other test's clock

  it('off then on, as the legacy away does: the presence event first, then the setting', async () => {
    at(T);
    expectSuccess(await report(bob, { ping_only: true }));
    const c = await EventClient.register(t, alice);
    const own = await EventClient.register(t, bob, { client_capabilities: { notification_settings_null: false, user_settings_object: true } });
    expectSuccess(await t.patch('settings', { as: bob, form: { presence_enabled: false } }));
    const [off] = await c.ofType('presence');
    expect(off).toMatchObject({ user_id: bob.id, presence: { website: { status: 'idle', timestamp: NOW + T - 320 } } });
    expect(await own.ofType('user_settings')).toEqual([expect.objectContaining({ op: 'update', property: 'presence_enabled', value: false })]);
    expect((await t.get(`users/${bob.id}/presence`)).body.presence.aggregated).toEqual({ status: 'offline', timestamp: NOW + T - 320 });
    at(T + 60);
    expectSuccess(await t.patch('settings', { as: bob, form: { presence_enabled: true } }));
    const [on] = await c.ofType('presence');
    expect(on).toMatchObject({ user_id: bob.id, presence: { website: { status: 'active', timestamp: NOW + T + 60 } } });
    expect((await t.get(`users/${bob.id}/presence`)).body.presence.aggregated).toEqual({ status: 'active', timestamp: NOW + T + 60 });
  });
});
