import {
  b64decodeValidated,
  bytesToSignedBigInt,
  encodeBase64,
  encodeTokenId,
  isPythonHex,
} from './encoding.js';
import {
  decidePushRegistration,
  type DevicePushState,
  emptyDevicePush,
  isRegistrationPending,
  type PushRegistrationInput,
  registrationAccepted,
  registrationDropped,
  registrationFailed,
} from './device-registration.js';
import {
  legacyBasePayload,
  legacyTestNotificationError,
  pushRequest,
  type RelayFailure,
  registrationFailureAction,
  testNotificationError,
  testNotificationPayload,
} from './relay.js';
import { APNS_APP_ID_PATTERN, checkPushKey, decodeTokenId, validateApnsToken, validateFcmToken } from './tokens.js';

const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));

describe('Base64 as Python 3.11 validates it', () => {
  it('decodes padded groups', () => {
    expect(hex(b64decodeValidated(''))).toBe('');
    expect(hex(b64decodeValidated('QQ=='))).toBe('41');
    expect(hex(b64decodeValidated('QUI='))).toBe('4142');
    expect(hex(b64decodeValidated('QUJD'))).toBe('414243');
    expect(hex(b64decodeValidated('QUJD=='))).toBe('414243');
  });
  it('refuses missing or excess padding, stray characters and leading padding', () => {
    for (const s of ['QQ', 'QQ=', 'QQ===', 'QUI', 'QUI==', 'Q', 'QUJDQ', '=', '==', '@abc', 'ab c', 'QUJD=QQ==', 'QUJD\n']) {
      expect(b64decodeValidated(s), s).toBeNull();
    }
  });
  it('encodes back', () => {
    expect(encodeBase64(Uint8Array.from([0x41]))).toBe('QQ==');
    expect(encodeBase64(Uint8Array.from([0x41, 0x42]))).toBe('QUI=');
    expect(encodeBase64(Uint8Array.from([0x41, 0x42, 0x43]))).toBe('QUJD');
  });
});

describe('hex as bytes.fromhex reads it', () => {
  it('takes pairs of hex digits with ASCII whitespace before a pair', () => {
    for (const s of ['', 'ab', 'AbCd', 'ab cd', ' ab', 'ab ', '\tab\n', 'c0ffee']) expect(isPythonHex(s), s).toBe(true);
  });
  it('refuses odd digits, split pairs and other characters', () => {
    for (const s of ['a', 'abc', 'a b', '0g', 'xyz', 'ab\u00a0cd']) expect(isPythonHex(s), s).toBe(false);
  });
});

describe('token IDs', () => {
  it('reads 8 bytes as a signed big-endian integer and writes them back', () => {
    // sha256("c0ffee")[:8], the token ID of Zulip's own tests.
    expect(decodeTokenId('+wKIhyAx/Eg=')).toBe(-359574906294109112n);
    expect(encodeTokenId(-359574906294109112n)).toBe('+wKIhyAx/Eg=');
    expect(encodeTokenId(1n)).toBe('AAAAAAAAAAE=');
    expect(bytesToSignedBigInt(Uint8Array.from([0xff]))).toBe(-1n);
    expect(bytesToSignedBigInt(Uint8Array.from([0x01]))).toBe(1n);
    expect(decodeTokenId('')).toBe(0n);
  });
  it('refuses what is not Base64, and more than 8 bytes', () => {
    expect(() => decodeTokenId('@abcdefg')).toThrow('`token_id` is not Base64 encoded');
    expect(() => decodeTokenId('192057')).toThrow('`token_id` is not Base64 encoded');
    expect(() => decodeTokenId('AAAAAAAAAAAA')).toThrow('Invalid `token_id`');
  });
});

