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

  abstract insertMultiuse(invite: MultiuseInvite): Promise<number>;
  abstract findMultiuse(realmId: number, inviteId: number): Promise<MultiuseInvite | null>;
  abstract saveMultiuse(invite: MultiuseInvite): Promise<void>;
}

export abstract class InvitationQueries {
  /** Pending, unexpired invitations; `referredById` null: the whole organization's. */
  abstract pending(realmId: number, referredById: number | null, now: Date): Promise<InvitationState[]>;
  abstract pendingMultiuse(realmId: number, referredById: number | null, now: Date): Promise<MultiuseInviteState[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly invitations: InvitationRepository;
  }
}
