import { EMAIL_ADDRESS_VISIBILITY as V } from './user-settings.js';
import { Role } from './role.js';

/** Zulip's ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS: whose real addresses a role may see. */
const ACCESSIBLE: Readonly<Record<Role, readonly number[]>> = {
  [Role.OWNER]: [V.ADMINS, V.MODERATORS, V.MEMBERS, V.EVERYONE],
  [Role.ADMINISTRATOR]: [V.ADMINS, V.MODERATORS, V.MEMBERS, V.EVERYONE],
  [Role.MODERATOR]: [V.MODERATORS, V.MEMBERS, V.EVERYONE],
  [Role.MEMBER]: [V.MEMBERS, V.EVERYONE],
  [Role.GUEST]: [V.EVERYONE],
};

export interface EmailViewer {
  readonly id: number;
  readonly role: Role;
}

/** Zulip's can_access_delivery_email: one's own address always, others' by their setting and the viewer's role. */
export function canSeeDeliveryEmail(viewer: EmailViewer, targetId: number, visibility: number): boolean {
  return viewer.id === targetId || ACCESSIBLE[viewer.role].includes(visibility);
}

/** The email_address_visibility values whose real addresses this role may look users up by. */
export function visibilitiesSeenBy(role: Role): readonly number[] {
  return ACCESSIBLE[role];
}

/**
 * The user id in a display address `user<id>@<fake domain>` (Zulip's
 * get_dummy_email_address_for_display_regex), or null when the address has another shape.
 */
export function userIdOfDummyEmail(email: string, fakeDomain: string): number | null {
  const prefix = 'user';
  const at = email.indexOf('@');
  if (!email.startsWith(prefix) || at < 0 || email.slice(at + 1) !== fakeDomain) return null;
  const digits = email.slice(prefix.length, at);
  return /^\d{1,9}$/.test(digits) ? Number(digits) : null;
}

/** The role values allowed to see an address of this visibility (for set-based SQL). */
export function rolesSeeing(visibility: number): Role[] {
  return (Object.keys(ACCESSIBLE).map(Number) as Role[]).filter((r) => ACCESSIBLE[r].includes(visibility));
}

/**
 * Whether a client that asked for client_gravatar computes this user's avatar itself: only from
 * a public address (Zulip's get_users_for_api and MessageDict.finalize_payload); otherwise the
 * server sends the URL, a Gravatar of the real address.
 */
export function clientComputesGravatar(clientGravatar: boolean, visibility: number): boolean {
  return clientGravatar && visibility === V.EVERYONE;
}

/**
 * Zulip's get_display_email_address: the real address when everyone may see it, else
 * `user<id>@<fake email domain>` (the organization's host, or FAKE_EMAIL_DOMAIN).
 */
export function displayEmail(userId: number, deliveryEmail: string, visibility: number, fakeDomain: string): string {
  return visibility === V.EVERYONE ? deliveryEmail : `user${userId}@${fakeDomain}`;
}

/**
 * Whose sight of a user's real address changes when its visibility goes from `before` to
 * `after`: the roles that gain it and those that lose it (the user always sees their own).
 */
export function deliveryEmailAudienceChange(before: number, after: number): { gained: Role[]; lost: Role[] } {
  const was = new Set(rolesSeeing(before));
  const now = new Set(rolesSeeing(after));
  return { gained: [...now].filter((r) => !was.has(r)), lost: [...was].filter((r) => !now.has(r)) };
}
