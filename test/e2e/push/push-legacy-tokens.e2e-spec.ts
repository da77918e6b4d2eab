import { DataSource } from 'typeorm';
import { EventClient } from '../../support/events.js';
import type { FakePushRelay } from '../../support/fake-push-relay.js';
import { type PushSuite, RELAY_AUTHORIZATION, startPushSuite } from '../../support/push-suite.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * The legacy (non-E2EE) Android token pair, POST /remove_client_device and the legacy test
 * notification, with a push relay configured (push-unconfigured.e2e-spec.ts: without one).
 */

let t: TestApp;
let relay: FakePushRelay;
let db: DataSource;
let member: Account;
let other: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;

const BOT_ERROR = 'This endpoint does not accept bot requests.';
const ADMIN = 'Push notification configuration issue on server, contact the server administrator or retry later.';
/** A registration token as Firebase issues them (not hex, 100+ characters). */
const FCM_TOKEN = 'dUr3kXx1RZ6S3nQ8vZp0cO:APA91bHq-9xZ_Lm3kD7pE2wYt5uVb8cN1rS4fG6hJ9kL0mQ2nP3oR5sT7uV9wX1yZ3aB5cD7eF9gH1iJ3kL5mN7oP9qR1sT3uV5wX7yZ9';

let suite: PushSuite;
beforeAll(async () => {
  suite = await startPushSuite();
  ({ t, relay, db, member, other, guest, bot, otherOwner } = suite);
});
afterAll(() => suite.close());
beforeEach(() => relay.reset());

const tokensOf = (userId: number) => db.query(`SELECT token, kind, ios_app_id FROM push_device_tokens WHERE user_id = $1 ORDER BY id`, [userId]);
const addFcm = (as: Account, form: Record<string, unknown>) => t.post('users/me/android_gcm_reg_id', { as, form });
const removeFcm = (as: Account, query: Record<string, unknown>) => t.delete('users/me/android_gcm_reg_id', { as, query });

