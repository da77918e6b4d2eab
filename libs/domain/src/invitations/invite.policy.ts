import { canAddSubscribers, type ChannelAccessView, hasContentAccess, type Viewer } from '../channels/channel-access.policy.js';
import { badRequest, insufficientPermission } from '../shared/domain-error.js';
import { isValidEmail } from '../users/email.js';
import { emailPolicyViolation, type RealmEmailRules } from '../users/email-policy.js';
import type { GroupSettingValue } from '../users/group-setting.js';
import { adminRequired, isAdmin, isModeratorOrAbove, isOwner, ownerRequired, Role } from '../users/role.js';
import { invalidUserGroup, userGroupDeactivated } from '../users/user-group.js';
import {
  ACCOUNT_TOO_NEW,
  DAILY_LIMIT_REACHED,
  invitationFailed,
  type InviteeError,
  NOBODY_INVITED,
  SOME_EMAILS_INVALID,
} from './invitations.errors.js';

/** The roles an invitation can grant (Zulip's PreregistrationUser.INVITE_AS). */
export const INVITE_AS_VALUES: readonly number[] = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

/** Zulip's INVITES_MIN_USER_AGE_DAYS: in organizations anyone may join, newer accounts may not invite. */
export const INVITES_MIN_USER_AGE_DAYS = 3;

/**
 * An inviter grants only roles equal to or more restricted than their own: owners any role,
 * administrators administrator and below, moderators moderator and below, members members and
 * guests. All three refusals are BAD_REQUEST here (the seed's rule; Zulip itself asks for an
 * administrator to invite moderators).
 */
export function assertCanInviteAs(inviterRole: Role, inviteAs: number): void {
  if (inviteAs === Role.OWNER && !isOwner(inviterRole)) throw badRequest('Must be an organization owner');
  if (inviteAs === Role.ADMINISTRATOR && !isAdmin(inviterRole)) throw badRequest('Must be an organization administrator');
  if (inviteAs === Role.MODERATOR && !isModeratorOrAbove(inviterRole)) throw insufficientPermission();
}

/** Only administrators choose the welcome message (an empty string counts as choosing one). */
export function assertCanSetWelcomeText(inviterRole: Role, text: string | null | undefined): void {
  if (text !== undefined && text !== null && !isAdmin(inviterRole)) throw badRequest('Must be an organization administrator');
}

/** Zulip's per-organization daily maximum: the addresses of this request plus those sent in the last day. */
export function assertWithinDailyLimit(numInvitees: number, sentInLastDay: number, dailyMax: number): void {
  if (numInvitees + sentInLastDay > dailyMax) {
    throw invitationFailed(DAILY_LIMIT_REACHED, [], false, { dailyLimitReached: true });
  }
}

/** In organizations that do not require invitations, accounts younger than the minimum age (non-admins) may not invite. */
export function assertOldEnoughToInvite(f: {
  inviteRequired: boolean;
  inviterRole: Role;
  dateJoined: Date;
  now: Date;
  minAgeDays: number;
}): void {
  if (f.inviteRequired || isAdmin(f.inviterRole)) return;
  if (f.dateJoined.getTime() > f.now.getTime() - f.minAgeDays * 86_400_000) throw invitationFailed(ACCOUNT_TOO_NEW, [], false);
}

/** A channel named by `stream_ids`, as the application found it (null: not in the organization). */
export interface InviteChannel {
  readonly channel: (ChannelAccessView & { readonly isArchived: boolean }) | null;
  readonly subscribed: boolean;
  readonly isDefault: boolean;
}

/**
 * Zulip's access_streams_for_invite: every channel must be active and readable by the inviter;
 * then the inviter must be allowed to subscribe others to each one that is not a default channel.
 */
