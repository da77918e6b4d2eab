import { parseStatusText } from '@app/domain/users';
import { type Decoder, JsonParam, PlainParam, bool, str } from '../../shared/http/params/index.js';

/** Zulip parses status_text as a stripped string of at most 60 characters (typed_endpoint). */
const statusText: Decoder<string> = (v, path) => parseStatusText(str()(v, path), path);
/** The value as sent, decoded later (see UpdateUserStatusDto.away). */
const raw: Decoder<unknown> = (v) => v;

/** POST /users/me/status, parameters in Zulip's declaration order (first failure wins). */
export class UpdateOwnStatusDto {
  @JsonParam(bool(), { optional: true }) away?: boolean;
  @PlainParam(str(), { optional: true }) emoji_code?: string;
  @PlainParam(str(), { optional: true }) emoji_name?: string;
  @PlainParam(str(), { optional: true }) reaction_type?: string;
  @PlainParam(statusText, { optional: true }) status_text?: string;
}

/** POST /users/{user_id}/status. */
export class UpdateUserStatusDto {
  @PlainParam(statusText, { optional: true }) status_text?: string;
  @PlainParam(str(), { optional: true }) emoji_name?: string;
  @PlainParam(str(), { optional: true }) emoji_code?: string;
  @PlainParam(str(), { optional: true }) reaction_type?: string;
  /**
   * The deprecated `away` (JSON boolean) is accepted here too: Zulip's admin view hands over to
   * the /users/me/status view, which reads it from the request after the target was checked.
   */
  @PlainParam(raw, { optional: true }) away?: unknown;
}
