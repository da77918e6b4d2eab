import { ALERT_WORD_AFTER, ALERT_WORD_BEFORE } from '@app/domain/users';

/** A bracket expression of PostgreSQL's regular expressions for exactly these characters (each escaped). */
const bracket = (chars: readonly string[]): string => `[${chars.map((c) => `\\${c}`).join('')}]`;

/**
 * The bind values `hasAlertWordSql` reads from `$n … $n+3`: the text (`alertWordText` of the
 * content), what may precede a match (the text's start or an allowed character), what may
 * follow it, and the replacement that escapes every character of a word
 * that is not a letter or digit (a backslash before such a character makes it literal).
 */
export const alertWordParams = (text: string): string[] => [
  text,
  `(^|${bracket(ALERT_WORD_BEFORE)})`,
  `($|${bracket(ALERT_WORD_AFTER)})`,
  '\\\\\\1',
];

/**
 * SQL that is true when the active user in `userColumn` has an alert word the text holds at a
 * valid place (libs/domain/src/users/alert-words.ts, `containsAlertWord`): a cheap substring test
 * first, the regular expression only for words that occur. One index probe per recipient row.
 */
export const hasAlertWordSql = (userColumn: string, n: number): string => hasAlertWordInSql(userColumn, `$${n}::text`, n + 1);

/**
 * `hasAlertWordSql` for a text that is an SQL expression (a column of a batch), with the other
 * three bind values of `alertWordParams` at `$n … $n+2`.
 */
export const hasAlertWordInSql = (userColumn: string, text: string, n: number): string => `EXISTS (
    SELECT 1 FROM alert_words aw JOIN users au ON au.id = aw.user_id AND au.is_active
    WHERE aw.user_id = ${userColumn}
      AND CASE WHEN strpos(${text}, aw.lower_word) > 0
          THEN ${text} ~ ($${n}::text || regexp_replace(aw.lower_word, '([^[:alnum:]])', $${n + 2}::text, 'g') || $${n + 1}::text)
          ELSE false END)`;
