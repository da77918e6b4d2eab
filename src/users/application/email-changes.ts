import { badRequest, escapeHtml } from '@app/domain/shared';
import { type Actor, emailPolicyViolation, isAdmin, isValidEmail } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { RealmRecord } from '../../realm/index.js';
import { AccountRules } from '../../shared/application/account-rules.js';
import { Clock } from '../../shared/application/clock.js';
import type { OutgoingEmail } from '../../shared/application/email-sender.js';
import { rateLimited, type RateRule, RateLimiter } from '../../shared/application/rate-limiter.js';
import { Secrets } from '../../shared/application/secrets.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';

/** Zulip's RATE_LIMITING_RULES["email_change_by_user"]. */
export const EMAIL_CHANGE_BY_USER: readonly RateRule[] = [
  { windowSeconds: 3600, max: 2 },
  { windowSeconds: 86400, max: 5 },
];

/** Zulip's CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS. */
const LINK_VALIDITY_MS = 24 * 3600 * 1000;

const POLICY_MESSAGES = {
  domain_not_allowed: 'Outside your domain.',
  disposable: 'Please use your real email address.',
  contains_plus: 'Email addresses containing + are not allowed.',
} as const;

/** Where the confirmation link of an email change points. */
export const emailChangeUrl = (realmUrl: string, key: string): string => `${realmUrl}/accounts/confirm_new_email/${key}/`;

function confirmNewEmail(o: { realmId: number; to: string; oldEmail: string; realmUrl: string; host: string; url: string }): OutgoingEmail {
  return {
    realmId: o.realmId,
    kind: 'email_change',
    to: o.to,
    subject: `Verify your new email address for ${o.host}`,
    body: [
      'Hi,',
      '',
      `We received a request to change the email address for the account on ${o.realmUrl} from ${o.oldEmail} to ${o.to}. To confirm this change, please click below:`,
      '',
      o.url,
      '',
      'If you did not request this change, please contact the organization administrators immediately.',
      '',
    ].join('\n'),
    html: [
      '<p>Hi,</p>',
      `<p>We received a request to change the email address for the account on <a href="${escapeHtml(o.realmUrl)}">${escapeHtml(o.realmUrl)}</a> from ${escapeHtml(o.oldEmail)} to ${escapeHtml(o.to)}. To confirm this change, please click below:</p>`,
      `<p><a href="${escapeHtml(o.url)}">Confirm email change</a></p>`,
      '<p>If you did not request this change, please contact the organization administrators immediately.</p>',
    ].join('\n'),
  };
}

/**
 * The email-change steps PATCH /settings and the confirmation link share inside their
 * transaction (Zulip's validate_email_change_request and do_start_email_change_process).
 */
@Injectable()
export class EmailChanges {
  constructor(
    private readonly clock: Clock,
    private readonly secrets: Secrets,
    private readonly rules: AccountRules,
    private readonly limiter: RateLimiter,
    private readonly config: ServerConfig,
  ) {}

  async validate(tx: Tx, role: Actor['role'], realm: RealmRecord, newEmail: string): Promise<void> {
    if (realm.emailChangesDisabled && !isAdmin(role)) throw badRequest('Email address changes are disabled in this organization.');
    if (!isValidEmail(newEmail)) throw badRequest('Invalid address.');
    const rules = { ...realm, domains: await tx.realms.domains(realm.id) };
    const violation = emailPolicyViolation(newEmail, rules, (d) => this.rules.isDisposableDomain(d));
    if (violation !== null) throw badRequest(POLICY_MESSAGES[violation]);
    const existing = (await tx.users.findManyByEmails(realm.id, [newEmail])).get(newEmail.toLowerCase());
    if (existing !== undefined) throw badRequest(existing.isActive ? 'Already has an account.' : 'Account has been deactivated.');
  }

  /** A new address for `me`: checked, rate limited, then a confirmation link sent to it. */
  async request(tx: Tx, me: { userId: number; role: number; deliveryEmail: string }, realm: RealmRecord, newEmail: string): Promise<void> {
    if (newEmail === me.deliveryEmail) return;
    await this.validate(tx, me.role as Actor['role'], realm, newEmail);
    const now = this.clock.now();
    if (this.config.rateLimiting) {
      const d = await this.limiter.hit(`email_change_by_user:${me.userId}`, EMAIL_CHANGE_BY_USER, now.getTime());
      if (!d.allowed) throw rateLimited(d.retryAfter);
    }
    const key = this.secrets.confirmationKey();
    const expiresAt = new Date(now.getTime() + LINK_VALIDITY_MS);
    await tx.emailChanges.create({ realmId: realm.id, userId: me.userId, oldEmail: me.deliveryEmail, newEmail, key, now, expiresAt });
    const realmUrl = this.config.realmUrl(realm.stringId);
    const url = emailChangeUrl(realmUrl, key);
    await tx.emails.send(confirmNewEmail({ realmId: realm.id, to: newEmail, oldEmail: me.deliveryEmail, realmUrl, host: new URL(realmUrl).host, url }), now);
  }
}