describe('legacy APNs tokens', () => {
  it('accepts hex tokens', () => {
    expect(() => validateApnsToken('c0ffee')).not.toThrow();
    expect(() => validateApnsToken('a'.repeat(64))).not.toThrow();
  });
  it('refuses empty, too long and non-hex tokens', () => {
    expect(() => validateApnsToken('')).toThrow('Empty or invalid length token');
    expect(() => validateApnsToken('aa'.repeat(2049))).toThrow('Empty or invalid length token');
    expect(() => validateApnsToken('xyz uses non-hex characters')).toThrow('Invalid APNS token');
    expect(() => validateApnsToken('abc')).toThrow('Invalid APNS token');
  });
  it('checks app ids', () => {
    expect(APNS_APP_ID_PATTERN.test('org.zulip.Zulip')).toBe(true);
    expect(APNS_APP_ID_PATTERN.test('com.example-app.1')).toBe(true);
    for (const s of ['', '* -- +', 'org zulip', 'org.zulip\n']) expect(APNS_APP_ID_PATTERN.test(s), s).toBe(false);
  });
});

describe('legacy FCM tokens', () => {
  it('checks only the length, in characters', () => {
    for (const s of ['x', 'not hex: at all', 'é'.repeat(4096), '😀'.repeat(4096)]) expect(() => validateFcmToken(s)).not.toThrow();
    for (const s of ['', 'x'.repeat(4097), '😀'.repeat(4097)]) expect(() => validateFcmToken(s)).toThrow('Empty or invalid length token');
  });
});

