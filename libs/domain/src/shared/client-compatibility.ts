import { badRequest } from './domain-error.js';

/** Zulip's parse_user_agent: the client's name and version (a User-Agent has no other parse here). */
export function parseUserAgent(userAgent: string): { name: string; version: string | null } {
  const m = /^([^/ ]*[^0-9/(]*)(\/([^/ ]*))?([ /].*)?$/.exec(userAgent);
  if (m === null) return { name: '', version: null };
  return { name: m[1], version: m[3] ?? null };
}

/** Zulip's pop_numerals: the leading dotted integers of a version, and the rest. */
function popNumerals(version: string): [number[], string] {
  const m = /^(\d+(?:\.\d+)*)(.*)$/s.exec(version);
  if (m === null) return [[], version];
  return [m[1].split('.').map(Number), m[2]];
}

/**
 * Zulip's version_lt: whether `a` is older than `b`, comparing the leading dotted integers;
 * null when that cannot be told (no numbers, or trailing text that differs).
 */
export function versionLt(a: string, b: string): boolean | null {
  const [num1, rest1] = popNumerals(a);
  const [num2, rest2] = popNumerals(b);
  if (num1.length === 0 || num2.length === 0) return null;
  const common = Math.min(num1.length, num2.length);
  for (let i = 0; i < common; i++) if (num1[i] !== num2[i]) return num1[i] < num2[i];
  const more1 = num1.length > common;
  const more2 = num2.length > common;
  if (rest1 === '' && more2) return true;
  if (more1 && rest2 === '') return false;
  if (more1 || more2) return null;
  return rest1 === rest2 ? false : null;
}

/** Zulip's find_mobile_os. */
export function findMobileOs(userAgent: string): 'android' | 'ios' | null {
  if (/\bAndroid\b/i.test(userAgent)) return 'android';
  if (/\b(?:iOS|iPhone OS)\b/i.test(userAgent)) return 'ios';
  return null;
}

/** Zulip's android_min_app_version: Zulip Mobile 16.2.96 (2018-08-22) fixed spammy notifications. */
export const ANDROID_MIN_APP_VERSION = '16.2.96';

/** The answer old clients look for, untranslated, as Zulip keeps it. */
const TOO_OLD = 'Client is too old';

/**
 * Zulip's check_global_compatibility (GET /compatibility): refused when there is no User-Agent,
 * for clients naming themselves ZulipInvalid, and for the Zulip Android app older than
 * ANDROID_MIN_APP_VERSION.
 */
export function checkClientCompatibility(userAgent: string | undefined): void {
  if (userAgent === undefined) throw badRequest('User-Agent header missing from request');
  const { name, version } = parseUserAgent(userAgent);
  if (name === 'ZulipInvalid') throw badRequest(TOO_OLD);
  if (name === 'ZulipMobile' && findMobileOs(userAgent) === 'android' && version !== null && versionLt(version, ANDROID_MIN_APP_VERSION) === true) {
    throw badRequest(TOO_OLD);
  }
}
