import { badRequest } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';

export const MAX_NAME_LENGTH = 100;
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];

function isPrintable(s: string): boolean {
  // Zulip's check_string_is_printable: control, surrogate and unassigned characters.
  return !/[\p{Cc}\p{Cs}\p{Cn}]/u.test(s);
}

/** Zulip's check_full_name: returns the stripped name or throws with Zulip's exact text. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  if (codePointLength(name) > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (name.length === 0) throw badRequest('Name must not be empty!');
  if (!isPrintable(name) || NAME_INVALID_CHARS.some((c) => name.includes(c))) {
    throw badRequest('Invalid characters in name!');
  }
  // Zulip checks the raw value here: "iago|72" could be confused with a mention's user-id suffix.
  if (/\|\d+$/.test(raw)) throw badRequest('Invalid format!');
  return name;
}

/** Zulip's check_short_name for bots. */
export function checkShortName(raw: string): string {
  const short = raw.trim();
  if (short.length === 0) throw badRequest('Bad name or username');
  return short;
}
