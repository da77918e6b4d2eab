import { badRequest } from '../shared/index.js';
import { checkPushKey, decodeTokenId } from './tokens.js';

export const PUSH_TOKEN_KINDS = ['fcm', 'apns'] as const;
export type PushTokenKind = (typeof PUSH_TOKEN_KINDS)[number];

/**
 * The E2EE push fields of one client device (Zulip's Device model). A device is *active* once
 * the relay accepted its token (`pushTokenId` set); a registration sent to the relay and not yet
 * answered is *pending* (`pendingPushTokenId` set, no error code).
 */
export interface DevicePushState {
  readonly id: number;
  readonly pushKey: Uint8Array | null;
  readonly pushKeyId: number | null;
  readonly tokenKind: PushTokenKind | null;
  readonly pushTokenId: bigint | null;
  readonly pendingPushTokenId: bigint | null;
  readonly tokenUpdatedAt: Date | null;
  readonly errorCode: string | null;
}

export const emptyDevicePush = (id: number): DevicePushState => ({
  id,
  pushKey: null,
  pushKeyId: null,
  tokenKind: null,
  pushTokenId: null,
  pendingPushTokenId: null,
  tokenUpdatedAt: null,
  errorCode: null,
});

/** The optional fields of POST /mobile_push/register, already type-checked. */
export interface PushRegistrationInput {
  readonly tokenKind?: PushTokenKind;
  readonly pushKey?: string;
  readonly pushKeyId?: number;
  readonly bouncerPublicKey?: string;
  readonly encryptedPushRegistration?: string;
  /** Base64 as sent (`token_id`). */
  readonly tokenId?: string;
}

/** What the server sends to the relay's `push/e2ee/register` for one device. */
export interface RelayRegistration {
  readonly tokenId: string;
  readonly bouncerPublicKey: string;
  readonly encryptedPushRegistration: string;
}

export type DeviceEvent = Record<string, unknown> & { type: 'device'; op: 'update'; device_id: number };

/** zerver/actions/devices.py: POST /register_client_device and POST /remove_client_device tell the user's clients. */
export const deviceAdded = (deviceId: number) => ({ type: 'device', op: 'add', device_id: deviceId }) as const;
export const deviceRemoved = (deviceId: number) => ({ type: 'device', op: 'remove', device_id: deviceId }) as const;

export type PushRegistrationDecision =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'key_rotated'; readonly state: DevicePushState; readonly event: DeviceEvent }
  | {
      readonly kind: 'queued';
      readonly state: DevicePushState;
      readonly event: DeviceEvent;
      readonly registration: RelayRegistration;
    };

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);
const sameBytes = (a: Uint8Array | null, b: Uint8Array): boolean =>
  a !== null && a.length === b.length && a.every((x, i) => x === b[i]);

/** A registration sent to the relay and not answered yet (Zulip refuses a second one meanwhile). */
export const isRegistrationPending = (d: DevicePushState): boolean => d.errorCode === null && d.pendingPushTokenId !== null;

/**
 * zerver/views/push_notifications.py register_push_device, after the device was found: which
 * of key rotation, token rotation or a fresh registration the fields ask for, in Zulip's order of
 * checks, and the device's new state. Queued registrations go to the relay after COMMIT.
 */
export function decidePushRegistration(device: DevicePushState, input: PushRegistrationInput, now: Date): PushRegistrationDecision {
  const keyFields = input.pushKey !== undefined && input.pushKeyId !== undefined;
  const tokenFields =
    input.bouncerPublicKey !== undefined &&
    input.encryptedPushRegistration !== undefined &&
    input.tokenId !== undefined &&
    input.tokenKind !== undefined;

  if (!keyFields && !tokenFields) {
    throw badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');
  }

  if (keyFields && !tokenFields) {
    if (device.pushKeyId === null) throw badRequest('No push registration exists to rotate key for.');
    const key = checkPushKey(input.pushKey!);
    if (device.pushKeyId === input.pushKeyId && sameBytes(device.pushKey, key)) return { kind: 'unchanged' };
    const state = { ...device, pushKey: key, pushKeyId: input.pushKeyId! };
    return { kind: 'key_rotated', state, event: { type: 'device', op: 'update', device_id: device.id, push_key_id: state.pushKeyId } };
  }

  if (isRegistrationPending(device)) throw badRequest('A registration for the device already in progress.');

  const tokenIdBase64 = input.tokenId!;
  const tokenId = decodeTokenId(tokenIdBase64);
  const registration: RelayRegistration = {
    tokenId: tokenIdBase64,
    bouncerPublicKey: input.bouncerPublicKey!,
    encryptedPushRegistration: input.encryptedPushRegistration!,
  };

  if (!keyFields) {
    if (device.pushKeyId === null) throw badRequest('No push registration exists to rotate token for.');
    if (device.errorCode === null && device.pushTokenId === tokenId) return { kind: 'unchanged' };
    const state = { ...device, pendingPushTokenId: tokenId, tokenUpdatedAt: now, errorCode: null };
    const event: DeviceEvent = {
      type: 'device',
      op: 'update',
      device_id: device.id,
      pending_push_token_id: tokenIdBase64,
      push_token_last_updated_timestamp: seconds(now),
      push_registration_error_code: null,
    };
    return { kind: 'queued', state, event, registration };
  }

  const key = checkPushKey(input.pushKey!);
  if (
    device.errorCode === null &&
    device.pushKeyId === input.pushKeyId &&
    sameBytes(device.pushKey, key) &&
    device.pushTokenId === tokenId &&
    device.tokenKind === input.tokenKind
  ) {
    return { kind: 'unchanged' };
  }
  const state: DevicePushState = {
    ...device,
    pushKey: key,
    pushKeyId: input.pushKeyId!,
    pendingPushTokenId: tokenId,
    tokenKind: input.tokenKind!,
    tokenUpdatedAt: now,
    errorCode: null,
  };
  const event: DeviceEvent = {
    type: 'device',
    op: 'update',
    device_id: device.id,
    push_key_id: state.pushKeyId,
    pending_push_token_id: tokenIdBase64,
    push_token_last_updated_timestamp: seconds(now),
    push_registration_error_code: null,
  };
  return { kind: 'queued', state, event, registration };
}

/** The relay accepted the token: it becomes the device's active token (Zulip's success branch). */
export function registrationAccepted(device: DevicePushState, registration: RelayRegistration): { state: DevicePushState; event: DeviceEvent } {
  const state = { ...device, pushTokenId: decodeTokenId(registration.tokenId), pendingPushTokenId: null };
  return {
    state,
    event: { type: 'device', op: 'update', device_id: device.id, push_token_id: registration.tokenId, pending_push_token_id: null },
  };
}

/** The relay refused the registration for good: the device keeps the error code for clients to see. */
export function registrationFailed(device: DevicePushState, errorCode: string): { state: DevicePushState; event: DeviceEvent } {
  return {
    state: { ...device, errorCode },
    event: { type: 'device', op: 'update', device_id: device.id, push_registration_error_code: errorCode },
  };
}

/** The relay reported the device's token as expired: its push registration is dropped. */
export const registrationDropped = (device: DevicePushState): DevicePushState => emptyDevicePush(device.id);
