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
