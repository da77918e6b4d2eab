import type { Tx } from '../../shared/application/unit-of-work.js';
import type { LinkifierDefinition, PatternCompiler, PlaygroundDefinition, RealmChannelSettingChange, RealmChannelSettings, RealmImage, RealmProperties } from '@app/domain/realm';
import type { GroupSettingValue } from '@app/domain/users';
import type { SettingsReader } from '../../shared/application/settings-cache.js';

/** An organization's stored state (the realms row). */
export interface RealmRecord extends RealmProperties, RealmChannelSettings {
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
  enableReadReceipts: boolean;
  topicsPolicy: number;
  requireUniqueNames: boolean;
  nameChangesDisabled: boolean;
  emailChangesDisabled: boolean;
  avatarChangesDisabled: boolean;
  passwordAuthEnabled: boolean;
  presenceDisabled: boolean;
  digestEmailsEnabled: boolean;
  sendWelcomeEmails: boolean;
  /** Zulip's Realm.custom_upload_quota_gb: the organization's upload quota (null: none); no API sets it. */
  customUploadQuotaGb: number | null;
  /** The organization's UUID (Zulip's Realm.uuid: the push relay and register's realm_uuid know it by this). */
  uuid: string;
  /** Whether a channel of the organization is web-public and not archived (read with the row; a change bumps the settings version). */
  hasWebPublicChannels: boolean;
  /** The organization's images (see RealmImage): `G`/`D` until uploaded, then `U`; versions bumped on every change. */
  iconSource: string;
  iconVersion: number;
  logoSource: string;
  logoVersion: number;
  nightLogoSource: string;
  nightLogoVersion: number;
}

export interface RealmDomainRecord {
  id: number;
  domain: string;
  allowSubdomains: boolean;
}

export interface LinkifierRecord extends LinkifierDefinition {
  id: number;
}

export interface PlaygroundRecord extends PlaygroundDefinition {
  id: number;
}

export abstract class RealmRepository {
  /** Serialises first-start bootstrap between concurrently starting servers. */
  abstract lockForBootstrap(): Promise<void>;
  abstract firstRealmId(): Promise<number | null>;
  abstract insert(r: { stringId: string; name: string; dateCreated: Date }): Promise<number>;
  /**
   * `reader`: the caller, whose settings version (if known) lets these reads come from the
   * settings cache (at that version or newer; never after this transaction wrote settings).
   * Cached values are shared: treat them as read-only.
   */
  abstract get(realmId: number, reader?: SettingsReader): Promise<RealmRecord>;
  abstract groupSetting(realmId: number, setting: string, reader?: SettingsReader): Promise<GroupSettingValue>;
  abstract groupSettings(realmId: number, reader?: SettingsReader): Promise<Record<string, GroupSettingValue>>;
  abstract setGroupSettings(realmId: number, groupIds: Readonly<Record<string, number>>): Promise<void>;
  abstract domains(realmId: number): Promise<{ domain: string; allowSubdomains: boolean }[]>;
  /** The realms row, locked until the transaction ends (concurrent settings changes serialise). */
  abstract getForUpdate(realmId: number): Promise<RealmRecord>;
  abstract updateProperties(realmId: number, changes: Partial<RealmProperties>): Promise<void>;
  abstract setChannelSettings(realmId: number, changes: readonly RealmChannelSettingChange[]): Promise<void>;
  /** The image's new source, with its version bumped (Zulip's do_change_icon_source / do_change_logo_source). */
  abstract changeImage(realmId: number, image: RealmImage, source: string): Promise<void>;
  /** An allowed domain by its exact text, locked. */
  abstract findDomain(realmId: number, domain: string): Promise<RealmDomainRecord | null>;
  abstract addDomain(realmId: number, domain: string, allowSubdomains: boolean): Promise<number>;
  abstract setDomainAllowSubdomains(domainId: number, allowSubdomains: boolean): Promise<void>;
  abstract removeDomain(domainId: number): Promise<void>;
  abstract countDomains(realmId: number): Promise<number>;
}

/** The organization's linkifiers, in a transaction. */
export abstract class LinkifierRepository {
  /** Every linkifier id, locked (reordering and appending serialise on them). */
  abstract lockIds(realmId: number): Promise<number[]>;
  abstract find(realmId: number, linkifierId: number): Promise<LinkifierRecord | null>;
  abstract patternTaken(realmId: number, pattern: string, exceptId?: number): Promise<boolean>;
  /** Appends after the last one in order. */
  abstract insert(realmId: number, linkifier: LinkifierDefinition): Promise<number>;
  abstract update(realmId: number, linkifierId: number, linkifier: LinkifierDefinition): Promise<void>;
  abstract remove(realmId: number, linkifierId: number): Promise<void>;
  /** Gives the listed linkifiers the orders 0, 1, 2, ... */
  abstract setOrder(realmId: number, orderedIds: readonly number[]): Promise<void>;
  /** Every linkifier in application order, as this transaction sees them (event payloads). */
  abstract list(realmId: number): Promise<LinkifierRecord[]>;
}

/** The organization's code playgrounds, in a transaction. */
export abstract class PlaygroundRepository {
  abstract taken(realmId: number, pygmentsLanguage: string, name: string): Promise<boolean>;
  abstract insert(realmId: number, playground: PlaygroundDefinition): Promise<number>;
  abstract find(realmId: number, playgroundId: number): Promise<PlaygroundRecord | null>;
  abstract remove(realmId: number, playgroundId: number): Promise<void>;
  /** Every playground by id, as this transaction sees them (event payloads). */
  abstract list(realmId: number): Promise<PlaygroundRecord[]>;
}

/** Read side: the organization this server hosts. */
export abstract class RealmQueries {
  abstract idByStringId(stringId: string): Promise<number | null>;
  abstract get(realmId: number): Promise<RealmRecord>;
  /**
   * The realms row for a reader that knows no settings version (unauthenticated requests),
   * from the settings cache while this process has heard of no change since loading it: it may
   * trail another server's commit until that server's notification arrives.
   */
  abstract getForVisitor(realmId: number): Promise<RealmRecord>;
  abstract groupSettings(realmId: number): Promise<Record<string, GroupSettingValue>>;
  abstract domains(realmId: number): Promise<RealmDomainRecord[]>;
  /** In application order. */
  abstract linkifiers(realmId: number): Promise<LinkifierRecord[]>;
  abstract playgrounds(realmId: number): Promise<PlaygroundRecord[]>;
}

/** Compiles organization-defined regular expressions (RE2). */
export abstract class PatternEngine {
  abstract readonly compile: PatternCompiler;
}

/**
 * What a new waiting period (waiting_period_threshold) does to the organization's members:
 * who is a full member changes. Owned here, implemented by the users context; bound in src/app.
 */
export abstract class WaitingPeriodEffects {
  /** Members who joined at or before `fullMemberCutoff` are full members, the others not. */
  abstract changed(tx: Tx, realmId: number, fullMemberCutoff: Date): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly realms: RealmRepository;
    readonly linkifiers: LinkifierRepository;
    readonly playgrounds: PlaygroundRepository;
  }
}

/**
 * The organization's active channels among `channelIds` (the channel settings of PATCH /realm
 * name one). Owned by realm, implemented by channels.
 */
export abstract class RealmChannelDirectory {
  abstract activeChannelIds(tx: Tx, realmId: number, channelIds: readonly number[]): Promise<Set<number>>;
  /** Those of the ids that are public channels (not invite-only) of the organization. */
  abstract publicChannelIds(tx: Tx, realmId: number, channelIds: readonly number[]): Promise<Set<number>>;
}
