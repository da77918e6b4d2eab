import type { SettingChange, UserSettingName, UserSettings, UserSettingValue } from '@app/domain/users';

/** The account fields PATCH /settings and friends change, as the transaction sees them. */
export interface AccountState {
  userId: number;
  realmId: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isBot: boolean;
  isActive: boolean;
  passwordHash: string | null;
  avatarVersion: number;
  /** The uploaded avatar's stored path; null: the Gravatar. */
  avatarPath: string | null;
  settings: UserSettings;
}

export abstract class UserSettingsRepository {
  /** The user's account and settings, row locked for the rest of the transaction. */
  abstract getForUpdate(realmId: number, userId: number): Promise<AccountState | null>;
  /** Writes the changed settings (one statement). */
  abstract apply(realmId: number, userId: number, changes: readonly SettingChange[]): Promise<void>;
  /** Remembers which settings users changed themselves (target_users' skip_if_already_edited). */
  abstract recordSelfEdits(userId: number, names: readonly string[]): Promise<void>;
  /**
   * target_users: sets one setting for the given humans of the organization whose value
   * differs (and, with `skipSelfEdited`, who never changed it themselves); returns their IDs.
   */
  abstract applyToUsers(
    realmId: number,
    userIds: readonly number[],
    name: UserSettingName,
    value: UserSettingValue,
    skipSelfEdited: boolean,
  ): Promise<{ id: number; email: string }[]>;
  /** The humans (active or not) among these IDs of the organization, and the IDs it does not know. */
  abstract humansAmong(realmId: number, userIds: readonly number[]): Promise<{ humans: number[]; unknown: number[] }>;
  /** Every member of these groups, through subgroups (deactivated members included); unknown group IDs are reported. */
  abstract membersOfGroups(realmId: number, groupIds: readonly number[]): Promise<{ userIds: number[]; unknown: number[] }>;
  /** The active users of the organization with one of these roles, but `exceptUserId`. */
  abstract activeUserIdsWithRoles(realmId: number, roles: readonly number[], exceptUserId: number): Promise<number[]>;
}

export abstract class AccountRepository {
  /** Replaces the password hash if it still is `expected` (a concurrent change wins); false otherwise. */
  abstract replacePasswordHash(realmId: number, userId: number, expected: string | null, hash: string): Promise<boolean>;
  abstract setApiKey(realmId: number, userId: number, apiKey: string): Promise<void>;
  abstract setEmails(realmId: number, userId: number, emails: { email?: string; deliveryEmail?: string }): Promise<void>;
}

export interface EmailChangeRequest {
  id: number;
  realmId: number;
  userId: number;
  oldEmail: string;
  newEmail: string;
  expiresAt: Date;
  status: 'pending' | 'used' | 'revoked';
}

export abstract class EmailChangeRepository {
  /** A new request; the user's older pending ones are revoked (Zulip's do_start_email_change_process). */
  abstract create(r: { realmId: number; userId: number; oldEmail: string; newEmail: string; key: string; now: Date; expiresAt: Date }): Promise<void>;
  /** By confirmation key, locked; null when unknown. */
  abstract findByKeyForUpdate(key: string): Promise<EmailChangeRequest | null>;
  abstract markUsed(id: number): Promise<void>;
}

/** An emailed password-reset link, found by the SHA-256 of its token. */
export interface PasswordResetLink {
  id: number;
  realmId: number;
  userId: number;
  expiresAt: Date;
  used: boolean;
}

export abstract class PasswordResetRepository {
  abstract create(r: { realmId: number; userId: number; tokenSha256: string; now: Date; expiresAt: Date }): Promise<void>;
  /** Locked for the rest of the transaction; null when unknown. */
  abstract findForUpdate(tokenSha256: string): Promise<PasswordResetLink | null>;
  /** Marks this link used and every other unused link of the user too (a reset ends them all). */
  abstract useAll(userId: number, now: Date): Promise<void>;
}

export abstract class UserSettingsQueries {
  abstract settingsOf(realmId: number, userId: number): Promise<UserSettings>;
  /** What checking the user's current password needs. */
  abstract credentials(realmId: number, userId: number): Promise<{ passwordHash: string | null; deliveryEmail: string; passwordAuthEnabled: boolean }>;
  /** What the new-login email needs to know about the user (null: no such user). */
  abstract loginNoticeFacts(realmId: number, userId: number): Promise<LoginNoticeFacts | null>;
}

export interface LoginNoticeFacts {
  deliveryEmail: string;
  isBot: boolean;
  dateJoined: Date;
  enableLoginEmails: boolean;
  timezone: string;
  twentyFourHourTime: boolean;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly userSettings: UserSettingsRepository;
    readonly accounts: AccountRepository;
    readonly emailChanges: EmailChangeRepository;
    readonly passwordResets: PasswordResetRepository;
  }
}
