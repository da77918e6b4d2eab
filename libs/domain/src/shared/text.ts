/** Length in Unicode code points, as Python's `len` counts it (not UTF-16 units). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

/** Python's `str.strip()` on whitespace: trims the same characters JS's trim does. */
export function strip(s: string): string {
  return s.trim();
}

/** True when `s` contains a control (Cc), format (Cf), surrogate (Cs), private-use or unassigned character. */
export function hasUnprintable(s: string): boolean {
  return /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u.test(s);
}

/** Zulip's silent_mention_syntax_for_user: `@_**Full Name|id**` (names the user, notifies nobody). */
export const silentMention = (u: { id: number; fullName: string }): string => `@_**${u.fullName}|${u.id}**`;

/** The hash encoding of narrow links in notices (encodeURIComponent with `.` encoded, then `%` → `.`). */
export const noticeHashEncode = (s: string): string => encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.');
