import type { RealmUserDefaults, SettingChange } from '@app/domain/users';

/** The organization's defaults for new users (Zulip's RealmUserDefault), as a transaction changes them. */
export abstract class RealmUserDefaultsRepository {
  /** The defaults, locked for the rest of the transaction (concurrent changes serialise); the model defaults when the organization has no row yet. */
  abstract getForUpdate(realmId: number): Promise<RealmUserDefaults>;
  /** Writes the changed defaults (one statement; the row is made if missing). */
  abstract apply(realmId: number, changes: readonly SettingChange[]): Promise<void>;
  /**
   * Zulip's copy_default_settings for a new account: every default but the language and login
   * emails onto the user (one statement). Returns the user's address visibility (null: the
   * organization has no row, the account keeps the model defaults).
   */
  abstract copyToNewUser(realmId: number, userId: number): Promise<number | null>;
}

export abstract class RealmUserDefaultsQueries {
  /** The organization's defaults (the model defaults when it has no row). */
  abstract of(realmId: number): Promise<RealmUserDefaults>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly realmUserDefaults: RealmUserDefaultsRepository;
  }
}