describe('POST /users/me/android_gcm_reg_id', () => {
  it('stores the token once, exactly as sent, and tells the relay nothing', async () => {
    expectSuccess(await addFcm(member, { token: FCM_TOKEN }));
    expectSuccess(await addFcm(member, { token: FCM_TOKEN }));
    // FCM tokens are case-sensitive (unlike APNs hex tokens): another case is another token.
    expectSuccess(await addFcm(member, { token: FCM_TOKEN.toUpperCase() }));
    expect(await tokensOf(member.id)).toEqual([
      { token: FCM_TOKEN, kind: 2, ios_app_id: null },
      { token: FCM_TOKEN.toUpperCase(), kind: 2, ios_app_id: null },
    ]);
    expect(relay.requests).toEqual([]);
  });

  it('lives beside an APNs token of the same text', async () => {
    expectSuccess(await addFcm(other, { token: 'c0ffee' }));
    expectSuccess(await t.post('users/me/apns_device_token', { as: other, form: { token: 'c0ffee', appid: 'org.zulip.Zulip' } }));
    expect(await tokensOf(other.id)).toEqual([
      { token: 'c0ffee', kind: 2, ios_app_id: null },
      { token: 'c0ffee', kind: 1, ios_app_id: 'org.zulip.Zulip' },
    ]);
    expectSuccess(await removeFcm(other, { token: 'c0ffee' }));
    expect(await tokensOf(other.id)).toEqual([{ token: 'c0ffee', kind: 1, ios_app_id: 'org.zulip.Zulip' }]);
    expectSuccess(await t.delete('users/me/apns_device_token', { as: other, query: { token: 'c0ffee' } }));
  });

  it('refuses empty and overlong tokens, and checks no format', async () => {
    const before = await tokensOf(member.id);
    expectError(await addFcm(member, { token: '' }), 400, 'Empty or invalid length token');
    expectError(await addFcm(member, { token: 'x'.repeat(4097) }), 400, 'Empty or invalid length token');
    // 4096 characters (not bytes) is the limit.
    expectError(await addFcm(member, { token: 'é'.repeat(4097) }), 400, 'Empty or invalid length token');
    expectError(await addFcm(member, {}), 400, "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'token' });
    expect(await tokensOf(member.id)).toEqual(before);
    expectSuccess(await addFcm(member, { token: 'é'.repeat(4096) }));
    expectSuccess(await addFcm(member, { token: 'not hex, spaces and : are fine' }));
    // (In the body: 4096 encoded é do not fit in a URL.)
    expectSuccess(await t.delete('users/me/android_gcm_reg_id', { as: member, form: { token: 'é'.repeat(4096) } }));
    expectSuccess(await removeFcm(member, { token: 'not hex, spaces and : are fine' }));
    expect(await tokensOf(member.id)).toEqual(before);
  });

  it('is for humans: guests yes, bots no', async () => {
    expectSuccess(await addFcm(guest, { token: 'guest-token' }));
    expectError(await addFcm(bot, { token: 'bot-token' }), 400, BOT_ERROR);
    expectError(await removeFcm(bot, { token: 'guest-token' }), 400, BOT_ERROR);
    expect(await tokensOf(bot.id)).toEqual([]);
    expectSuccess(await removeFcm(guest, { token: 'guest-token' }));
  });
});

describe('DELETE /users/me/android_gcm_reg_id', () => {
  it('removes only the caller\'s own token, compared exactly', async () => {
    expectSuccess(await addFcm(other, { token: 'shared-Token' }));
    expectSuccess(await addFcm(otherOwner, { token: 'shared-Token' }));
    expectError(await removeFcm(member, { token: 'shared-Token' }), 400, 'Token does not exist');
    expectError(await removeFcm(other, { token: 'shared-token' }), 400, 'Token does not exist');
    expectSuccess(await removeFcm(other, { token: 'shared-Token' }));
    expect(await tokensOf(other.id)).toEqual([]);
    expect(await tokensOf(otherOwner.id)).toEqual([{ token: 'shared-Token', kind: 2, ios_app_id: null }]);
    expectError(await removeFcm(other, { token: 'shared-Token' }), 400, 'Token does not exist');
    expect(relay.requests).toEqual([]);
  });

  it('does not remove an APNs token of the same text', async () => {
    expectSuccess(await t.post('users/me/apns_device_token', { as: other, form: { token: 'beef', appid: 'org.zulip.Zulip' } }));
    expectError(await removeFcm(other, { token: 'beef' }), 400, 'Token does not exist');
    expect(await tokensOf(other.id)).toHaveLength(1);
    expectSuccess(await t.delete('users/me/apns_device_token', { as: other, query: { token: 'beef' } }));
  });

  it('validates the token first', async () => {
    expectError(await removeFcm(member, { token: '' }), 400, 'Empty or invalid length token');
    expectError(await removeFcm(member, { token: 'y'.repeat(5000) }), 400, 'Empty or invalid length token');
    expectError(await removeFcm(member, {}), 400, "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'token' });
  });
});

describe('POST /remove_client_device', () => {
  const newDevice = async (as: Account): Promise<number> => {
    const res = await t.post('register_client_device', { as });
    expectSuccess(res);
    return res.body.device_id;
  };
  const remove = (as: Account, form: Record<string, unknown>) => t.post('remove_client_device', { as, form });
  const deviceExists = async (id: number) => (await db.query(`SELECT 1 FROM devices WHERE id = $1`, [id])).length === 1;

  it('removes the caller\'s device, with `device` events for the caller\'s clients', async () => {
    const mine = await EventClient.register(t, member, { event_types: JSON.stringify(['device']) });
    const theirs = await EventClient.register(t, other, { event_types: JSON.stringify(['device']) });
    const id = await newDevice(member);
    expect(await mine.ofType('device')).toEqual([{ id: expect.any(Number), type: 'device', op: 'add', device_id: id }]);

    expectSuccess(await remove(member, { device_id: id }));
    expect(await deviceExists(id)).toBe(false);
    expect(await mine.ofType('device')).toEqual([{ id: expect.any(Number), type: 'device', op: 'remove', device_id: id }]);
    expect(await theirs.drain()).toEqual([]);

    expectError(await remove(member, { device_id: id }), 400, 'Invalid `device_id`');
    expect(await mine.drain()).toEqual([]);
  });

  it('takes the push registration and any queued registration with it', async () => {
    const id = await newDevice(member);
    await t.sql(
      `UPDATE devices SET push_key = decode('MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301', 'base64'), push_key_id = 7, push_token_kind = 'fcm',
         pending_push_token_id = 5 WHERE id = $1`,
      [id],
    );
    await t.sql(
      `INSERT INTO push_registration_jobs (realm_id, device_id, token_id, bouncer_public_key, encrypted_push_registration, queued_at, next_attempt_at)
       VALUES (1, $1, 'AAAAAAAAAAU=', 'pub', 'sealed', now(), now() + interval '1 hour')`,
      [id],
    );
    expectSuccess(await remove(member, { device_id: id }));
    expect(await deviceExists(id)).toBe(false);
    expect(await db.query(`SELECT id FROM push_registration_jobs WHERE device_id = $1`, [id])).toEqual([]);
    expect(relay.requests).toEqual([]);
  });

  it('never removes someone else\'s device', async () => {
    const others = await newDevice(other);
    const foreign = await newDevice(otherOwner);
    const mine = await newDevice(member);
    for (const device_id of [others, foreign, 0, -1, 999_999, 2 ** 31, 2 ** 40]) {
      expectError(await remove(member, { device_id }), 400, 'Invalid `device_id`');
    }
    expectError(await remove(otherOwner, { device_id: mine }), 400, 'Invalid `device_id`');
    for (const id of [others, foreign, mine]) expect(await deviceExists(id)).toBe(true);
    expectSuccess(await remove(otherOwner, { device_id: foreign }));
  });

  it('checks device_id with Zulip\'s texts', async () => {
    expectError(await remove(member, {}), 400, "Missing 'device_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'device_id' });
    expectError(await remove(member, { device_id: 'abc' }), 400, 'device_id is not valid JSON');
    expectError(await remove(member, { device_id: '1.5' }), 400, 'device_id is not an integer');
    expectError(await remove(member, { device_id: '"1"' }), 400, 'device_id is not an integer');
    expectError(await remove(member, { device_id: '9'.repeat(400) }), 400, 'device_id is not an integer');
  });

  it('works for guests and bots too (Zulip has no bot check here)', async () => {
    for (const as of [guest, bot]) {
      const id = await newDevice(as);
      expectSuccess(await remove(as, { device_id: id }));
      expect(await deviceExists(id)).toBe(false);
    }
  });
});

describe('POST /mobile_push/test_notification', () => {
  let alice: Account;
  const test = (as: Account, form: Record<string, unknown> = {}) => t.post('mobile_push/test_notification', { as, form });
  const sent = () =>
    relay.requestsTo('test_notification').map((r) => {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers.authorization).toBe(RELAY_AUTHORIZATION);
      return JSON.parse(r.body);
    });

  beforeAll(async () => {
    alice = await t.createUser({ fullName: 'Alice' });
    expectSuccess(await t.post('users/me/apns_device_token', { as: alice, form: { token: 'aabbccdd', appid: 'org.zulip.Zulip' } }));
    expectSuccess(await addFcm(alice, { token: FCM_TOKEN }));
  });

  it('sends one test notification per registered token, in the order they were registered', async () => {
    expectSuccess(await test(alice));
    const [realm] = await db.query(`SELECT uuid FROM realms WHERE id = 1`);
    const basePayload = {
      server: 'chat.example.com',
      realm_id: 1,
      realm_uri: 'http://chat.example.com',
      realm_url: 'http://chat.example.com',
      realm_name: 'Demo Organization',
      user_id: alice.id,
    };
    expect(sent()).toEqual([
      { realm_uuid: realm.uuid, user_id: alice.id, token: 'aabbccdd', token_kind: 1, base_payload: basePayload },
      { realm_uuid: realm.uuid, user_id: alice.id, token: FCM_TOKEN, token_kind: 2, base_payload: basePayload },
    ]);
  });

  it('targets the one token asked for', async () => {
    expectSuccess(await test(alice, { token: FCM_TOKEN }));
    expect(sent()).toMatchObject([{ token: FCM_TOKEN, token_kind: 2 }]);
  });

  it('knows only the caller\'s own tokens, compared exactly', async () => {
    expectSuccess(await addFcm(otherOwner, { token: 'foreign-token' }));
    const asked: [Account, string][] = [
      [other, FCM_TOKEN], // registered by member, not by other
      [alice, FCM_TOKEN.toLowerCase()],
      [alice, 'AABBCCDD'],
      [alice, 'foreign-token'],
      [alice, ''],
      [alice, 'z'.repeat(10_000)],
    ];
    const answers = [];
    for (const [as, token] of asked) answers.push([token.slice(0, 12), (await test(as, { token })).body]);
    expect(answers).toEqual(
      asked.map(([, token]) => [token.slice(0, 12), { result: 'error', msg: 'Device not recognized', code: 'INVALID_PUSH_DEVICE_TOKEN' }]),
    );
    expect(relay.requests).toEqual([]);

    expectSuccess(await test(otherOwner));
    const [realm] = await db.query(`SELECT r.uuid FROM realms r JOIN users u ON u.realm_id = r.id WHERE u.id = $1`, [otherOwner.id]);
    const bodies = sent();
    expect(bodies.map((b) => b.token)).toEqual(['shared-Token', 'foreign-token']); // (the first from the DELETE tests)
    expect(bodies.slice(1)).toEqual([
      {
        realm_uuid: realm.uuid,
        user_id: otherOwner.id,
        token: 'foreign-token',
        token_kind: 2,
        base_payload: expect.objectContaining({ realm_url: 'http://other.chat.example.com', realm_name: 'Org other', user_id: otherOwner.id }),
      },
    ]);
  });

  it('has nothing to send without tokens (success, as in Zulip)', async () => {
    const bob = await t.createUser({ fullName: 'Bob' });
    expectSuccess(await test(bob));
    expect(relay.requests).toEqual([]);
  });

  it('passes the relay\'s "device not recognized" on', async () => {
    relay.answer('test_notification', {
      status: 400,
      body: { result: 'error', msg: 'Device not recognized by the push bouncer', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN' },
    });
    expectError(await test(alice), 400, 'Device not recognized by the push bouncer', 'INVALID_REMOTE_PUSH_DEVICE_TOKEN');
    expect(relay.requestsTo('test_notification')).toHaveLength(1); // the first failure ends it
  });

  it('maps the relay\'s other failures as for the E2EE test notification', async () => {
    relay.answer('test_notification', 'hang');
    expectError(await test(alice, { token: FCM_TOKEN }), 502, 'Network error while connecting to Zulip push notification service.', 'FAILED_TO_CONNECT_BOUNCER');
    relay.answer('test_notification', { status: 503, raw: 'busy' });
    expectError(
      await test(alice, { token: FCM_TOKEN }),
      502,
      'Internal server error on Zulip push notification service, retry later.',
      'INTERNAL_SERVER_ERROR_ON_BOUNCER',
    );
    relay.answer('test_notification', { status: 401, body: { result: 'error', msg: 'auth failure', code: 'INVALID_ZULIP_SERVER' } });
    expectError(await test(alice, { token: FCM_TOKEN }), 403, ADMIN, 'ADMIN_ACTION_REQUIRED');
    relay.answer('test_notification', { status: 400, body: { result: 'error', msg: 'Invalid token type', code: 'BAD_REQUEST' } });
    expectError(await test(alice, { token: FCM_TOKEN }), 400, 'Invalid token type');
    // Nothing of the tokens changed.
    expect(await tokensOf(alice.id)).toHaveLength(2);
  });

  it('is for humans: guests yes, bots no', async () => {
    expectSuccess(await addFcm(guest, { token: 'guest-device' }));
    expectSuccess(await test(guest, { token: 'guest-device' }));
    expect(sent()).toMatchObject([{ user_id: guest.id, token: 'guest-device' }]);
    expectError(await test(bot), 400, BOT_ERROR);
    expectError(await test(bot, { token: 'guest-device' }), 400, BOT_ERROR);
  });
});