describe('the legacy test notification', () => {
  it('passes the relay\'s unknown-token refusal on, and maps the rest as the E2EE one does', () => {
    const unknown = legacyTestNotificationError({ kind: 'refused', status: 400, code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN', msg: 'x' });
    expect({ msg: unknown.msg, code: unknown.code }).toEqual({ msg: 'Device not recognized by the push bouncer', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN' });
    const failures: RelayFailure[] = [
      { kind: 'unreachable', detail: 'ECONNREFUSED' },
      { kind: 'server_error', status: 502 },
      { kind: 'refused', status: 401, code: 'INVALID_ZULIP_SERVER', msg: 'auth' },
      { kind: 'refused', status: 400, code: 'BAD_REQUEST', msg: 'Invalid token type' },
      { kind: 'unexpected', status: 302 },
      { kind: 'not_configured' },
    ];
    for (const f of failures) expect(legacyTestNotificationError(f)).toEqual(testNotificationError(f));
  });

  it('starts from get_base_payload', () => {
    expect(legacyBasePayload({ server: 'chat.example.com', realmId: 2, realmUrl: 'https://x.chat.example.com', realmName: 'X', userId: 9 })).toEqual({
      server: 'chat.example.com',
      realm_id: 2,
      realm_uri: 'https://x.chat.example.com',
      realm_url: 'https://x.chat.example.com',
      realm_name: 'X',
      user_id: 9,
    });
  });
});

describe('push keys', () => {
  const KEY = 'MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301';
  it('accepts the secretbox prefix and a 32-byte key', () => {
    const k = checkPushKey(KEY);
    expect(k).toHaveLength(33);
    expect(k[0]).toBe(0x31);
  });
  it('refuses bad Base64, other lengths and other prefixes', () => {
    const other = Buffer.from(KEY, 'base64');
    other[0] = 0x32;
    for (const s of ['@abcdefg', 'abcd', other.toString('base64')]) expect(() => checkPushKey(s), s).toThrow('Invalid `push_key`');
  });
});

const NOW = new Date('2026-01-02T03:04:05.678Z');
const KEY_A = 'MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301';
const KEY_B = 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt';
const TOKEN = '+wKIhyAx/Eg=';
const TOKEN_2 = 'AAAAAAAAAAI=';
const tokenFields = (tokenId = TOKEN): PushRegistrationInput => ({
  tokenKind: 'apns',
  bouncerPublicKey: 'pub',
  encryptedPushRegistration: 'sealed',
  tokenId,
});
const keyFields = (pushKey = KEY_A, pushKeyId = 2408): PushRegistrationInput => ({ pushKey, pushKeyId });
const full = (o: PushRegistrationInput = {}): PushRegistrationInput => ({ ...keyFields(), ...tokenFields(), ...o });

/** A device whose registration the relay accepted. */
function active(): DevicePushState {
  const d = decidePushRegistration(emptyDevicePush(7), full(), NOW);
  if (d.kind !== 'queued') throw new Error('expected queued');
  return registrationAccepted(d.state, d.registration).state;
}

describe('POST /mobile_push/register decisions', () => {
  it('needs a complete key group or a complete token group', () => {
    for (const input of [{}, { pushKey: KEY_A }, { pushKeyId: 1, tokenId: TOKEN }, { ...tokenFields(), tokenKind: undefined }]) {
      expect(() => decidePushRegistration(emptyDevicePush(7), input, NOW)).toThrow(
        'Missing parameters: must provide either all push key fields, all token fields, or both.',
      );
    }
  });

  it('queues a fresh registration, pending until the relay answers', () => {
    const d = decidePushRegistration(emptyDevicePush(7), full(), NOW);
    expect(d.kind).toBe('queued');
    if (d.kind !== 'queued') return;
    expect(d.state).toMatchObject({ pushKeyId: 2408, tokenKind: 'apns', pendingPushTokenId: -359574906294109112n, pushTokenId: null });
    expect(d.state.tokenUpdatedAt).toEqual(NOW);
    expect(isRegistrationPending(d.state)).toBe(true);
    expect(d.registration).toEqual({ tokenId: TOKEN, bouncerPublicKey: 'pub', encryptedPushRegistration: 'sealed' });
    expect(d.event).toEqual({
      type: 'device',
      op: 'update',
      device_id: 7,
      push_key_id: 2408,
      pending_push_token_id: TOKEN,
      push_token_last_updated_timestamp: Math.floor(NOW.getTime() / 1000),
      push_registration_error_code: null,
    });
  });

  it('refuses a second registration while one is pending', () => {
    const d = decidePushRegistration(emptyDevicePush(7), full(), NOW);
    if (d.kind !== 'queued') throw new Error();
    expect(() => decidePushRegistration(d.state, full(), NOW)).toThrow('A registration for the device already in progress.');
    expect(() => decidePushRegistration(d.state, tokenFields(TOKEN_2), NOW)).toThrow('A registration for the device already in progress.');
  });

  it('lets a key be rotated while pending', () => {
    const d = decidePushRegistration(emptyDevicePush(7), full(), NOW);
    if (d.kind !== 'queued') throw new Error();
    expect(decidePushRegistration(d.state, keyFields(KEY_B, 1144), NOW).kind).toBe('key_rotated');
  });

  it('activates the token when the relay accepts', () => {
    const d = decidePushRegistration(emptyDevicePush(7), full(), NOW);
    if (d.kind !== 'queued') throw new Error();
    const { state, event } = registrationAccepted(d.state, d.registration);
    expect(state).toMatchObject({ pushTokenId: -359574906294109112n, pendingPushTokenId: null });
    expect(event).toEqual({ type: 'device', op: 'update', device_id: 7, push_token_id: TOKEN, pending_push_token_id: null });
  });

  it('is idempotent for the same fields', () => {
    expect(decidePushRegistration(active(), full(), NOW)).toEqual({ kind: 'unchanged' });
  });

  it('registers again when any field differs', () => {
    expect(decidePushRegistration(active(), full({ tokenKind: 'fcm' }), NOW).kind).toBe('queued');
    expect(decidePushRegistration(active(), full({ pushKeyId: 1 }), NOW).kind).toBe('queued');
    expect(decidePushRegistration(active(), full({ pushKey: KEY_B }), NOW).kind).toBe('queued');
  });

  it('registers again after a refusal, even with the same fields', () => {
    const failed = registrationFailed(active(), 'INVALID_BOUNCER_PUBLIC_KEY');
    expect(failed.event).toEqual({ type: 'device', op: 'update', device_id: 7, push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' });
    expect(isRegistrationPending(failed.state)).toBe(false);
    expect(decidePushRegistration(failed.state, full(), NOW).kind).toBe('queued');
  });

  it('rotates the key only when a registration exists', () => {
    expect(() => decidePushRegistration(emptyDevicePush(7), keyFields(KEY_B, 1144), NOW)).toThrow(
      'No push registration exists to rotate key for.',
    );
    const d = decidePushRegistration(active(), keyFields(KEY_B, 1144), NOW);
    expect(d.kind).toBe('key_rotated');
    if (d.kind !== 'key_rotated') return;
    expect(d.state.pushKeyId).toBe(1144);
    expect(hex(d.state.pushKey)).toBe(Buffer.from(KEY_B, 'base64').toString('hex'));
    expect(d.event).toEqual({ type: 'device', op: 'update', device_id: 7, push_key_id: 1144 });
    expect(decidePushRegistration(d.state, keyFields(KEY_B, 1144), NOW)).toEqual({ kind: 'unchanged' });
  });

  it('checks the key only after the registration exists', () => {
    expect(() => decidePushRegistration(emptyDevicePush(7), keyFields('bad', 1), NOW)).toThrow('No push registration exists to rotate key for.');
    expect(() => decidePushRegistration(active(), keyFields('bad', 1), NOW)).toThrow('Invalid `push_key`');
  });

  it('rotates the token only when a registration exists', () => {
    expect(() => decidePushRegistration(emptyDevicePush(7), tokenFields(), NOW)).toThrow('No push registration exists to rotate token for.');
    expect(decidePushRegistration(active(), tokenFields(), NOW)).toEqual({ kind: 'unchanged' });
    const d = decidePushRegistration(active(), tokenFields(TOKEN_2), NOW);
    expect(d.kind).toBe('queued');
    if (d.kind !== 'queued') return;
    expect(d.state).toMatchObject({ pushTokenId: -359574906294109112n, pendingPushTokenId: 2n, pushKeyId: 2408 });
    expect(d.event).toEqual({
      type: 'device',
      op: 'update',
      device_id: 7,
      pending_push_token_id: TOKEN_2,
      push_token_last_updated_timestamp: Math.floor(NOW.getTime() / 1000),
      push_registration_error_code: null,
    });
  });

  it('checks the token ID before the key', () => {
    expect(() => decidePushRegistration(emptyDevicePush(7), full({ tokenId: '@x', pushKey: 'bad' }), NOW)).toThrow(
      '`token_id` is not Base64 encoded',
    );
    expect(() => decidePushRegistration(emptyDevicePush(7), full({ pushKey: 'bad' }), NOW)).toThrow('Invalid `push_key`');
  });

  it('drops a registration entirely', () => {
    expect(registrationDropped(active())).toEqual(emptyDevicePush(7));
  });
});

describe('relay failures of the test notification', () => {
  const mapped = (f: RelayFailure) => {
    const e = testNotificationError(f);
    return { msg: e.msg, code: e.code, kind: e.kind };
  };
  const ADMIN = {
    msg: 'Push notification configuration issue on server, contact the server administrator or retry later.',
    code: 'ADMIN_ACTION_REQUIRED',
    kind: 'forbidden',
  };
  it('maps network errors and 5xx to 502', () => {
    expect(mapped({ kind: 'unreachable', detail: 'ECONNREFUSED' })).toEqual({
      msg: 'Network error while connecting to Zulip push notification service.',
      code: 'FAILED_TO_CONNECT_BOUNCER',
      kind: 'bad_gateway',
    });
    expect(mapped({ kind: 'server_error', status: 503 })).toEqual({
      msg: 'Internal server error on Zulip push notification service, retry later.',
      code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
      kind: 'bad_gateway',
    });
  });
  it('maps configuration refusals, unexpected statuses and missing credentials to 403', () => {
    for (const code of ['MISSING_REMOTE_REALM', 'INVALID_ZULIP_SERVER', 'PUSH_NOTIFICATIONS_DISALLOWED']) {
      expect(mapped({ kind: 'refused', status: 403, code, msg: 'x' })).toEqual(ADMIN);
    }
    expect(mapped({ kind: 'unexpected', status: 302 })).toEqual(ADMIN);
    expect(mapped({ kind: 'not_configured' })).toEqual(ADMIN);
  });
  it('passes other refusals on as client errors', () => {
    expect(mapped({ kind: 'refused', status: 400, code: 'BAD_REQUEST', msg: 'Invalid device' })).toEqual({
      msg: 'Invalid device',
      code: 'BAD_REQUEST',
      kind: 'invalid',
    });
  });
});

describe('relay failures of a registration', () => {
  it('retries transient failures with growing delays', () => {
    const f: RelayFailure = { kind: 'unreachable', detail: 'timeout' };
    expect([1, 2, 3, 4, 5, 9].map((n) => registrationFailureAction(f, n, 0))).toEqual(
      [60, 300, 900, 3600, 3600, 3600].map((retryInSeconds) => ({ retryInSeconds })),
    );
    expect(registrationFailureAction({ kind: 'server_error', status: 500 }, 1, 0)).toEqual({ retryInSeconds: 60 });
    expect(registrationFailureAction({ kind: 'refused', status: 403, code: 'MISSING_REMOTE_REALM', msg: '' }, 1, 0)).toEqual({
      retryInSeconds: 60,
    });
    expect(registrationFailureAction({ kind: 'unexpected', status: 301 }, 1, 0)).toEqual({ retryInSeconds: 60 });
  });
  it('gives up after a day', () => {
    expect(registrationFailureAction({ kind: 'unreachable', detail: '' }, 30, 24 * 3600 - 100)).toEqual({ errorCode: 'REQUEST_EXPIRED' });
  });
  it('stores final refusals as error codes', () => {
    const refused = (code: string | null): RelayFailure => ({ kind: 'refused', status: 400, code, msg: 'm' });
    expect(registrationFailureAction(refused('INVALID_BOUNCER_PUBLIC_KEY'), 1, 0)).toEqual({ errorCode: 'INVALID_BOUNCER_PUBLIC_KEY' });
    expect(registrationFailureAction(refused('REQUEST_EXPIRED'), 1, 0)).toEqual({ errorCode: 'REQUEST_EXPIRED' });
    expect(registrationFailureAction(refused('BAD_REQUEST'), 1, 0)).toEqual({ errorCode: 'BAD_REQUEST' });
    expect(registrationFailureAction(refused(null), 1, 0)).toEqual({ errorCode: 'BAD_REQUEST' });
  });
});

describe('notify request', () => {
  it('builds the test payload in Zulip key order', () => {
    const p = testNotificationPayload({ realmUrl: 'http://chat.example.com', realmName: 'Org', userId: 10, now: NOW });
    expect(JSON.stringify(p)).toBe(
      `{"realm_url":"http://chat.example.com","realm_name":"Org","user_id":10,"type":"test","time":${Math.floor(NOW.getTime() / 1000)}}`,
    );
  });
  it('builds APNs and FCM entries', () => {
    expect(pushRequest({ relayDeviceId: 5n, tokenKind: 'apns', pushKeyId: 3, encryptedData: 'E' })).toEqual({
      device_id: 5n,
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: { push_key_id: 3, encrypted_data: 'E', aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
    });
    expect(pushRequest({ relayDeviceId: -5n, tokenKind: 'fcm', pushKeyId: 3, encryptedData: 'E' })).toEqual({
      device_id: -5n,
      fcm_priority: 'high',
      payload: { push_key_id: 3, encrypted_data: 'E' },
    });
  });
});
