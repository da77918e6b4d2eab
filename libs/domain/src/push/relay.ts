import { badRequest, DomainError } from '../shared/index.js';
import type { PushTokenKind } from './device-registration.js';
import { invalidRemotePushDeviceToken } from './tokens.js';

/**
 * How a call to the push relay (Zulip's "push notification bouncer") can fail, as
 * zerver/lib/remote_server.py send_to_push_bouncer tells the cases apart.
 */
export type RelayFailure =
  /** Connection refused, DNS, TLS, timeout: Zulip's PushNotificationBouncerRetryLaterError. */
  | { readonly kind: 'unreachable'; readonly detail: string }
  /** The relay answered 5xx: PushNotificationBouncerServerError. */
  | { readonly kind: 'server_error'; readonly status: number }
  /** The relay answered 4xx with a Zulip error body (its `code` decides what it means). */
  | { readonly kind: 'refused'; readonly status: number; readonly code: string | null; readonly msg: string }
  /** Any other status (3xx, 1xx, a 4xx without a readable error body): PushNotificationBouncerError. */
  | { readonly kind: 'unexpected'; readonly status: number }
  /** This server has no relay credentials configured: nothing was sent. */
  | { readonly kind: 'not_configured' };

export type RelayResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: RelayFailure };

/** Relay error codes that only the server's administrators can fix (registration, credentials, plan). */
export const ADMIN_ACTION_CODES: readonly string[] = ['MISSING_REMOTE_REALM', 'INVALID_ZULIP_SERVER', 'PUSH_NOTIFICATIONS_DISALLOWED'];

export const noActivePushDevice = (): DomainError => new DomainError('No active registered push device', 'NO_ACTIVE_PUSH_DEVICE');

export const failedToConnectRelay = (): DomainError =>
  new DomainError('Network error while connecting to Zulip push notification service.', 'FAILED_TO_CONNECT_BOUNCER', 'bad_gateway');

export const relayInternalError = (): DomainError =>
  new DomainError('Internal server error on Zulip push notification service, retry later.', 'INTERNAL_SERVER_ERROR_ON_BOUNCER', 'bad_gateway');

export const pushAdminActionRequired = (): DomainError =>
  new DomainError(
    'Push notification configuration issue on server, contact the server administrator or retry later.',
    'ADMIN_ACTION_REQUIRED',
    'forbidden',
  );

/**
 * send_e2ee_test_push_notification's mapping of a failed notify request to the client's error.
 * A 4xx with another code is, as in Zulip, a client error carrying the relay's own text.
 */
export function testNotificationError(f: RelayFailure): DomainError {
  switch (f.kind) {
    case 'unreachable':
      return failedToConnectRelay();
    case 'server_error':
      return relayInternalError();
    case 'refused':
      return f.code !== null && ADMIN_ACTION_CODES.includes(f.code) ? pushAdminActionRequired() : badRequest(f.msg);
    case 'unexpected':
    case 'not_configured':
      return pushAdminActionRequired();
  }
}

/** How long the server keeps retrying a registration the relay could not take yet (the relay's own expiry). */
export const REGISTRATION_RETRY_WINDOW_SECONDS = 24 * 3600;
const RETRY_DELAYS_SECONDS = [60, 300, 900, 3600];

/**
 * handle_register_push_device_to_bouncer: transient failures (network, 5xx, configuration the
 * administrators must fix) are retried; any other refusal is final and stored as the device's
 * error code (the relay's INVALID_BOUNCER_PUBLIC_KEY / REQUEST_EXPIRED, else BAD_REQUEST).
 * `attempts` counts the failed attempts including this one.
 */
export function registrationFailureAction(
  f: RelayFailure,
  attempts: number,
  secondsSinceQueued: number,
): { readonly retryInSeconds: number } | { readonly errorCode: string } {
  const permanent = f.kind === 'refused' && (f.code === null || !ADMIN_ACTION_CODES.includes(f.code));
  if (permanent) {
    return { errorCode: f.code === 'INVALID_BOUNCER_PUBLIC_KEY' || f.code === 'REQUEST_EXPIRED' ? f.code : 'BAD_REQUEST' };
  }
  const delay = RETRY_DELAYS_SECONDS[Math.min(attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? RETRY_DELAYS_SECONDS[0];
  if (secondsSinceQueued + delay > REGISTRATION_RETRY_WINDOW_SECONDS) return { errorCode: 'REQUEST_EXPIRED' };
  return { retryInSeconds: delay };
}

/** One device of a notify request: the relay's ID for it, how to deliver, and the ciphertext. */
export interface PushTarget {
  readonly relayDeviceId: bigint;
  readonly tokenKind: PushTokenKind;
  readonly pushKeyId: number;
  readonly encryptedData: string;
}

/**
 * The per-device entry of `push/e2ee/notify` (zerver/lib/push_notifications.py
 * send_push_notifications: FCMPushRequest / APNsPushRequest with high priority, as for a test
 * or message notification). `device_id` stays a bigint so it reaches the wire unrounded.
 */
export function pushRequest(t: PushTarget): Record<string, unknown> {
  const payload = { push_key_id: t.pushKeyId, encrypted_data: t.encryptedData };
  if (t.tokenKind === 'apns') {
    return {
      device_id: t.relayDeviceId,
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: { ...payload, aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
    };
  }
  return { device_id: t.relayDeviceId, fcm_priority: 'high', payload };
}

/** get_base_payload(for_legacy_clients=False) plus the test marker: the JSON that gets encrypted. */
export function testNotificationPayload(o: { realmUrl: string; realmName: string; userId: number; now: Date }): Record<string, unknown> {
  return { realm_url: o.realmUrl, realm_name: o.realmName, user_id: o.userId, type: 'test', time: Math.floor(o.now.getTime() / 1000) };
}

/**
 * A failed `push/test_notification` request (POST /mobile_push/test_notification, legacy
 * tokens). The relay's INVALID_REMOTE_PUSH_DEVICE_TOKEN is passed on to the device as Zulip's
 * send_to_push_bouncer does for this endpoint; every other failure is mapped as for the E2EE
 * test notification (where Zulip itself would answer 500 or name the exception, this server
 * gives the E2EE endpoint's documented errors instead).
 */
export function legacyTestNotificationError(f: RelayFailure): DomainError {
  if (f.kind === 'refused' && f.code === 'INVALID_REMOTE_PUSH_DEVICE_TOKEN') return invalidRemotePushDeviceToken();
  return testNotificationError(f);
}

/** zerver/lib/push_notifications.py get_base_payload: what every notification to a legacy token starts with. */
export function legacyBasePayload(o: { server: string; realmId: number; realmUrl: string; realmName: string; userId: number }): Record<string, unknown> {
  return { server: o.server, realm_id: o.realmId, realm_uri: o.realmUrl, realm_url: o.realmUrl, realm_name: o.realmName, user_id: o.userId };
}
