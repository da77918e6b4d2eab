import type { OutgoingEmail } from '../../shared/application/email-sender.js';

/** Zulip's zerver/emails/invitation (plain-text part), naming the organization instead of the product. */
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
  };
}

/** Where an invitee signs up: Zulip's confirmation URLs under the organization's URL. */
export const invitationUrl = (realmUrl: string, key: string): string => `${realmUrl}/accounts/do_confirm/${key}`;
export const multiuseInviteUrl = (realmUrl: string, key: string): string => `${realmUrl}/join/${key}/`;
