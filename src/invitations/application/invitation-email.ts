import { escapeHtml } from '@app/domain/shared';
import type { OutgoingEmail } from '../../shared/application/email-sender.js';

/** Zulip's zerver/emails/invitation (plain-text and HTML parts), naming the organization instead of the product. */
export function invitationEmail(o: {
  realmId: number;
  to: string;
  referrerName: string;
  referrerEmail: string;
  realmName: string;
  activateUrl: string;
}): OutgoingEmail {
  return {
    realmId: o.realmId,
    kind: 'invitation',
    to: o.to,
    subject: `${o.referrerName} has invited you to join ${o.realmName}`,
    body: [
      'Hi there,',
      '',
      `${o.referrerName} (${o.referrerEmail}) wants you to join them on ${o.realmName}.`,
      '',
      'To get started, click the link below.',
      `    <${o.activateUrl}>`,
      '',
    ].join('\n'),
    html: [
      '<p>Hi there,</p>',
      `<p>${escapeHtml(o.referrerName)} (<a href="mailto:${escapeHtml(o.referrerEmail)}">${escapeHtml(o.referrerEmail)}</a>) wants you to join them on <b>${escapeHtml(o.realmName)}</b>.</p>`,
      '<p>To get started, click the link below.</p>',
      `<p><a href="${escapeHtml(o.activateUrl)}">Join ${escapeHtml(o.realmName)}</a></p>`,
      `<p>Or copy this address into your browser: ${escapeHtml(o.activateUrl)}</p>`,
    ].join('\n'),
  };
}

/** Where an invitee signs up: Zulip's confirmation URLs under the organization's URL. */
export const invitationUrl = (realmUrl: string, key: string): string => `${realmUrl}/accounts/do_confirm/${key}`;
export const multiuseInviteUrl = (realmUrl: string, key: string): string => `${realmUrl}/join/${key}/`;
