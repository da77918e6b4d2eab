/**
 * Zulip's get_invitee_emails_set: split on commas and newlines, take the address out of
 * `Name <address>`, strip, and collapse exact duplicates. Empty entries stay (they count in the
 * daily limit and in the "nobody invited" comparison) and are skipped later. First-seen order.
 */
export function parseInviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const entry of raw.split(/[,\n]/)) {
    const named = /<(?<email>.*)>/.exec(entry);
    out.add((named?.groups?.email ?? entry).trim());
  }
  return [...out];
}
