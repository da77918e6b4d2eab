import type { GroupSettingValue } from '@app/domain/users';

/** An organization's stored state (the realms row). */
export interface RealmRecord {
  id: number;
  stringId: string;
  name: string;
  description: string;
  deactivated: boolean;
  dateCreated: Date;
  orgType: number;
  planType: number;
  defaultLanguage: string;
  inviteRequired: boolean;
  emailsRestrictedToDomains: boolean;
  disallowDisposableEmailAddresses: boolean;
  waitingPeriodThreshold: number;
  allowMessageEditing: boolean;
  messageContentEditLimitSeconds: number | null;
  messageContentDeleteLimitSeconds: number | null;
  moveMessagesWithinStreamLimitSeconds: number | null;
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  messageEditHistoryVisibilityPolicy: number;
  messageRetentionDays: number;
  enableSpectatorAccess: boolean;
  topicsPolicy: number;
  requireUniqueNames: boolean;
  nameChangesDisabled: boolean;
  emailChangesDisabled: boolean;
  avatarChangesDisabled: boolean;
  passwordAuthEnabled: boolean;
  presenceDisabled: boolean;
  digestEmailsEnabled: boolean;
  sendWelcomeEmails: boolean;
}

export abstract class RealmRepository {
  /** Serialises first-start bootstrap between concurrently starting servers. */
  abstract lockForBootstrap(): Promise<void>;
  abstract firstRealmId(): Promise<number | null>;
  abstract insert(r: { stringId: string; name: string; dateCreated: Date }): Promise<number>;
  abstract get(realmId: number): Promise<RealmRecord>;
  abstract groupSetting(realmId: number, setting: string): Promise<GroupSettingValue>;
  abstract groupSettings(realmId: number): Promise<Record<string, GroupSettingValue>>;
  abstract setGroupSettings(realmId: number, groupIds: Readonly<Record<string, number>>): Promise<void>;
  abstract domains(realmId: number): Promise<{ domain: string; allowSubdomains: boolean }[]>;
}

/** Read side: the organization this server hosts. */
export abstract class RealmQueries {
  abstract idByStringId(stringId: string): Promise<number | null>;
  abstract get(realmId: number): Promise<RealmRecord>;
  abstract groupSettings(realmId: number): Promise<Record<string, GroupSettingValue>>;
}
