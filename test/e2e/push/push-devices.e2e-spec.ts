import { createHash, randomBytes } from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { DataSource } from 'typeorm';
import { PushRegistrationRunner } from '../../../src/push/application/push-registration-runner.js';
import type { ClientEvent } from '../../../src/shared/application/client-event.js';
import type { FakePushRelay } from '../../support/fake-push-relay.js';
import { type PushSuite, RELAY_AUTHORIZATION, startPushSuite } from '../../support/push-suite.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let relay: FakePushRelay;
let db: DataSource;
let member: Account;
let other: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
/** The device events in the event journal (what clients' queues receive). */
async function journal(): Promise<ClientEvent[]> {
  const rows: { payload: ClientEvent }[] = await db.query(`SELECT payload FROM events WHERE payload->'event'->>'type' = 'device' ORDER BY xid, id`);
  return rows.map((r) => r.payload);
}
const clearJournal = () => db.query(`DELETE FROM events WHERE payload->'event'->>'type' = 'device'`);
const NOW = 1_760_000_000;


let suite: PushSuite;
beforeAll(async () => {
  suite = await startPushSuite(new Date(NOW * 1000));
  ({ t, relay, db, member, other, guest, bot, otherOwner } = suite);
});
afterAll(() => suite.close());
beforeEach(async () => {
  relay.reset();
  await clearJournal();
});

const BOT_ERROR = 'This endpoint does not accept bot requests.';
const NO_DEVICE = 'No active registered push device';
const ADMIN = 'Push notification configuration issue on server, contact the server administrator or retry later.';
const SHARED_KEY = 'MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301';

/** What a mobile client generates: a secretbox push key and the token ID of its FCM/APNs token. */
function clientKeys(token: string) {
  const secret = randomBytes(32);
  return {
    secret,
    pushKey: Buffer.concat([Buffer.from([0x31]), secret]).toString('base64'),
    tokenId: createHash('sha256').update(token).digest().subarray(0, 8).toString('base64'),
    tokenIdInt: createHash('sha256').update(token).digest().readBigInt64BE(0),
  };
}

let tokenCounter = 0;
const freshToken = () => `token-${++tokenCounter}`;

async function newDevice(as: Account): Promise<number> {
  const res = await t.post('register_client_device', { as });
  expectSuccess(res);
  return res.body.device_id;
}

function registration(deviceId: number, o: { token?: string; kind?: string; pushKeyId?: number } = {}) {
  const keys = clientKeys(o.token ?? freshToken());
  const form = {
    device_id: deviceId,
    token_kind: o.kind ?? 'apns',
    push_key: keys.pushKey,
    push_key_id: o.pushKeyId ?? 2408,
    bouncer_public_key: 'bouncer-public-key-1',
    encrypted_push_registration: `sealed-${tokenCounter}`,
    token_id: keys.tokenId,
  };
  return { form, keys };
}

const register = (as: Account, form: Record<string, unknown>) => t.post('mobile_push/register', { as, form });
const testNotification = (as: Account, form: Record<string, unknown> = {}) => t.post('mobile_push/e2ee/test_notification', { as, form });

/** A device of `as` that the relay accepted. */
async function activeDevice(as: Account, kind = 'apns') {
  const id = await newDevice(as);
  const reg = registration(id, { kind });
  expectSuccess(await register(as, reg.form));
  expect((await deviceRow(id)).push_token_id).toBe(reg.keys.tokenIdInt.toString());
  return { id, ...reg };
}

async function deviceRow(id: number) {
  const [row] = await db.query(
    `SELECT push_key_id, push_token_kind, push_token_id, pending_push_token_id, push_registration_error_code,
       extract(epoch FROM push_token_last_updated_timestamp)::int AS updated
     FROM devices WHERE id = $1`,
    [id],
  );
  return row;
}

async function job(deviceId: number) {
  const [row] = await db.query(
    `SELECT attempts, extract(epoch FROM next_attempt_at)::int AS next FROM push_registration_jobs WHERE device_id = $1`,
    [deviceId],
  );
  return row ?? null;
}