export function assertCanInviteToChannels(
  ids: readonly number[],
  channels: ReadonlyMap<number, InviteChannel>,
  viewer: Viewer,
  realmCanAddSubscribers: GroupSettingValue,
): void {
  for (const id of ids) {
    const c = channels.get(id);
    if (!c?.channel || c.channel.isArchived || !hasContentAccess(c.channel, viewer, c.subscribed)) {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
  }
  for (const id of ids) {
    const { channel, subscribed, isDefault } = channels.get(id)!;
    if (isDefault) continue;
    if (!canAddSubscribers(channel!, viewer, subscribed, realmCanAddSubscribers)) {
      throw badRequest('You do not have permission to subscribe other users to channels.');
    }
  }
}

/** A group named by `group_ids` (null: no such group in the organization). */
export interface InviteGroup {
  /** Null for the anonymous groups that hold setting values. */
  readonly name: string | null;
  readonly deactivated: boolean;
  readonly isSystemGroup: boolean;
}

/**
 * Zulip's access_user_group_for_update(permission_setting="can_add_members_group"):
 * `mayAddMembers` is can_manage_all_groups, the group's can_manage_group or its can_add_members_group.
 */
export function assertCanInviteToGroup(group: InviteGroup | null, mayAddMembers: boolean): void {
  if (group === null || group.name === null) throw invalidUserGroup();
  if (group.deactivated) throw userGroupDeactivated();
  if (group.isSystemGroup || !mayAddMembers) throw insufficientPermission();
}

/** Why an address cannot be invited (Zulip's validate_email_is_valid), or null. */
export function inviteeAddressError(
  email: string,
  rules: RealmEmailRules,
  isDisposable: (domain: string) => boolean,
): string | null {
  if (!isValidEmail(email)) return 'Invalid address.';
  switch (emailPolicyViolation(email, rules, isDisposable)) {
    case 'domain_not_allowed':
      return 'Outside your domain.';
    case 'disposable':
      return 'Please use your real email address.';
    case 'contains_plus':
      return 'Email addresses containing + are not allowed.';
    case null:
      return null;
  }
}

/** An account of the organization with an address being invited. */
export interface ExistingAccount {
  readonly isActive: boolean;
  readonly isSystemBot: boolean;
}

export interface InvitationPlan {
  /** Addresses to invite, as typed. */
  readonly toInvite: string[];
  /** Addresses skipped because an account has them (reported after the others are invited). */
  readonly skipped: InviteeError[];
}

/**
 * Zulip's do_invite_users validation. `emails` is the parsed set (empty entries included);
 * `existing` maps lower-cased addresses to the organization's accounts. Any invalid address
 * refuses the whole request; a request whose every entry has an account invites nobody.
 */
export function planInvitations(
  emails: readonly string[],
  rules: RealmEmailRules,
  isDisposable: (domain: string) => boolean,
  existing: ReadonlyMap<string, ExistingAccount>,
): InvitationPlan {
  const errors: InviteeError[] = [];
  const good: string[] = [];
  for (const email of emails) {
    if (email === '') continue;
    const reason = inviteeAddressError(email, rules, isDisposable);
    if (reason === null) good.push(email);
    else errors.push([email, reason, false]);
  }
  const skipped: InviteeError[] = [];
  const toInvite: string[] = [];
  for (const email of good) {
    const account = existing.get(email.toLowerCase());
    if (account === undefined) toInvite.push(email);
    else if (account.isSystemBot) skipped.push([email, 'Reserved for system bots.', false]);
    else if (account.isActive) skipped.push([email, 'Already has an account.', false]);
    else skipped.push([email, 'Account has been deactivated.', true]);
  }
  if (errors.length > 0) throw invitationFailed(SOME_EMAILS_INVALID, [...errors, ...skipped], false);
  // Zulip compares with the whole parsed set, empty entries included.
  if (skipped.length > 0 && skipped.length === emails.length) throw invitationFailed(NOBODY_INVITED, skipped, false);
  return { toInvite, skipped };
}

/**
 * Zulip's access_invite_by_id / access_multiuse_invite_by_id: the inviter manages their own
 * invitations; anyone else must be an administrator, and an owner for owner invitations.
 */
export function assertCanManageInvitation(
  actor: { readonly userId: number; readonly role: Role },
  invite: { readonly referredById: number; readonly invitedAs: number },
): void {
  if (invite.referredById === actor.userId) return;
  if (invite.invitedAs === Role.OWNER && !isOwner(actor.role)) throw ownerRequired();
  if (!isAdmin(actor.role)) throw badRequest(adminRequired().msg);
}
