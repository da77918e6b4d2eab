/** An organization owner to tell about the organization's deactivation. */
export interface OwnerContact {
  userId: number;
  fullName: string;
  deliveryEmail: string;
  /** '' when unset. */
  timezone: string;
}

/** The organization's life (deactivation), in a transaction. */
export abstract class RealmLifecycleRepository {
  /**
   * Marks the organization deactivated (its data to be deleted at `scheduledDeletionDate`, or
   * not scheduled) and ends its browser sessions; false when it already was (nothing changed).
   */
  abstract deactivate(realmId: number, scheduledDeletionDate: Date | null): Promise<boolean>;
  /** Zulip's get_human_owner_users: the active human owners, by id. */
  abstract activeHumanOwners(realmId: number): Promise<OwnerContact[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly realmLifecycle: RealmLifecycleRepository;
  }
}
