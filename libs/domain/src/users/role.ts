import { badRequest, DomainError } from '../shared/domain-error.js';

/** Zulip's role values; lower is more privileged. */
export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

export const ROLES: readonly Role[] = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

export function isRole(n: number): n is Role {
  return (ROLES as readonly number[]).includes(n);
}

export const isOwner = (role: Role): boolean => role === Role.OWNER;
export const isAdmin = (role: Role): boolean => role <= Role.ADMINISTRATOR;
export const isModeratorOrAbove = (role: Role): boolean => role <= Role.MODERATOR;
export const isGuest = (role: Role): boolean => role === Role.GUEST;

export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
export type BotType = (typeof BotType)[keyof typeof BotType];

/** Errors of Zulip's role decorators (they use UNAUTHORIZED_PRINCIPAL with HTTP 400). */
export const ownerRequired = (): DomainError =>
  new DomainError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
export const adminRequired = (): DomainError =>
  new DomainError('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
export const guestsNotAllowed = (): DomainError => badRequest('Not allowed for guest users');
export const botsNotAllowed = (): DomainError => badRequest('This endpoint does not accept bot requests.');
