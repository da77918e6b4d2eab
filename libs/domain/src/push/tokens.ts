import { badRequest, codePointLength, DomainError } from '../shared/index.js';
import { b64decodeValidated, bytesToSignedBigInt, isPythonHex } from './encoding.js';

/** Legacy (non-E2EE) token kinds of Zulip's PushDeviceToken. */
export const LEGACY_TOKEN_KIND = { apns: 1, fcm: 2 } as const;

/** Zulip's ApnsAppId type: `^[.a-zA-Z0-9-]+$` (the message comes from the parameter layer). */
export const APNS_APP_ID_PATTERN = /^[.a-zA-Z0-9-]+$/;

/** zerver/lib/push_notifications.py validate_token for an APNs token. */
export function validateApnsToken(token: string): void {
  if (token === '' || codePointLength(token) > 4096) throw badRequest('Empty or invalid length token');
  if (!isPythonHex(token)) throw badRequest('Invalid APNS token');
}

/** validate_token for an FCM token (Zulip's `kind=FCM`): only the length is checked. */
export function validateFcmToken(token: string): void {
  if (token === '' || codePointLength(token) > 4096) throw badRequest('Empty or invalid length token');
}

export const tokenDoesNotExist = (): DomainError => badRequest('Token does not exist');

/** InvalidPushDeviceTokenError: POST /mobile_push/test_notification with a token the caller has not registered. */
export const invalidPushDeviceToken = (): DomainError => new DomainError('Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');

/** InvalidRemotePushDeviceTokenError: the relay does not know the token of a test notification. */
export const invalidRemotePushDeviceToken = (): DomainError =>
  new DomainError('Device not recognized by the push bouncer', 'INVALID_REMOTE_PUSH_DEVICE_TOKEN');

/** The cryptosystem prefix of a push key: 0x31 is libsodium's secretbox (XSalsa20-Poly1305). */
export const PUSH_KEY_SECRETBOX = 0x31;
export const PUSH_KEY_LENGTH = 33;

/** zerver/lib/push_registration.py check_push_key: Base64 of the prefix byte and a 32-byte key. */
export function checkPushKey(pushKey: string): Uint8Array {
  const bytes = b64decodeValidated(pushKey);
  if (bytes === null || bytes.length !== PUSH_KEY_LENGTH || bytes[0] !== PUSH_KEY_SECRETBOX) {
    throw badRequest('Invalid `push_key`');
  }
  return bytes;
}

/**
 * zerver/lib/devices.py b64decode_token_id_base64: the client's token ID (first 8 bytes of the
 * token's SHA-256) as a signed big-endian integer. Zulip stores it in a 64-bit column, so more
 * than 8 bytes is refused here rather than failing in the database.
 */
export function decodeTokenId(tokenId: string): bigint {
  const bytes = b64decodeValidated(tokenId);
  if (bytes === null) throw badRequest('`token_id` is not Base64 encoded');
  if (bytes.length > 8) throw badRequest('Invalid `token_id`');
  return bytesToSignedBigInt(bytes);
}

export const invalidDeviceId = (): DomainError => badRequest('Invalid `device_id`');

export const pushServiceNotConfigured = (): DomainError =>
  new DomainError('Server is not configured to use push notification service.', 'PUSH_SERVICE_NOT_CONFIGURED');