const runner = () => t.app.get(PushRegistrationRunner);
/** The user's `device` `update` events (the `add` of each new device is checked under POST /register_client_device). */
const eventsOf = async (userId: number) =>
  (await journal()).filter((e) => e.userIds.includes(userId) && e.event.op === 'update').map((e) => e.event);
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('POST /users/me/apns_device_token', () => {
  const add = (as: Account, f: Record<string, unknown>) => t.post('users/me/apns_device_token', { as, form: f });
  const tokens = async (userId: number) =>
    db.query(`SELECT token, ios_app_id, kind FROM push_device_tokens WHERE user_id = $1 ORDER BY id`, [userId]);

  it('stores the token once, however often it is sent', async () => {
    expectSuccess(await add(member, { token: 'c0ffee', appid: 'org.zulip.Zulip' }));
    expectSuccess(await add(member, { token: 'c0ffee', appid: 'org.zulip.Zulip' }));
    expectSuccess(await add(member, { token: 'C0FFEE', appid: 'org.zulip.Other' }));
    expect(await tokens(member.id)).toEqual([{ token: 'c0ffee', ios_app_id: 'org.zulip.Zulip', kind: 1 }]);
    expect(relay.requests).toEqual([]);
  });

  it('needs an app id of the allowed characters, checked before the token', async () => {
    expectError(await add(member, { token: 'c0ffee' }), 400, "Missing 'appid' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'appid' });
    expectError(await add(member, {}), 400, "Missing 'appid' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'appid' });
    expectError(await add(member, { appid: '* -- +' }), 400, 'appid has invalid format');
    expectError(await add(member, { appid: 'org.zulip.Zulip' }), 400, "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'token',
    });
  });

  it('refuses empty, overlong and non-hex tokens', async () => {
    expectError(await add(member, { token: '', appid: 'org.zulip.Zulip' }), 400, 'Empty or invalid length token');
    expectError(await add(member, { token: 'x'.repeat(5000), appid: 'org.zulip.Zulip' }), 400, 'Empty or invalid length token');
    expectError(await add(member, { token: 'xyz uses non-hex characters', appid: 'org.zulip.Zulip' }), 400, 'Invalid APNS token');
    expectError(await add(member, { token: 'abc', appid: 'org.zulip.Zulip' }), 400, 'Invalid APNS token');
  });

  it('is for humans: guests yes, bots no', async () => {
    expectSuccess(await add(guest, { token: 'beef', appid: 'org.zulip.Zulip' }));
    expectError(await add(bot, { token: 'beef', appid: 'org.zulip.Zulip' }), 400, BOT_ERROR);
    expectError(await t.delete('users/me/apns_device_token', { as: bot, query: { token: 'beef' } }), 400, BOT_ERROR);
  });

  it('removes the caller\'s own token, case-insensitively', async () => {
    expectSuccess(await add(other, { token: 'abcdef01', appid: 'org.zulip.Zulip' }));
    expectSuccess(await add(otherOwner, { token: 'abcdef01', appid: 'org.zulip.Zulip' }));
    expectError(await t.delete('users/me/apns_device_token', { as: member, query: { token: 'abcdef01' } }), 400, 'Token does not exist');
    expectError(await t.delete('users/me/apns_device_token', { as: otherOwner, query: { token: 'ffff' } }), 400, 'Token does not exist');
    expectSuccess(await t.delete('users/me/apns_device_token', { as: other, query: { token: 'ABCDEF01' } }));
    expect(await tokens(other.id)).toEqual([]);
    expect(await tokens(otherOwner.id)).toHaveLength(1);
    expectError(await t.delete('users/me/apns_device_token', { as: other, query: { token: 'abcdef01' } }), 400, 'Token does not exist');
  });

  it('validates the token on removal too', async () => {
    expectError(await t.delete('users/me/apns_device_token', { as: member, query: { token: '' } }), 400, 'Empty or invalid length token');
    expectError(await t.delete('users/me/apns_device_token', { as: member, query: { token: 'zz' } }), 400, 'Invalid APNS token');
    expectError(await t.delete('users/me/apns_device_token', { as: member }), 400, "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'token',
    });
  });
});

describe('POST /register_client_device', () => {
  it('gives each call a new device of the caller', async () => {
    const a = await newDevice(member);
    const b = await newDevice(member);
    expect(Number.isInteger(a)).toBe(true);
    expect(b).toBeGreaterThan(a);
    const [row] = await db.query(`SELECT user_id, realm_id, push_token_id FROM devices WHERE id = $1`, [b]);
    expect(row).toEqual({ user_id: member.id, realm_id: 1, push_token_id: null });
    // zerver/actions/devices.py do_register_device: an `add` event for the user's clients.
    expect(await journal()).toEqual([
      { realmId: 1, userIds: [member.id], event: { type: 'device', op: 'add', device_id: a } },
      { realmId: 1, userIds: [member.id], event: { type: 'device', op: 'add', device_id: b } },
    ]);
  });

  it('works for guests, bots and other organizations', async () => {
    await newDevice(guest);
    await newDevice(bot);
    const id = await newDevice(otherOwner);
    const [row] = await db.query(`SELECT realm_id FROM devices WHERE id = $1`, [id]);
    expect(row.realm_id).not.toBe(1);
  });
});

