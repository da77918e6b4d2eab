import { badRequest, DomainError } from '../shared/domain-error.js';

/** One refused address: [email, reason, whether the existing account is deactivated]. */
export type InviteeError = readonly [email: string, reason: string, deactivated: boolean];

/** Zulip's InvitationError: HTTP 400, code INVITATION_FAILED, with the per-address errors. */
export function invitationFailed(
  msg: string,
  errors: readonly InviteeError[],
  sentInvitations: boolean,
  o: { dailyLimitReached?: boolean; licenseLimitReached?: boolean } = {},
): DomainError {
  return new DomainError(msg, 'INVITATION_FAILED', 'invalid', {
    errors: errors.map((e) => [...e]),
    sent_invitations: sentInvitations,
    license_limit_reached: o.licenseLimitReached ?? false,
    daily_limit_reached: o.dailyLimitReached ?? false,
  });
}

export const SOME_EMAILS_INVALID = "Some emails did not validate, so we didn't send any invitations.";
export const NOBODY_INVITED = "We weren't able to invite anyone.";
export const SOME_ALREADY_USING =
  "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!";
export const DAILY_LIMIT_REACHED =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';
export const ACCOUNT_TOO_NEW =
  'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.';

export const noSuchInvitation = (): DomainError => badRequest('No such invitation');
export const invitationAlreadyRevoked = (): DomainError => badRequest('Invitation has already been revoked');
export const noEmailAddresses = (): DomainError => badRequest('You must specify at least one email address.');

/** Zulip's confirmation/link_expired page: unknown, expired, revoked, used or another organization's key alike. */
export const CONFIRMATION_LINK_INVALID = 'This confirmation link has expired or been deactivated.';
export const confirmationLinkInvalid = (): DomainError => new DomainError(CONFIRMATION_LINK_INVALID, 'BAD_REQUEST', 'not_found');
