import { APNS_APP_ID_PATTERN, PUSH_TOKEN_KINDS, type PushTokenKind } from '@app/domain/push';
import { type Decoder, int, JsonParam, MatchesPattern, paramError, PlainParam, str } from '../../shared/http/params/index.js';

/** Zulip's uint32_validator. */
const uint32: Decoder<number> = (v, path) => {
  const n = int()(v, path);
  if (n < 0 || n > 0xffff_ffff) throw paramError(`Invalid ${path}: Value error, Not a valid unsigned 32-bit integer`);
  return n;
};

/** check_string_in_validator(Device.PushTokenKind.values). */
const tokenKind: Decoder<PushTokenKind> = (v, path) => {
  const s = str()(v, path);
  if (!(PUSH_TOKEN_KINDS as readonly string[]).includes(s)) throw paramError(`Invalid ${path}: Value error, Not in the list of possible values`);
  return s as PushTokenKind;
};

/** add_apns_device_token declares appid before token. */
export class AddApnsTokenDto {
  @PlainParam(str()) @MatchesPattern(APNS_APP_ID_PATTERN) appid: string;
  @PlainParam(str()) token: string;
}

export class RemoveApnsTokenDto {
  @PlainParam(str()) token: string;
}

/** add_android_reg_id / remove_android_reg_id: the FCM registration token. */
export class FcmTokenDto {
  @PlainParam(str()) token: string;
}

/** remove_device: `device_id` is Json[int]. */
export class RemoveClientDeviceDto {
  @JsonParam(int()) device_id: number;
}

/** send_test_push_notification_api: one of the caller's legacy tokens, else all of them. */
export class LegacyTestNotificationDto {
  @PlainParam(str(), { optional: true }) token?: string;
}

/** register_push_device: the key group (push_key, push_key_id) and the token group. */
export class RegisterPushDeviceDto {
  @JsonParam(int()) device_id: number;
  @PlainParam(tokenKind, { optional: true }) token_kind?: PushTokenKind;
  @PlainParam(str(), { optional: true }) push_key?: string;
  @JsonParam(uint32, { optional: true }) push_key_id?: number;
  @PlainParam(str(), { optional: true }) bouncer_public_key?: string;
  @PlainParam(str(), { optional: true }) encrypted_push_registration?: string;
  @PlainParam(str(), { optional: true }) token_id?: string;
}

export class TestNotificationDto {
  @JsonParam(int(), { optional: true }) device_id?: number;
}
