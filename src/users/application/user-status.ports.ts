import type { StatusEmoji, UserStatusState } from '@app/domain/users';

export abstract class UserStatusRepository {
  /**
   * Creates the user's status row if needed and changes only the given parts (Zulip's
   * update_user_status: the row exists after any update, `away` alone included).
   */
  abstract upsert(
    realmId: number,
    userId: number,
    change: { statusText?: string; emoji?: StatusEmoji },
    now: Date,
  ): Promise<void>;
  /** The user's presence_enabled setting, which the deprecated `away` flag inverts. */
  abstract setPresenceEnabled(realmId: number, userId: number, enabled: boolean): Promise<void>;
}

export abstract class UserStatusQueries {
  /** The user's status row with their presence setting; null when they never set a status. */
  abstract get(realmId: number, userId: number): Promise<UserStatusState | null>;
  /** The status rows of the organization's active users, by user ID. */
  abstract listActive(realmId: number): Promise<UserStatusState[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly userStatus: UserStatusRepository;
  }
}
