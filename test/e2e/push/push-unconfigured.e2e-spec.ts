import { DataSource } from 'typeorm';
import { FakePushRelay } from '../../support/fake-push-relay.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** Servers without a push relay, or with one but without this server's credentials for it. */

const KEY = 'MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301';
const registration = (deviceId: number) => ({
  device_id: deviceId,
  token_kind: 'fcm',
  push_key: KEY,
  push_key_id: 7,
  bouncer_public_key: 'pub',
  encrypted_push_registration: 'sealed',
  token_id: '+wKIhyAx/Eg=',
});

/** Makes a device active behind the API's back (as if the relay had accepted it earlier). */
async function activate(t: TestApp, deviceId: number) {
  await t.app
    .get(DataSource)
    .query(
      `UPDATE devices SET push_key = decode($2, 'base64'), push_key_id = 7, push_token_kind = 'fcm', push_token_id = -359574906294109112 WHERE id = $1`,
      [deviceId, KEY],
    );
}

async function newDevice(t: TestApp, as: Account): Promise<number> {
  const res = await t.post('register_client_device', { as });
  expectSuccess(res);
  return res.body.device_id;
}

describe('without PUSH_BOUNCER_URL', () => {
  let t: TestApp;
  let member: Account;
  beforeAll(async () => {
    t = await TestApp.start();
    member = await t.createUser();
  });
  afterAll(() => t.close());

  it('reports push as not configured to E2EE registrations', async () => {
    const id = await newDevice(t, member);
    const res = await t.post('mobile_push/register', { as: member, form: registration(id) });
    expectError(res, 400, 'Server is not configured to use push notification service.', 'PUSH_SERVICE_NOT_CONFIGURED');
    expectError(
      await t.post('mobile_push/register', { as: member, form: registration(999_999) }),
      400,
      'Server is not configured to use push notification service.',
      'PUSH_SERVICE_NOT_CONFIGURED',
    );
    expect((await t.get('server_settings', { as: null })).body.push_notifications_enabled).toBe(false);
  });

  it('still stores legacy tokens', async () => {
    expectSuccess(await t.post('users/me/apns_device_token', { as: member, form: { token: 'c0ffee', appid: 'org.zulip.Zulip' } }));
    expectSuccess(await t.delete('users/me/apns_device_token', { as: member, query: { token: 'c0ffee' } }));
    expectSuccess(await t.post('users/me/android_gcm_reg_id', { as: member, form: { token: 'fcm-token' } }));
    expectSuccess(await t.delete('users/me/android_gcm_reg_id', { as: member, query: { token: 'fcm-token' } }));
    expectError(await t.delete('users/me/android_gcm_reg_id', { as: member, query: { token: 'fcm-token' } }), 400, 'Token does not exist');
  });

  it('still removes client devices', async () => {
    const id = await newDevice(t, member);
    expectSuccess(await t.post('remove_client_device', { as: member, form: { device_id: id } }));
    expectError(await t.post('remove_client_device', { as: member, form: { device_id: id } }), 400, 'Invalid `device_id`');
  });

  it('sends no legacy test notification: unknown token, nothing to send, then not configured', async () => {
    const test = (form: Record<string, unknown> = {}) => t.post('mobile_push/test_notification', { as: member, form });
    expectError(await test({ token: 'fcm-token' }), 400, 'Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');
    expectSuccess(await test());
    expectSuccess(await t.post('users/me/android_gcm_reg_id', { as: member, form: { token: 'fcm-token' } }));
    for (const form of [{}, { token: 'fcm-token' }]) {
      expectError(await test(form), 400, 'Server is not configured to use push notification service.', 'PUSH_SERVICE_NOT_CONFIGURED');
    }
    expectSuccess(await t.delete('users/me/android_gcm_reg_id', { as: member, query: { token: 'fcm-token' } }));
  });

  it('has no device to test, and says so before anything else', async () => {
    expectError(await t.post('mobile_push/e2ee/test_notification', { as: member }), 400, 'No active registered push device', 'NO_ACTIVE_PUSH_DEVICE');
    const id = await newDevice(t, member);
    await activate(t, id);
    expectError(
      await t.post('mobile_push/e2ee/test_notification', { as: member }),
      400,
      'Server is not configured to use push notification service.',
      'PUSH_SERVICE_NOT_CONFIGURED',
    );
  });
});

describe('with PUSH_BOUNCER_URL but no credentials', () => {
  let t: TestApp;
  let relay: FakePushRelay;
  let member: Account;
  beforeAll(async () => {
    relay = await FakePushRelay.create();
    t = await TestApp.start({ PUSH_BOUNCER_URL: relay.url, PUSH_REGISTRATION_RETRY_INTERVAL_MS: '0' });
    member = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
    await relay.stop();
  });

  it('keeps registrations waiting and sends nothing', async () => {
    expect((await t.get('server_settings', { as: null })).body.push_notifications_enabled).toBe(true);
    const id = await newDevice(t, member);
    expectSuccess(await t.post('mobile_push/register', { as: member, form: registration(id) }));
    const [row] = await t.app.get(DataSource).query(`SELECT push_token_id, pending_push_token_id FROM devices WHERE id = $1`, [id]);
    expect(row).toEqual({ push_token_id: null, pending_push_token_id: '-359574906294109112' });
    expect(relay.requests).toEqual([]);
  });

  it('answers the test notification with ADMIN_ACTION_REQUIRED', async () => {
    const id = await newDevice(t, member);
    await activate(t, id);
    expectError(
      await t.post('mobile_push/e2ee/test_notification', { as: member }),
      403,
      'Push notification configuration issue on server, contact the server administrator or retry later.',
      'ADMIN_ACTION_REQUIRED',
    );
    expect(relay.requests).toEqual([]);
  });

  it('answers the legacy test notification with ADMIN_ACTION_REQUIRED', async () => {
    expectSuccess(await t.post('users/me/android_gcm_reg_id', { as: member, form: { token: 'fcm-token' } }));
    expectError(
      await t.post('mobile_push/test_notification', { as: member }),
      403,
      'Push notification configuration issue on server, contact the server administrator or retry later.',
      'ADMIN_ACTION_REQUIRED',
    );
    expect(relay.requests).toEqual([]);
  });
});
