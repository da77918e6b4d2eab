import { INVITE_AS_VALUES, MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '@app/domain/invitations';
import { Role } from '@app/domain/users';
import { bool, type Decoder, int, JsonParam, list, nullable, paramError, PlainParam, str } from '../../shared/http/params/index.js';

/** Zulip's check_int_in_validator: an AfterValidator whose ValueError reads as below. */
const inviteAs: Decoder<number> = (v, path) => {
  const n = int()(v, path);
  if (!INVITE_AS_VALUES.includes(n)) throw paramError(`Invalid ${path}: Value error, Not in the list of possible values`);
  return n;
};

/* Declaration order is Zulip's (alphabetical keyword arguments): the first failure in it wins. */

export class InviteUsersDto {
  @JsonParam(list(int()), { optional: true }) group_ids?: number[];
  @JsonParam(bool(), { default: false }) include_realm_default_subscriptions: boolean;
  @JsonParam(inviteAs, { default: Role.MEMBER }) invite_as: number;
  /** Absent: INVITATION_LINK_VALIDITY_MINUTES; null: never expires. */
  @JsonParam(nullable(int()), { optional: true }) invite_expires_in_minutes?: number | null;
  @PlainParam(str()) invitee_emails: string;
  @JsonParam(bool(), { default: true }) notify_referrer_on_join: boolean;
  @JsonParam(list(int())) stream_ids: number[];
  @PlainParam(str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }), { optional: true }) welcome_message_custom_text?: string;
}

export class MultiuseInviteDto {
  @JsonParam(list(int()), { optional: true }) group_ids?: number[];
  @JsonParam(bool(), { default: false }) include_realm_default_subscriptions: boolean;
  @JsonParam(inviteAs, { default: Role.MEMBER }) invite_as: number;
  @JsonParam(nullable(int()), { optional: true }) invite_expires_in_minutes?: number | null;
  @JsonParam(list(int()), { default: [] }) stream_ids: number[];
  @PlainParam(str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }), { optional: true }) welcome_message_custom_text?: string;
}
