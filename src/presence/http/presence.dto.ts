import { TYPING_OPS, TYPING_RECIPIENT_TYPES, type TypingOp, type TypingRecipientType } from '@app/domain/presence';
import { bool, type Decoder, int, JsonParam, list, literal, nullable, PlainParam, str } from '../../shared/http/params/index.js';

/** Zulip's OptionalTopic: a string, stripped of surrounding whitespace. */
const strippedTopic: Decoder<string> = (v, path) => str()(v, path).trim();

/** POST /typing, parameters in Zulip's declaration order (the first failure wins). */
export class TypingDto {
  @JsonParam(nullable(list(int())), { default: null }) to: number[] | null;
  @PlainParam(literal(TYPING_OPS)) op: TypingOp;
  @PlainParam(literal(TYPING_RECIPIENT_TYPES), { default: 'direct' }) type: TypingRecipientType;
  @JsonParam(nullable(int()), { default: null }) stream_id: number | null;
  @PlainParam(strippedTopic, { default: null, aliases: ['subject'] }) topic: string | null;
}

/** POST /users/me/presence, parameters in Zulip's declaration order. */
export class UpdatePresenceDto {
  @JsonParam(int(), { default: null }) history_limit_days: number | null;
  @JsonParam(int(), { default: null }) last_update_id: number | null;
  /** Feeds Zulip's user activity statistics, which this server does not keep: read and ignored. */
  @JsonParam(bool(), { default: false }) new_user_input: boolean;
  @JsonParam(bool(), { default: false }) ping_only: boolean;
  @JsonParam(bool(), { default: false }) slim_presence: boolean;
  @PlainParam(str()) status: string;
}

/** POST /messages/{message_id}/typing. */
export class EditTypingDto {
  @PlainParam(literal(TYPING_OPS)) op: TypingOp;
}
