import { confirmationLinkInvalid, Invitation, type InvitationTerms, isConfirmationKey, MultiuseInvite } from '@app/domain/invitations';
import { badRequest } from '@app/domain/shared';
import { checkFullName, isValidEmail } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { RealmQueries } from '../../realm/index.js';
import { AccountRules } from '../../shared/application/account-rules.js';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { API_BY_IP, rateLimited, RateLimiter } from '../../shared/application/rate-limiter.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { NewUsers } from '../../users/index.js';
import { InvitationQueries } from './invitation.ports.js';

/** `invitation`: an emailed /accounts/do_confirm/<key> link; `multiuse`: a reusable /join/<key>/ link. */
export type SignupLinkKind = 'invitation' | 'multiuse';

export interface SignupInput {
  /** Only for a reusable link: an email invitation's address is the invited one. */
  email: string;
  fullName: string;
  password: string;
}

export interface SignedUp {
  userId: number;
  email: string;
  realmUrl: string;
}

/**
 * Zulip's registration from an invitation (confirmation/views.py → accounts_register): the
 * link's page and the account it creates with the invitation's role and channels. A link that
 * is unknown, of another organization, expired, revoked or used is refused the same way.
 */
@Injectable()
export class SignupService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: InvitationQueries,
    private readonly realms: RealmQueries,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly rules: AccountRules,
    private readonly limiter: RateLimiter,
    private readonly config: ServerConfig,
    private readonly newUsers: NewUsers,
  ) {}

  /** The form's GET: the invited address (null for a reusable link, where the person types it). */
  async openLink(realmId: number, kind: SignupLinkKind, key: string): Promise<{ email: string | null }> {
    const s = isConfirmationKey(key) ? await this.queries.byKey(realmId, key) : null;
    if (s === null || 'email' in s !== (kind === 'invitation')) throw confirmationLinkInvalid();
    const pending = 'email' in s ? Invitation.restore(s).isPending(this.clock.now()) : MultiuseInvite.restore(s).isPending(this.clock.now());
    if (!pending) throw confirmationLinkInvalid();
    return { email: 'email' in s ? s.email : null };
  }

  /** The form's POST: one transaction; any refusal writes nothing. */
  async signUp(realmId: number, kind: SignupLinkKind, key: string, input: SignupInput, clientIp: string): Promise<SignedUp> {
    if (this.config.rateLimiting) {
      const d = await this.limiter.hit(`signup_by_ip:${clientIp}`, API_BY_IP, this.clock.now().getTime());
      if (!d.allowed) throw rateLimited(d.retryAfter);
    }
    if (!isConfirmationKey(key)) throw confirmationLinkInvalid();
    // Hash outside the transaction (argon2 is slow on purpose); a weak one is refused in order.
    const passwordHash = this.rules.isStrongPassword(input.password) ? await this.hasher.hash(input.password) : null;
    const signedUp = await this.uow.run(async (tx) => {
      const { email, terms, invitation } = await this.consume(tx, realmId, kind, key, input.email);
      const fullName = checkFullName(input.fullName);
      const userId = await this.newUsers.register(tx, {
        realmId,
        email,
        fullName,
        passwordHash,
        role: terms.invitedAs,
        channelIds: terms.channelIds,
        includeDefaultChannels: terms.includeRealmDefaultSubscriptions,
        groupIds: terms.groupIds,
        notifyReferrerId: invitation?.notifyReferrerOnJoin ? invitation.referredById : null,
      });
      if (invitation !== null) await tx.invitations.save(invitation);
      await tx.invitations.revokePendingFor(realmId, email);
      return { userId, email };
    });
    const realm = await this.realms.get(realmId);
    return { ...signedUp, realmUrl: this.config.realmUrl(realm.stringId) };
  }

  /** The link, locked and checked: an email invitation is used up, a reusable link stays. */
  private async consume(
    tx: Tx,
    realmId: number,
    kind: SignupLinkKind,
    key: string,
    typedEmail: string,
  ): Promise<{ email: string; terms: InvitationTerms; invitation: Invitation | null }> {
    const now = this.clock.now();
    if (kind === 'invitation') {
      const invitation = await tx.invitations.findByKey(realmId, key);
      if (invitation === null) throw confirmationLinkInvalid();
      invitation.accept(now);
      return { email: invitation.email, terms: invitation.terms(), invitation };
    }
    const invite = await tx.invitations.findMultiuseByKey(realmId, key);
    if (invite === null) throw confirmationLinkInvalid();
    invite.assertUsable(now);
    const email = typedEmail.trim();
    if (!isValidEmail(email) || email.includes('\u0000')) throw badRequest('Enter a valid email address.');
    return { email, terms: invite.terms(), invitation: null };
  }
}
