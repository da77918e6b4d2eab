import { badRequest } from '../shared/domain-error.js';
import type { Role } from '../users/role.js';
import { confirmationLinkInvalid, invitationAlreadyRevoked } from './invitations.errors.js';

/** Zulip's confirmation statuses. */
export const InvitationStatus = { PENDING: 0, USED: 1, REVOKED: 2 } as const;
export type InvitationStatus = (typeof InvitationStatus)[keyof typeof InvitationStatus];

/** What the new account gets when it signs up through the invitation. */
export interface InvitationTerms {
  readonly invitedAs: Role;
  readonly channelIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly includeRealmDefaultSubscriptions: boolean;
  /** null: the organization's default welcome message; '' none. */
  readonly welcomeMessageCustomText: string | null;
}

/** The dates a Python datetime holds (years 1 to 9999); Zulip fails outside them. */
const MIN_DATE_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_DATE_MS = Date.parse('9999-12-31T23:59:59Z');

/** `invite_expires_in_minutes` from `now`; null never expires. */
export function expiryDate(now: Date, minutes: number | null): Date | null {
  if (minutes === null) return null;
  const at = now.getTime() + minutes * 60_000;
  if (at > MAX_DATE_MS) throw badRequest('invite_expires_in_minutes is too large');
  if (at < MIN_DATE_MS) throw badRequest('invite_expires_in_minutes is too small');
  return new Date(at);
}

/** Still usable: not expired (an expiry equal to now still counts), and neither used nor revoked. */
function usable(status: InvitationStatus, expiresAt: Date | null, now: Date): boolean {
  return status === InvitationStatus.PENDING && (expiresAt === null || expiresAt.getTime() >= now.getTime());
}

const uniqueIds = (ids: readonly number[]): number[] => [...new Set(ids)];

export interface InvitationState extends InvitationTerms {
  readonly id: number;
  readonly realmId: number;
  readonly email: string;
  readonly referredById: number;
  readonly notifyReferrerOnJoin: boolean;
  readonly invitedAt: Date;
  readonly expiresAt: Date | null;
  /** The unguessable key of the sign-up link. */
  readonly confirmationKey: string;
  readonly status: InvitationStatus;
}

/** A single-use invitation sent to one address (Zulip's PreregistrationUser + its Confirmation). */
export class Invitation {
  private constructor(private state: InvitationState) {}

  static create(o: {
    realmId: number;
    email: string;
    referredById: number;
    terms: InvitationTerms;
    notifyReferrerOnJoin: boolean;
    now: Date;
    expiresInMinutes: number | null;
    confirmationKey: string;
  }): Invitation {
    return new Invitation({
      id: 0,
      realmId: o.realmId,
      email: o.email,
      referredById: o.referredById,
      ...o.terms,
      channelIds: uniqueIds(o.terms.channelIds),
      groupIds: uniqueIds(o.terms.groupIds),
      notifyReferrerOnJoin: o.notifyReferrerOnJoin,
      invitedAt: o.now,
      expiresAt: expiryDate(o.now, o.expiresInMinutes),
      confirmationKey: o.confirmationKey,
      status: InvitationStatus.PENDING,
    });
  }

  static restore(state: InvitationState): Invitation {
    return new Invitation({ ...state });
  }

  get id(): number {
    return this.state.id;
  }
  get email(): string {
    return this.state.email;
  }
  get referredById(): number {
    return this.state.referredById;
  }
  get notifyReferrerOnJoin(): boolean {
    return this.state.notifyReferrerOnJoin;
  }
  get invitedAs(): Role {
    return this.state.invitedAs;
  }
  get confirmationKey(): string {
    return this.state.confirmationKey;
  }
  terms(): InvitationTerms {
    return { ...this.state };
  }

  isPending(now: Date): boolean {
    return usable(this.state.status, this.state.expiresAt, now);
  }

  /** Signing up through it: once only, before it expires (Zulip: the Confirmation is then used). */
  accept(now: Date): void {
    if (!this.isPending(now)) throw confirmationLinkInvalid();
    this.state = { ...this.state, status: InvitationStatus.USED };
  }

  snapshot(): InvitationState {
    return { ...this.state };
  }
}

export interface MultiuseInviteState extends InvitationTerms {
  readonly id: number;
  readonly realmId: number;
  readonly referredById: number;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  /** null once revoked: the link stops working. */
  readonly confirmationKey: string | null;
  readonly status: InvitationStatus;
}

/** A reusable invitation link (Zulip's MultiuseInvite + its Confirmation). */
export class MultiuseInvite {
  private constructor(private state: MultiuseInviteState) {}

  static create(o: {
    realmId: number;
    referredById: number;
    terms: InvitationTerms;
    now: Date;
    expiresInMinutes: number | null;
    confirmationKey: string;
  }): MultiuseInvite {
    return new MultiuseInvite({
      id: 0,
      realmId: o.realmId,
      referredById: o.referredById,
      ...o.terms,
      channelIds: uniqueIds(o.terms.channelIds),
      groupIds: uniqueIds(o.terms.groupIds),
      createdAt: o.now,
      expiresAt: expiryDate(o.now, o.expiresInMinutes),
      confirmationKey: o.confirmationKey,
      status: InvitationStatus.PENDING,
    });
  }

  static restore(state: MultiuseInviteState): MultiuseInvite {
    return new MultiuseInvite({ ...state });
  }

  get id(): number {
    return this.state.id;
  }
  get referredById(): number {
    return this.state.referredById;
  }
  get invitedAs(): Role {
    return this.state.invitedAs;
  }
  get isRevoked(): boolean {
    return this.state.status === InvitationStatus.REVOKED;
  }

  isPending(now: Date): boolean {
    return usable(this.state.status, this.state.expiresAt, now);
  }

  /** Signing up through it: any number of times until it expires or is revoked. */
  assertUsable(now: Date): void {
    if (!this.isPending(now)) throw confirmationLinkInvalid();
  }

  terms(): InvitationTerms {
    return { ...this.state };
  }

  /** Revoking removes the link; revoking twice is an error. */
  revoke(): void {
    if (this.isRevoked) throw invitationAlreadyRevoked();
    this.state = { ...this.state, status: InvitationStatus.REVOKED, confirmationKey: null };
  }

  snapshot(): MultiuseInviteState {
    return { ...this.state };
  }
}
