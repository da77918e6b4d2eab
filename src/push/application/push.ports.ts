import type { DevicePushState, PushTokenKind, RelayRegistration, RelayResult } from '@app/domain/push';

/** A registration waiting for the relay (one per device; a newer one replaces it under a new id). */
export interface RegistrationJob {
  readonly id: string;
  readonly realmId: number;
  readonly deviceId: number;
  readonly registration: RelayRegistration;
  /** Failed attempts so far. */
  readonly attempts: number;
  readonly queuedAt: Date;
  /**
   * Set by each claim: the runner whose claim this is. A runner records its relay call's result
   * only while the job still carries its token (another runner may have taken the job over
   * once the lease ran out).
   */
  readonly leaseToken: string | null;
}

/** A device the relay accepted, with what a notification to it needs. */
export interface ActivePushDevice {
  readonly deviceId: number;
  readonly pushTokenId: bigint;
  readonly tokenKind: PushTokenKind;
  readonly pushKey: Uint8Array;
  readonly pushKeyId: number;
}

/** Client devices, their E2EE push registration and the legacy tokens; every call is scoped by realm. */
export abstract class PushDeviceRepository {
  abstract createDevice(realmId: number, userId: number, now: Date): Promise<number>;
  /** Deletes the user's device (and its queued registration); false when missing or someone else's. */
  abstract deleteDevice(realmId: number, userId: number, deviceId: number): Promise<boolean>;
  /** The user's device, locked for update; null when missing or someone else's. */
  abstract lockDevice(realmId: number, userId: number, deviceId: number): Promise<DevicePushState | null>;
  /** A device by id within the realm, locked for update (for the registration runner). */
  abstract lockDeviceById(realmId: number, deviceId: number): Promise<(DevicePushState & { userId: number }) | null>;
  abstract saveDevicePush(realmId: number, state: DevicePushState): Promise<void>;

  /** Queues the device's registration for the relay, replacing any earlier one; due at once. */
  abstract queueRegistration(realmId: number, deviceId: number, registration: RelayRegistration, now: Date): Promise<string>;
  /** The job, locked; null when it was completed or replaced meanwhile. */
  abstract lockJob(realmId: number, jobId: string): Promise<RegistrationJob | null>;
  abstract deleteJob(realmId: number, jobId: string): Promise<void>;
  abstract rescheduleJob(realmId: number, jobId: string, attempts: number, nextAttemptAt: Date): Promise<void>;

  /** Drops the push registration of the user's devices whose active token the relay reported expired. */
  abstract dropRegistrations(realmId: number, userId: number, pushTokenIds: readonly bigint[]): Promise<void>;

  /** Stores a legacy token; an existing registration of it is left as it is (Zulip's ignore_conflicts). */
  abstract addLegacyToken(o: { realmId: number; userId: number; kind: number; token: string; iosAppId: string | null; now: Date }): Promise<void>;
  /** Removes the user's legacy token (APNs tokens compared case-insensitively); false when none. */
  abstract removeLegacyToken(realmId: number, userId: number, kind: number, token: string): Promise<boolean>;
}

/** A legacy (non-E2EE) APNs or FCM token of a user (Zulip's PushDeviceToken). */
export interface LegacyPushToken {
  readonly token: string;
  /** 1 = APNs, 2 = FCM (LEGACY_TOKEN_KIND). */
  readonly kind: number;
  readonly iosAppId: string | null;
}

export abstract class PushQueries {
  /** The user's legacy tokens, oldest first; with `token`, only those equal to it (of either kind). */
  abstract legacyTokens(realmId: number, userId: number, token: string | null): Promise<LegacyPushToken[]>;
  /** The user's devices the relay accepted (optionally only the given one). */
  abstract activeDevices(realmId: number, userId: number, deviceId: number | null): Promise<ActivePushDevice[]>;
  abstract realmIdentity(realmId: number): Promise<{ uuid: string; stringId: string; name: string }>;
  /**
   * Claims up to `limit` due jobs (or only `jobId`) for this process until `leaseUntil`, so that
   * no other runner takes them meanwhile.
   */
  abstract claimDueJobs(o: { now: Date; leaseUntil: Date; limit: number; jobId?: string }): Promise<RegistrationJob[]>;
}

export interface RelayNotifyResponse {
  /** The relay's IDs of the targeted devices whose tokens are expired or unknown. */
  readonly deleteDeviceIds: readonly bigint[];
}

export interface LegacyTestNotification {
  readonly realmUuid: string;
  readonly userId: number;
  readonly token: string;
  readonly tokenKind: number;
  readonly basePayload: Record<string, unknown>;
}

/**
 * The mobile push relay (Zulip's push notification service, `/api/v1/remotes/...`). Failures are
 * results, not exceptions: every outcome has its own meaning for the caller.
 */
export abstract class PushRelay {
  /** `push/e2ee/register`. */
  abstract registerDevice(realmUuid: string, registration: RelayRegistration): Promise<RelayResult<void>>;
  /** `push/e2ee/notify` with the per-device requests (device IDs as bigints). */
  abstract notify(realmUuid: string, pushRequests: readonly Record<string, unknown>[]): Promise<RelayResult<RelayNotifyResponse>>;
  /**
   * `push/test_notification`: a test notification to one legacy token (Zulip's
   * send_test_push_notification through the bouncer, one request per token).
   */
  abstract sendLegacyTestNotification(request: LegacyTestNotification): Promise<RelayResult<void>>;
}

/** Encrypts a notification for one device with its push key (prefix byte + secret). */
export abstract class PushCipher {
  abstract encrypt(pushKey: Uint8Array, plaintext: string): string;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly pushDevices: PushDeviceRepository;
  }
}
