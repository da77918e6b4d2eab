import type { Invitation, InvitationState, MultiuseInvite, MultiuseInviteState } from '@app/domain/invitations';

export abstract class InvitationRepository {
  /** Serialises the invitations of one organization (daily limit) until the transaction ends. */
  abstract lockRealmInvites(realmId: number): Promise<void>;
  /** Invitation emails sent by the organization since `since`. */
  abstract sentSince(realmId: number, since: Date): Promise<number>;
  abstract recordSent(realmId: number, count: number, at: Date): Promise<void>;

  abstract insert(invitation: Invitation): Promise<number>;
  abstract find(realmId: number, invitationId: number): Promise<Invitation | null>;
  abstract delete(realmId: number, invitationId: number): Promise<void>;
  /** The invitation behind a sign-up link of the organization (locked), whatever its status. */
  abstract findByKey(realmId: number, confirmationKey: string): Promise<Invitation | null>;
  abstract save(invitation: Invitation): Promise<void>;
  /** Zulip's revoke_preregistration_users: the address's other pending invitations end when it signs up. */
  abstract revokePendingFor(realmId: number, email: string): Promise<void>;

  abstract insertMultiuse(invite: MultiuseInvite): Promise<number>;
  abstract findMultiuse(realmId: number, inviteId: number): Promise<MultiuseInvite | null>;
  abstract saveMultiuse(invite: MultiuseInvite): Promise<void>;
  /** The reusable link behind a key of the organization (share-locked: a revocation waits for the sign-up). */
  abstract findMultiuseByKey(realmId: number, confirmationKey: string): Promise<MultiuseInvite | null>;
}

export abstract class InvitationQueries {
  /** The sign-up page: an invitation's or a reusable link's state, by key, within the organization. */
  abstract byKey(realmId: number, confirmationKey: string): Promise<InvitationState | MultiuseInviteState | null>;
  /** Pending, unexpired invitations; `referredById` null: the whole organization's. */
  abstract pending(realmId: number, referredById: number | null, now: Date): Promise<InvitationState[]>;
  abstract pendingMultiuse(realmId: number, referredById: number | null, now: Date): Promise<MultiuseInviteState[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly invitations: InvitationRepository;
  }
}
