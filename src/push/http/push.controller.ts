import type { Actor } from '@app/domain/users';
import { Controller, Delete } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { PushDevicesService } from '../application/push-devices.service.js';
import {
  AddApnsTokenDto,
  FcmTokenDto,
  LegacyTestNotificationDto,
  RegisterPushDeviceDto,
  RemoveApnsTokenDto,
  RemoveClientDeviceDto,
  TestNotificationDto,
} from './push.dto.js';

@Controller('api/v1')
export class PushController {
  constructor(private readonly push: PushDevicesService) {}

  @ApiPost('users/me/apns_device_token')
  @Require('human')
  async addApnsToken(@CurrentActor() actor: Actor, @ZulipParams() p: AddApnsTokenDto) {
    await this.push.addApnsToken(actor, p.token, p.appid);
    return {};
  }

  @Delete('users/me/apns_device_token')
  @Require('human')
  async removeApnsToken(@CurrentActor() actor: Actor, @ZulipParams() p: RemoveApnsTokenDto) {
    await this.push.removeApnsToken(actor, p.token);
    return {};
  }

  /** zerver/views/push_notifications.py add_android_reg_id (the legacy, non-E2EE FCM token). */
  @ApiPost('users/me/android_gcm_reg_id')
  @Require('human')
  async addFcmToken(@CurrentActor() actor: Actor, @ZulipParams() p: FcmTokenDto) {
    await this.push.addFcmToken(actor, p.token);
    return {};
  }

  @Delete('users/me/android_gcm_reg_id')
  @Require('human')
  async removeFcmToken(@CurrentActor() actor: Actor, @ZulipParams() p: FcmTokenDto) {
    await this.push.removeFcmToken(actor, p.token);
    return {};
  }

  /** zerver/views/devices.py register_device: no parameters and, unlike the push endpoints, no bot check. */
  @ApiPost('register_client_device')
  async registerClientDevice(@CurrentActor() actor: Actor) {
    return { device_id: await this.push.registerClientDevice(actor) };
  }

  /** zerver/views/devices.py remove_device: no bot check either. */
  @ApiPost('remove_client_device')
  async removeClientDevice(@CurrentActor() actor: Actor, @ZulipParams() p: RemoveClientDeviceDto) {
    await this.push.removeClientDevice(actor, p.device_id);
    return {};
  }

  /** send_test_push_notification_api: legacy tokens, through the relay's `push/test_notification`. */
  @ApiPost('mobile_push/test_notification')
  @Require('human')
  async sendLegacyTestNotification(@CurrentActor() actor: Actor, @ZulipParams() p: LegacyTestNotificationDto) {
    await this.push.sendLegacyTestNotification(actor, p.token);
    return {};
  }

  @ApiPost('mobile_push/register')
  @Require('human')
  async registerPushDevice(@CurrentActor() actor: Actor, @ZulipParams() p: RegisterPushDeviceDto) {
    await this.push.registerPushDevice(actor, p.device_id, {
      tokenKind: p.token_kind,
      pushKey: p.push_key,
      pushKeyId: p.push_key_id,
      bouncerPublicKey: p.bouncer_public_key,
      encryptedPushRegistration: p.encrypted_push_registration,
      tokenId: p.token_id,
    });
    return {};
  }

  @ApiPost('mobile_push/e2ee/test_notification')
  @Require('human')
  async sendTestNotification(@CurrentActor() actor: Actor, @ZulipParams() p: TestNotificationDto) {
    await this.push.sendTestNotification(actor, p.device_id);
    return {};
  }
}
