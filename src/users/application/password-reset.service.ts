import { createHash } from 'node:crypto';
import { DomainError } from '@app/domain/shared';
import { isValidEmail } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { RealmQueries } from '../../realm/index.js';
import { AccountRules } from '../../shared/application/account-rules.js';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { rateLimited, type RateRule, RateLimiter } from '../../shared/application/rate-limiter.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { passwordResetEmail } from './account-emails.js';
import { UserQueries } from './user.ports.js';

/** Zulip's RATE_LIMITING_RULES["password_reset_form_by_email"]: 2 an hour, 5 a day per address. */
export const PASSWORD_RESET_BY_EMAIL: readonly RateRule[] = [
  { windowSeconds: 3600, max: 2 },
  { windowSeconds: 86400, max: 5 },
];
/** Zulip's RATE_LIMITING_RULES["sends_email_by_ip"]: 5 emails a day per client address. */
export const SENDS_EMAIL_BY_IP: readonly RateRule[] = [{ windowSeconds: 86400, max: 5 }];

/**
 * How long a link works: Zulip's links are Django's default_token_generator tokens, valid for
 * Django's PASSWORD_RESET_TIMEOUT (3 days; Zulip does not change it).
 */
export const RESET_LINK_VALIDITY_HOURS = 72;
/** 32 random bytes, hex: the token in the link. */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/** Where the emailed link points (Zulip: /accounts/password/reset/<uid>/<token>/). */
export const passwordResetUrl = (realmUrl: string, token: string): string => `${realmUrl}/accounts/password/reset/${token}/`;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

export type ResetOutcome = { kind: 'done'; email: string } | { kind: 'invalid_link' | 'mismatch' | 'too_weak' };

/**
 * Zulip's password reset by email (ZulipPasswordResetForm, LoggingSetPasswordForm). Asking
 * answers the same whether or not the address has an account; only an active human of the
 * organization (with password login enabled) gets a link. The token is random and single-use;
 * only its SHA-256 is stored. A reset changes only the password: API keys keep working, as in
 * Zulip (do_change_password), and the address's failed-login count is cleared.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly hasher: PasswordHasher,
    private readonly rules: AccountRules,
    private readonly limiter: RateLimiter,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
  ) {}

  /** The form's POST: rate limited per address and per client, then (maybe) the email. */
  async request(realmId: number, rawEmail: string, clientIp: string): Promise<void> {
    const email = rawEmail.trim();
    if (!isValidEmail(email) || email.includes('\u0000')) throw new DomainError('Enter a valid email address.');
    const realm = await this.realms.get(realmId);
    if (realm.deactivated || !realm.passwordAuthEnabled) return;
    if (this.config.rateLimiting) {
      const now = this.clock.now().getTime();
      for (const [key, rules] of [
        [`password_reset_form_by_email:${email.toLowerCase()}`, PASSWORD_RESET_BY_EMAIL],
        [`sends_email_by_ip:${clientIp}`, SENDS_EMAIL_BY_IP],
      ] as const) {
        const d = await this.limiter.hit(key, rules, now);
        if (!d.allowed) throw rateLimited(d.retryAfter);
      }
    }
    const c = await this.users.credentialsByEmail(realmId, email);
    if (c === null || !c.isActive || c.isBot) return;
    const token = this.secrets.hexToken(TOKEN_BYTES);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + RESET_LINK_VALIDITY_HOURS * 3600_000);
    const realmUrl = this.config.realmUrl(realm.stringId);
    await this.uow.run(async (tx) => {
      await tx.passwordResets.create({ realmId, userId: c.userId, tokenSha256: sha256(token), now, expiresAt });
      const resetUrl = passwordResetUrl(realmUrl, token);
      const mail = { realmId, to: c.deliveryEmail, realmName: realm.name, realmUrl, resetUrl, validHours: RESET_LINK_VALIDITY_HOURS };
      await tx.emails.send(passwordResetEmail(mail), now);
    });
  }

  /** The link's GET: does it still work (without using it)? */
  async linkWorks(token: string): Promise<boolean> {
    if (!TOKEN_PATTERN.test(token)) return false;
    return this.uow.run(async (tx) => (await this.usableLink(tx, token)) !== null);
  }

  /** The new-password form's POST. */
  async reset(token: string, password: string, confirmation: string): Promise<ResetOutcome> {
    if (!(await this.linkWorks(token))) return { kind: 'invalid_link' };
    if (password !== confirmation) return { kind: 'mismatch' };
    if (!this.rules.isStrongPassword(password)) return { kind: 'too_weak' };
    // Hash outside the transaction (argon2 is slow on purpose); the link is checked again inside.
    const hash = await this.hasher.hash(password);
    const outcome = await this.uow.run(async (tx): Promise<ResetOutcome> => {
      const link = await this.usableLink(tx, token);
      if (link === null) return { kind: 'invalid_link' };
      const me = await tx.userSettings.getForUpdate(link.realmId, link.userId);
      if (me === null || !(await tx.accounts.replacePasswordHash(link.realmId, link.userId, me.passwordHash, hash))) {
        return { kind: 'invalid_link' };
      }
      await tx.passwordResets.useAll(link.userId, this.clock.now());
      // Every browser session of the user ends with the old password (Django's session auth hash).
      await tx.sessions.endForUser(link.realmId, link.userId);
      return { kind: 'done', email: me.deliveryEmail };
    });
    if (outcome.kind === 'done') await this.limiter.clear(`authenticate_by_username:${outcome.email.toLowerCase()}`);
    return outcome;
  }

  /** The link, locked, if it is unused, unexpired, and its user and organization may still log in with a password. */
  private async usableLink(tx: Tx, token: string) {
    const link = await tx.passwordResets.findForUpdate(sha256(token));
    if (link === null || link.used || link.expiresAt.getTime() < this.clock.now().getTime()) return null;
    const realm = await tx.realms.get(link.realmId);
    if (realm.deactivated || !realm.passwordAuthEnabled) return null;
    const me = await tx.userSettings.getForUpdate(link.realmId, link.userId);
    return me === null || !me.isActive || me.isBot ? null : link;
  }
}
