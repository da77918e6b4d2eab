/**
 * Whether a name is an IANA time zone (Zulip: zoneinfo.ZoneInfo accepts it). Names are matched
 * exactly, as zoneinfo does on a case-sensitive file system; backward-compatible aliases
 * (`US/Pacific`, `Asia/Calcutta`) count. The table is the runtime's ICU data.
 */
let canonical: Set<string> | null = null;

export function isKnownTimezone(name: string): boolean {
  if (name === '' || name.trim() !== name) return false;
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical.has(name) || name === 'UTC') return true;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    // A canonical zone must be spelled as it is; an alias (US/Pacific, GMT, EST5EDT) starts in
    // upper case like every IANA name.
    if (resolved.toLowerCase() === name.toLowerCase()) return resolved === name;
    return /^[A-Z]/.test(name);
  } catch {
    return false;
  }
}
