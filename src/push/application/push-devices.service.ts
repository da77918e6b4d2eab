import {
  decidePushRegistration,
  deviceAdded,
  deviceRemoved,
  invalidDeviceId,
  invalidPushDeviceToken,
  LEGACY_TOKEN_KIND,
  legacyBasePayload,
  legacyTestNotificationError,
  noActivePushDevice,
  type PushRegistrationInput,
  pushRequest,
  pushServiceNotConfigured,
  testNotificationError,
  testNotificationPayload,
  tokenDoesNotExist,
  validateApnsToken,
  validateFcmToken,
} from '@app/domain/push';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { PushRegistrationRunner } from './push-registration-runner.js';
import { PushCipher, PushQueries, PushRelay } from './push.ports.js';

/** Mobile devices and their push registrations (spec 23 §1–2). */
@Injectable()
export class PushDevicesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: PushQueries,
    private readonly relay: PushRelay,
    private readonly cipher: PushCipher,
    private readonly runner: PushRegistrationRunner,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  /** POST /users/me/apns_device_token: stores the token once (repeats change nothing). */
  async addApnsToken(actor: Actor, token: string, appId: string): Promise<void> {
    validateApnsToken(token);
    await this.addLegacyToken(actor, LEGACY_TOKEN_KIND.apns, token, appId);
  }

  /** DELETE /users/me/apns_device_token. */
  async removeApnsToken(actor: Actor, token: string): Promise<void> {
    validateApnsToken(token);
    await this.removeLegacyToken(actor, LEGACY_TOKEN_KIND.apns, token);
  }

  /** POST /users/me/android_gcm_reg_id: the FCM twin of addApnsToken (no app id; tokens compared exactly). */
  async addFcmToken(actor: Actor, token: string): Promise<void> {
    validateFcmToken(token);
    await this.addLegacyToken(actor, LEGACY_TOKEN_KIND.fcm, token, null);
  }

  /** DELETE /users/me/android_gcm_reg_id. */
  async removeFcmToken(actor: Actor, token: string): Promise<void> {
    validateFcmToken(token);
    await this.removeLegacyToken(actor, LEGACY_TOKEN_KIND.fcm, token);
  }

  /**
   * Legacy tokens are kept on this server only (with or without a push relay): this server does
   * not forward them to the relay's `push/register` / `push/unregister` as Zulip does.
   */
  private async addLegacyToken(actor: Actor, kind: number, token: string, iosAppId: string | null): Promise<void> {
    await this.uow.run((tx) =>
      tx.pushDevices.addLegacyToken({ realmId: actor.realmId, userId: actor.userId, kind, token, iosAppId, now: this.clock.now() }),
    );
  }

  private async removeLegacyToken(actor: Actor, kind: number, token: string): Promise<void> {
    await this.uow.run(async (tx) => {
      if (!(await tx.pushDevices.removeLegacyToken(actor.realmId, actor.userId, kind, token))) throw tokenDoesNotExist();
    });
  }

  /** POST /register_client_device: a new device record of the caller (a `device` `add` event for the caller). */
  registerClientDevice(actor: Actor): Promise<number> {
    return this.uow.run(async (tx) => {
      const id = await tx.pushDevices.createDevice(actor.realmId, actor.userId, this.clock.now());
      tx.afterCommit([{ realmId: actor.realmId, event: deviceAdded(id), userIds: [actor.userId] }]);
      return id;
    });
  }

  /**
   * POST /remove_client_device (zerver/actions/devices.py do_remove_device): deletes one of the
   * caller's devices with its push registration; a `device` `remove` event for the caller.
   */
  async removeClientDevice(actor: Actor, deviceId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const removed = isStorableId(deviceId) && (await tx.pushDevices.deleteDevice(actor.realmId, actor.userId, deviceId));
      if (!removed) throw invalidDeviceId();
      tx.afterCommit([{ realmId: actor.realmId, event: deviceRemoved(deviceId), userIds: [actor.userId] }]);
    });
  }

  /**
   * POST /mobile_push/register: registers, re-registers or rotates the key/token of one of the
   * caller's devices. A registration for the relay is attempted right after COMMIT; the answer
   * to the client does not depend on the relay (the device's state and `device` events do).
   */
  async registerPushDevice(actor: Actor, deviceId: number, input: PushRegistrationInput): Promise<void> {
    if (!this.config.pushConfigured) throw pushServiceNotConfigured();
    const now = this.clock.now();
    const jobId = await this.uow.run(async (tx) => {
      const device = isStorableId(deviceId) ? await tx.pushDevices.lockDevice(actor.realmId, actor.userId, deviceId) : null;
      if (device === null) throw invalidDeviceId();
      const decision = decidePushRegistration(device, input, now);
      if (decision.kind === 'unchanged') return null;
      await tx.pushDevices.saveDevicePush(actor.realmId, decision.state);
      tx.afterCommit([{ realmId: actor.realmId, event: decision.event, userIds: [actor.userId] }]);
      if (decision.kind !== 'queued') return null;
      return tx.pushDevices.queueRegistration(actor.realmId, device.id, decision.registration, now);
    });
    if (jobId === null) return;
    try {
      await this.runner.runNow(jobId);
    } catch (err) {
      // The registration is stored; the retries pick it up once its lease has passed.
      this.logger.error({ err, deviceId }, 'push device registration attempt failed');
    }
  }

  /**
   * POST /mobile_push/test_notification (send_test_push_notification_api): a test notification
   * to each of the caller's legacy tokens, or only to `token`, one relay request per token in
   * the order they were registered; the first failure ends it. With no token registered there
   * is nothing to send (success, as in Zulip).
   */
  async sendLegacyTestNotification(actor: Actor, token: string | undefined): Promise<void> {
    const tokens = await this.queries.legacyTokens(actor.realmId, actor.userId, token ?? null);
    if (token !== undefined && tokens.length === 0) throw invalidPushDeviceToken();
    if (tokens.length === 0) return;
    if (!this.config.pushConfigured) throw pushServiceNotConfigured();

    const realm = await this.queries.realmIdentity(actor.realmId);
    const realmUrl = this.config.realmUrl(realm.stringId);
    const basePayload = legacyBasePayload({
      server: new URL(this.config.externalUrl).host,
      realmId: actor.realmId,
      realmUrl,
      realmName: realm.name,
      userId: actor.userId,
    });
    for (const t of tokens) {
      const result = await this.relay.sendLegacyTestNotification({
        realmUuid: realm.uuid,
        userId: actor.userId,
        token: t.token,
        tokenKind: t.kind,
        basePayload,
      });
      if (!result.ok) throw legacyTestNotificationError(result.failure);
    }
  }

  /**
   * POST /mobile_push/e2ee/test_notification: one request to the relay with the test payload
   * encrypted for each of the caller's active devices (or the one asked for).
   */
  async sendTestNotification(actor: Actor, deviceId: number | undefined): Promise<void> {
    const devices =
      deviceId !== undefined && !isStorableId(deviceId) ? [] : await this.queries.activeDevices(actor.realmId, actor.userId, deviceId ?? null);
    if (devices.length === 0) throw noActivePushDevice();
    if (!this.config.pushConfigured) throw pushServiceNotConfigured();

    const realm = await this.queries.realmIdentity(actor.realmId);
    const plaintext = JSON.stringify(
      testNotificationPayload({ realmUrl: this.config.realmUrl(realm.stringId), realmName: realm.name, userId: actor.userId, now: this.clock.now() }),
    );
    const requests = devices.map((d) =>
      pushRequest({ relayDeviceId: d.pushTokenId, tokenKind: d.tokenKind, pushKeyId: d.pushKeyId, encryptedData: this.cipher.encrypt(d.pushKey, plaintext) }),
    );
    const result = await this.relay.notify(realm.uuid, requests);
    if (!result.ok) throw testNotificationError(result.failure);

    const expired = result.value.deleteDeviceIds;
    if (expired.length > 0) {
      this.logger.info({ userId: actor.userId, expired: expired.map(String) }, 'dropping push registrations the relay reported expired');
      await this.uow.run((tx) => tx.pushDevices.dropRegistrations(actor.realmId, actor.userId, expired));
    }
    // Zulip's check: the relay reported every targeted device as gone.
    if (expired.length === requests.length) throw noActivePushDevice();
  }
}
