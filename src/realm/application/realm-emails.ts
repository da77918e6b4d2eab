import { escapeHtml } from '@app/domain/shared';
import type { OutgoingEmail } from '../../shared/application/email-sender.js';

/** Django's DATE_FORMAT 'N j, Y' (English): AP-style month abbreviations. */
const AP_MONTHS = ['Jan.', 'Feb.', 'March', 'April', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];

/** A date as Django's `|localize` shows it in English, in the time zone given ('' or unknown: UTC). */
export function localizedDate(at: Date, timezone: string): string {
  let zone = 'UTC';
  try {
    if (timezone !== '') zone = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    zone = 'UTC';
  }
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(at);
  const part = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return `${AP_MONTHS[part('month') - 1]} ${part('day')}, ${part('year')}`;
}

/**
 * Zulip's zerver/emails/realm_deactivated, to one owner: `deactivatedBy` null when the owner did
 * it themselves, else the deactivating owner's name.
 */
export function realmDeactivatedEmail(o: {
  realmId: number;
  to: string;
  realmName: string;
  deactivatedBy: string | null;
  date: string;
  deletionDate: string | null;
}): OutgoingEmail {
  const what =
    o.deactivatedBy === null
      ? `You have deactivated your Zulip organization, ${o.realmName}, on ${o.date}.`
      : `Your Zulip organization, ${o.realmName}, was deactivated by ${o.deactivatedBy} on ${o.date}.`;
  const deletion = o.deletionDate === null ? null : `All data associated with this organization will be permanently deleted on ${o.deletionDate}.`;
  const closing = 'If you have any questions or concerns, please reply to this email as soon as possible.';
  return {
    realmId: o.realmId,
    kind: 'realm_deactivated',
    to: o.to,
    subject: `Your Zulip organization ${o.realmName} has been deactivated`,
    body: [[what, deletion].filter((l) => l !== null).join(' '), '', closing, ''].join('\n'),
    html: [`<p>${escapeHtml(what)}${deletion === null ? '' : ` ${escapeHtml(deletion)}`}</p>`, `<p>${escapeHtml(closing)}</p>`].join('\n'),
  };
}