describe('POST /mobile_push/register', () => {
  it('registers the device with the relay, which makes it active', async () => {
    const id = await newDevice(member);
    const { form: f, keys } = registration(id);
    expectSuccess(await register(member, f));

    const [req] = relay.requestsTo('register');
    expect(relay.requests).toHaveLength(1);
    expect(req.method).toBe('POST');
    expect(req.headers.authorization).toBe(RELAY_AUTHORIZATION);
    expect(req.headers['user-agent']).toMatch(/^SvcServer\//);
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const [realm] = await db.query(`SELECT uuid FROM realms WHERE id = 1`);
    expect(form(req.body)).toEqual({
      realm_uuid: realm.uuid,
      token_id: keys.tokenId,
      encrypted_push_registration: f.encrypted_push_registration,
      bouncer_public_key: 'bouncer-public-key-1',
    });

    expect(await deviceRow(id)).toEqual({
      push_key_id: '2408',
      push_token_kind: 'apns',
      push_token_id: keys.tokenIdInt.toString(),
      pending_push_token_id: null,
      push_registration_error_code: null,
      updated: NOW,
    });
    expect(await job(id)).toBeNull();
    expect(await eventsOf(member.id)).toEqual([
      {
        type: 'device',
        op: 'update',
        device_id: id,
        push_key_id: 2408,
        pending_push_token_id: keys.tokenId,
        push_token_last_updated_timestamp: NOW,
        push_registration_error_code: null,
      },
      { type: 'device', op: 'update', device_id: id, push_token_id: keys.tokenId, pending_push_token_id: null },
    ]);
  });

  it('is idempotent', async () => {
    const { id, form: f } = await activeDevice(member);
    relay.reset();
    await clearJournal();
    expectSuccess(await register(member, f));
    expect(relay.requests).toEqual([]);
    expect(await journal()).toEqual([]);
    expect((await deviceRow(id)).pending_push_token_id).toBeNull();
  });

  it('registers again when a field changes', async () => {
    const { id, form: f } = await activeDevice(member);
    relay.reset();
    expectSuccess(await register(member, { ...f, token_kind: 'fcm' }));
    expect(relay.requestsTo('register')).toHaveLength(1);
    expect((await deviceRow(id)).push_token_kind).toBe('fcm');
  });

  it('only works on devices of the caller', async () => {
    const mine = await newDevice(member);
    const others = await newDevice(other);
    const foreign = await newDevice(otherOwner);
    for (const device_id of [others, foreign, 999_999, 2 ** 40]) {
      expectError(await register(member, registration(device_id).form), 400, 'Invalid `device_id`');
    }
    expectError(await register(otherOwner, registration(mine).form), 400, 'Invalid `device_id`');
    expect(relay.requests).toEqual([]);
  });

  it('checks the parameters with Zulip\'s texts', async () => {
    const id = await newDevice(member);
    const f = registration(id).form;
    const { device_id: _, ...withoutDevice } = f;
    expectError(await register(member, withoutDevice), 400, "Missing 'device_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'device_id' });
    expectError(await register(member, { ...f, device_id: 'abc' }), 400, 'device_id is not valid JSON');
    expectError(await register(member, { ...f, device_id: '1.5' }), 400, 'device_id is not an integer');
    expectError(await register(member, { ...f, token_kind: 'xyz' }), 400, 'Invalid token_kind: Value error, Not in the list of possible values');
    expectError(await register(member, { ...f, push_key_id: -1 }), 400, 'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer');
    expectError(
      await register(member, { ...f, push_key_id: 4294967296 }),
      400,
      'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer',
    );
    expectError(await register(member, { ...f, push_key_id: 'x' }), 400, 'push_key_id is not valid JSON');
    expectError(await register(member, { ...f, push_key: '@abcdefg' }), 400, 'Invalid `push_key`');
    expectError(await register(member, { ...f, push_key: 'abcd' }), 400, 'Invalid `push_key`');
    const wrongPrefix = Buffer.from(SHARED_KEY, 'base64');
    wrongPrefix[0] = 0x32;
    expectError(await register(member, { ...f, push_key: wrongPrefix.toString('base64') }), 400, 'Invalid `push_key`');
    expectError(await register(member, { ...f, token_id: '@abcdefg' }), 400, '`token_id` is not Base64 encoded');
    const { push_key_id: _k, token_id: _tk, ...partial } = f;
    expectError(
      await register(member, partial),
      400,
      'Missing parameters: must provide either all push key fields, all token fields, or both.',
    );
    expect(relay.requests).toEqual([]);
    expect(await deviceRow(id)).toMatchObject({ push_key_id: null, pending_push_token_id: null });
  });

  it('rotates the push key of a registration', async () => {
    const id = await newDevice(member);
    const rotate = { device_id: id, push_key: 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt', push_key_id: 1144 };
    expectError(await register(member, rotate), 400, 'No push registration exists to rotate key for.');
    expectSuccess(await register(member, registration(id).form));
    relay.reset();
    await clearJournal();
    expectSuccess(await register(member, rotate));
    expect(relay.requests).toEqual([]);
    expect((await deviceRow(id)).push_key_id).toBe('1144');
    expect(await eventsOf(member.id)).toEqual([{ type: 'device', op: 'update', device_id: id, push_key_id: 1144 }]);
    await clearJournal();
    expectSuccess(await register(member, rotate));
    expect(await journal()).toEqual([]);
  });

  it('rotates the token of a registration', async () => {
    const id = await newDevice(member);
    const { keys: newKeys } = registration(id, { token: 'rotated-token' });
    const rotate = {
      device_id: id,
      token_kind: 'apns',
      bouncer_public_key: 'bouncer-public-key-2',
      encrypted_push_registration: 'sealed-rotated',
      token_id: newKeys.tokenId,
    };
    expectError(await register(member, rotate), 400, 'No push registration exists to rotate token for.');
    expectSuccess(await register(member, registration(id).form));
    relay.reset();
    t.clock.advance(10);
    expectSuccess(await register(member, rotate));
    expect(form(relay.requestsTo('register')[0].body)).toMatchObject({ token_id: newKeys.tokenId, encrypted_push_registration: 'sealed-rotated' });
    expect(await deviceRow(id)).toMatchObject({ push_token_id: newKeys.tokenIdInt.toString(), pending_push_token_id: null, updated: NOW + 10 });
    relay.reset();
    expectSuccess(await register(member, rotate));
    expect(relay.requests).toEqual([]);
    t.clock.current = new Date(NOW * 1000);
  });

  it('keeps a registration the relay cannot reach yet, and retries it', async () => {
    const id = await newDevice(member);
    const { form: f, keys } = registration(id);
    await relay.stop();
    try {
      expectSuccess(await register(member, f));
    } finally {
      await relay.start();
    }
    expect(await deviceRow(id)).toMatchObject({ push_token_id: null, pending_push_token_id: keys.tokenIdInt.toString(), push_registration_error_code: null });
    expect(await job(id)).toEqual({ attempts: 1, next: NOW + 60 });
    expectError(await register(member, f), 400, 'A registration for the device already in progress.');
    expectError(await testNotification(member, { device_id: id }), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');

    expect(await runner().runDue()).toBe(0); // not due yet
    expect(relay.requests).toEqual([]);
    t.clock.advance(60);
    try {
      expect(await runner().runDue()).toBe(1);
    } finally {
      t.clock.current = new Date(NOW * 1000);
    }
    expect(await deviceRow(id)).toMatchObject({ push_token_id: keys.tokenIdInt.toString(), pending_push_token_id: null });
    expect(await job(id)).toBeNull();
    expect((await eventsOf(member.id)).at(-1)).toEqual({ type: 'device', op: 'update', device_id: id, push_token_id: keys.tokenId, pending_push_token_id: null });
  });

  it('retries after 5xx and configuration errors with growing delays', async () => {
    const id = await newDevice(member);
    relay.answer('register', { status: 503, raw: 'Service Unavailable' });
    expectSuccess(await register(member, registration(id).form));
    expect(await job(id)).toEqual({ attempts: 1, next: NOW + 60 });
    relay.answer('register', { status: 403, body: { result: 'error', msg: 'Organization not registered', code: 'MISSING_REMOTE_REALM' } });
    t.clock.advance(60);
    await runner().runDue();
    expect(await job(id)).toEqual({ attempts: 2, next: NOW + 60 + 300 });
    relay.answer('register', { status: 401, body: { result: 'error', msg: 'Invalid credentials', code: 'INVALID_ZULIP_SERVER' } });
    t.clock.advance(300);
    await runner().runDue();
    expect(await job(id)).toEqual({ attempts: 3, next: NOW + 360 + 900 });
    expect((await deviceRow(id)).push_registration_error_code).toBeNull();
    expect(relay.requestsTo('register')).toHaveLength(3);
    t.clock.current = new Date(NOW * 1000);
  });

  it('drops the late result of a runner whose lease ran out: the runner that took the job over decides', async () => {
    const id = await newDevice(member);
    relay.answer('register', { status: 503, raw: 'Service Unavailable' });
    expectSuccess(await register(member, registration(id).form));
    expect(await job(id)).toEqual({ attempts: 1, next: NOW + 60 });
    const [{ id: jobId }] = await db.query(`SELECT id FROM push_registration_jobs WHERE device_id = $1`, [id]);
    t.clock.advance(60);
    relay.answer('register', 'hang');
    try {
      // A runner (of any process) claims the job and waits for the relay until PUSH_BOUNCER_TIMEOUT_MS.
      const stalled = runner().runNow(String(jobId));
      await vi.waitFor(() => expect(relay.requestsTo('register')).toHaveLength(2));
      // Meanwhile its lease (2 × the timeout + 60 s) runs out: another runner claims the job, is refused again.
      t.clock.advance(61);
      relay.answer('register', { status: 503, raw: 'Service Unavailable' });
      await runner().runNow(String(jobId));
      expect(await job(id)).toEqual({ attempts: 2, next: NOW + 121 + 300 });
      await stalled; // its timeout is not counted: the job is no longer its own
      expect(await job(id)).toEqual({ attempts: 2, next: NOW + 121 + 300 });
    } finally {
      t.clock.current = new Date(NOW * 1000);
    }
    expect(relay.requestsTo('register')).toHaveLength(3);
  });

  it('gives up after a day with REQUEST_EXPIRED', async () => {
    const id = await newDevice(member);
    relay.answer('register', { status: 502, raw: '' });
    expectSuccess(await register(member, registration(id).form));
    await clearJournal();
    t.clock.advance(25 * 3600);
    try {
      await runner().runDue();
    } finally {
      t.clock.current = new Date(NOW * 1000);
    }
    expect(await job(id)).toBeNull();
    expect((await deviceRow(id)).push_registration_error_code).toBe('REQUEST_EXPIRED');
    // (The device of the previous test, still waiting, expired in the same round.)
    expect((await eventsOf(member.id)).filter((e) => e.device_id === id)).toEqual([
      { type: 'device', op: 'update', device_id: id, push_registration_error_code: 'REQUEST_EXPIRED' },
    ]);
  });

  it('stores a final refusal of the relay as the device\'s error, and lets the client try again', async () => {
    const id = await newDevice(member);
    const { form: f, keys } = registration(id);
    relay.answer('register', { status: 400, body: { result: 'error', msg: 'Invalid bouncer_public_key', code: 'INVALID_BOUNCER_PUBLIC_KEY' } });
    expectSuccess(await register(member, f));
    expect(await deviceRow(id)).toMatchObject({ push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY', push_token_id: null });
    expect(await job(id)).toBeNull();
    expect((await eventsOf(member.id)).at(-1)).toEqual({
      type: 'device',
      op: 'update',
      device_id: id,
      push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY',
    });

    relay.answer('register', { status: 400, body: { result: 'error', msg: 'Invalid encrypted_push_registration', code: 'BAD_REQUEST' } });
    expectSuccess(await register(member, f));
    expect((await deviceRow(id)).push_registration_error_code).toBe('BAD_REQUEST');

    relay.reset();
    expectSuccess(await register(member, f));
    expect(await deviceRow(id)).toMatchObject({ push_registration_error_code: null, push_token_id: keys.tokenIdInt.toString() });
  });

  it('is for humans: guests yes, bots no', async () => {
    const id = await newDevice(guest);
    expectSuccess(await register(guest, registration(id).form));
    const botDevice = await newDevice(bot);
    expectError(await register(bot, registration(botDevice).form), 400, BOT_ERROR);
  });
});

describe('POST /mobile_push/e2ee/test_notification', () => {
  let alice: Account;
  let apple: Awaited<ReturnType<typeof activeDevice>>;
  let android: Awaited<ReturnType<typeof activeDevice>>;

  beforeAll(async () => {
    alice = await t.createUser({ fullName: 'Alice Ünicode' });
    apple = await activeDevice(alice, 'apns');
    android = await activeDevice(alice, 'fcm');
  });

  function notifyBody() {
    const reqs = relay.requestsTo('notify');
    expect(reqs).toHaveLength(1);
    return reqs[0];
  }

  function open(secret: Buffer, encrypted: string) {
    const bytes = Buffer.from(encrypted, 'base64');
    return JSON.parse(new TextDecoder().decode(xsalsa20poly1305(secret, bytes.subarray(0, 24)).decrypt(bytes.subarray(24))));
  }

  it('needs an active device', async () => {
    expectError(await testNotification(other), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    await newDevice(other); // registered with the server, not for push
    expectError(await testNotification(other), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    expect(relay.requests).toEqual([]);
  });

  it('sends one request with the test payload encrypted for each device', async () => {
    expectSuccess(await testNotification(alice));
    const req = notifyBody();
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(RELAY_AUTHORIZATION);
    // Token IDs are 64-bit: they must reach the wire exactly.
    expect(req.body).toContain(`"device_id":${apple.keys.tokenIdInt}`);
    const body = JSON.parse(req.body);
    const [realm] = await db.query(`SELECT uuid FROM realms WHERE id = 1`);
    expect(body.realm_uuid).toBe(realm.uuid);
    expect(body.push_requests).toEqual([
      {
        device_id: expect.any(Number),
        http_headers: { apns_priority: 10, apns_push_type: 'alert' },
        payload: { push_key_id: 2408, encrypted_data: expect.any(String), aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
      },
      { device_id: expect.any(Number), fcm_priority: 'high', payload: { push_key_id: 2408, encrypted_data: expect.any(String) } },
    ]);
    const expected = { realm_url: 'http://chat.example.com', realm_name: 'Demo Organization', user_id: alice.id, type: 'test', time: NOW };
    expect(open(apple.keys.secret, body.push_requests[0].payload.encrypted_data)).toEqual(expected);
    expect(open(android.keys.secret, body.push_requests[1].payload.encrypted_data)).toEqual(expected);
  });

  it('targets one device when asked', async () => {
    expectSuccess(await testNotification(alice, { device_id: android.id }));
    const body = JSON.parse(notifyBody().body);
    expect(body.push_requests).toHaveLength(1);
    expect(body.push_requests[0].fcm_priority).toBe('high');
  });

  it('never targets devices of others', async () => {
    const foreign = await activeDevice(otherOwner);
    relay.reset();
    expectError(await testNotification(member, { device_id: apple.id }), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    expectError(await testNotification(alice, { device_id: foreign.id }), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    expectError(await testNotification(alice, { device_id: 2 ** 40 }), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    expectError(await testNotification(alice, { device_id: 'x' }), 400, 'device_id is not valid JSON');
    expect(relay.requests).toEqual([]);

    expectSuccess(await testNotification(otherOwner));
    const body = JSON.parse(notifyBody().body);
    expect(body.push_requests).toHaveLength(1);
    const [realm] = await db.query(`SELECT r.uuid FROM realms r JOIN users u ON u.realm_id = r.id WHERE u.id = $1`, [otherOwner.id]);
    expect(body.realm_uuid).toBe(realm.uuid);
    expect(open(foreign.keys.secret, body.push_requests[0].payload.encrypted_data)).toMatchObject({
      realm_url: 'http://other.chat.example.com',
      realm_name: 'Org other',
      user_id: otherOwner.id,
    });
  });

  it('maps a network error (no listener) to 502 FAILED_TO_CONNECT_BOUNCER', async () => {
    await relay.stop();
    try {
      expectError(
        await testNotification(alice),
        502,
        'Network error while connecting to Zulip push notification service.',
        'FAILED_TO_CONNECT_BOUNCER',
      );
    } finally {
      await relay.start();
    }
  });

  it('maps a timeout to 502 FAILED_TO_CONNECT_BOUNCER', async () => {
    relay.answer('notify', 'hang');
    expectError(await testNotification(alice), 502, 'Network error while connecting to Zulip push notification service.', 'FAILED_TO_CONNECT_BOUNCER');
    expect(relay.requestsTo('notify')).toHaveLength(1); // no retries
  });

  it('maps a 5xx to 502 INTERNAL_SERVER_ERROR_ON_BOUNCER', async () => {
    for (const status of [500, 503]) {
      relay.answer('notify', { status, raw: '<html>oops</html>' });
      expectError(
        await testNotification(alice),
        502,
        'Internal server error on Zulip push notification service, retry later.',
        'INTERNAL_SERVER_ERROR_ON_BOUNCER',
      );
    }
    expect(relay.requestsTo('notify')).toHaveLength(2);
  });

  it('maps configuration refusals and unexpected statuses to 403 ADMIN_ACTION_REQUIRED', async () => {
    const refusals: [number, string, string][] = [
      [403, 'MISSING_REMOTE_REALM', 'Organization not registered'],
      [401, 'INVALID_ZULIP_SERVER', 'Zulip server auth failure: key does not match role 6cde5f7a'],
      [400, 'PUSH_NOTIFICATIONS_DISALLOWED', 'Your plan doesn\'t allow sending push notifications.'],
    ];
    for (const [status, code, msg] of refusals) {
      relay.answer('notify', { status, body: { result: 'error', msg, code } });
      expectError(await testNotification(alice), 403, ADMIN, 'ADMIN_ACTION_REQUIRED');
    }
    relay.answer('notify', { status: 302, raw: '', headers: { Location: 'http://example.com/' } });
    expectError(await testNotification(alice), 403, ADMIN, 'ADMIN_ACTION_REQUIRED');
    relay.answer('notify', { status: 404, raw: 'Not Found' });
    expectError(await testNotification(alice), 403, ADMIN, 'ADMIN_ACTION_REQUIRED');
    // Still registered: nothing was dropped.
    expect((await deviceRow(apple.id)).push_token_id).not.toBeNull();
  });

  it('passes other refusals of the relay on as 400 with its text', async () => {
    relay.answer('notify', { status: 400, body: { result: 'error', msg: 'Invalid push_requests', code: 'BAD_REQUEST' } });
    expectError(await testNotification(alice), 400, 'Invalid push_requests');
  });

  it('drops devices the relay reports expired; all of them gone is NO_ACTIVE_PUSH_DEVICE', async () => {
    const bob = await t.createUser({ fullName: 'Bob' });
    const b1 = await activeDevice(bob, 'apns');
    const b2 = await activeDevice(bob, 'fcm');
    const reply = (ids: bigint[]) =>
      relay.answer('notify', {
        status: 200,
        raw: `{"result":"success","msg":"","android_successfully_sent_count":0,"apple_successfully_sent_count":1,"delete_device_ids":[${ids.join(',')}]}`,
      });

    // Another user's token ID in the answer changes nothing of theirs.
    reply([apple.keys.tokenIdInt]);
    expectSuccess(await testNotification(bob));
    expect((await deviceRow(apple.id)).push_token_id).toBe(apple.keys.tokenIdInt.toString());

    reply([b1.keys.tokenIdInt]);
    expectSuccess(await testNotification(bob));
    expect(await deviceRow(b1.id)).toMatchObject({ push_token_id: null, push_key_id: null, push_token_kind: null });
    expect((await deviceRow(b2.id)).push_token_id).toBe(b2.keys.tokenIdInt.toString());

    relay.reset();
    reply([b2.keys.tokenIdInt]);
    expectError(await testNotification(bob), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    expect(relay.requestsTo('notify')).toHaveLength(1);
    expect((await deviceRow(b2.id)).push_token_id).toBeNull();

    relay.reset();
    expectError(await testNotification(bob), 400, NO_DEVICE, 'NO_ACTIVE_PUSH_DEVICE');
    expect(relay.requests).toEqual([]);

    // The device can register afresh.
    expectError(await register(bob, { device_id: b1.id, push_key: SHARED_KEY, push_key_id: 1 }), 400, 'No push registration exists to rotate key for.');
    expectSuccess(await register(bob, registration(b1.id).form));
    expectSuccess(await testNotification(bob));
  });

  it('is for humans: guests yes, bots no', async () => {
    await activeDevice(guest);
    relay.reset();
    expectSuccess(await testNotification(guest));
    expectError(await testNotification(bot), 400, BOT_ERROR);
  });
});
