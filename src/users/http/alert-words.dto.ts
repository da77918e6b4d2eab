import { ALERT_WORD_MAX_LENGTH } from '@app/domain/users';
import { JsonParam, list, str } from '../../shared/http/params/index.js';

/** POST /users/me/alert_words: each word at most 100 characters as sent (stripped afterwards). */
export class AddAlertWordsDto {
  @JsonParam(list(str({ maxLength: ALERT_WORD_MAX_LENGTH }))) alert_words: string[];
}

/** DELETE /users/me/alert_words: any strings. */
export class RemoveAlertWordsDto {
  @JsonParam(list(str())) alert_words: string[];
}
