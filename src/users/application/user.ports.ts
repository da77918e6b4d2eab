import type { SettingsReader } from '../../shared/application/settings-cache.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { ProfileValueRecord } from './custom-profile-fields.ports.js';
import type { UserGroupSettingName } from '@app/domain/realm';
import type { GroupSettingValue, SystemGroupName, User, UserGroup, UserState } from '@app/domain/users';

export interface NewUser {
  realmId: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  passwordHash: string | null;
  apiKey: string;
  role: number;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isSystemBot: boolean;
  dateJoined: Date;
  defaultAllPublicStreams: boolean;
  /** The organization's language: a new account's default_language. */
  defaultLanguage: string;
}

/** What the API shows of a user (GET /users, register's realm_users). */
export interface UserRecord extends UserState {
  timezone: string;
  avatarVersion: number;
  /** The uploaded avatar's stored path (`<realm id>/<hex>`); null: the Gravatar of the real address. */
  avatarPath: string | null;
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
  defaultAllPublicStreams: boolean;
  /** Who may see the real address (Zulip's email_address_visibility). */
  emailAddressVisibility: number;
}

/** What Basic auth and fetch_api_key need to know about an account. */
export interface Credentials {
  userId: number;
  realmId: number;
  email: string;
  deliveryEmail: string;
  apiKey: string;
  passwordHash: string | null;
  role: number;
  isActive: boolean;
  isBot: boolean;
  botType: number | null;
  realmDeactivated: boolean;
  passwordAuthEnabled: boolean;
  /** The organization's settings version (realms.settings_version) as this read saw it. */
  settingsVersion: number;
}

export abstract class UserRepository {
  abstract findById(realmId: number, userId: number): Promise<UserRecord | null>;
  /** A system bot of the organization by the local part of its email (notification-bot, emailgateway). */
  abstract systemBot(realmId: number, localPart: string): Promise<UserRecord>;
  abstract findManyByIds(realmId: number, userIds: readonly number[]): Promise<Map<number, UserRecord>>;
  /**
   * By delivery (real) email, case-insensitively; keys are the lower-cased emails. Only for
   * registration, invitations and email changes (Zulip's get_user_by_delivery_email): an API
   * lookup by real address would reveal users who hide it (email_address_visibility).
   */
  abstract findManyByEmails(realmId: number, emails: readonly string[]): Promise<Map<string, UserRecord>>;
  /**
   * By API email (`email`: the real address only for users who show it to everyone, else
   * `user<id>@<domain>`), case-insensitively; keys are the lower-cased emails. What API
   * parameters naming users by email go by (Zulip's get_user): DM recipients, narrows, principals.
   */
  abstract findManyByApiEmails(realmId: number, emails: readonly string[]): Promise<Map<string, UserRecord>>;
  abstract getForUpdate(realmId: number, userId: number): Promise<User | null>;
  abstract emailInUse(realmId: number, email: string): Promise<boolean>;
  abstract activeUserNamed(realmId: number, fullName: string): Promise<boolean>;
  /** Another user of the organization has this name, compared as Zulip does (NFKC, case-folded). */
  abstract fullNameTaken(realmId: number, fullName: string, exceptUserId: number): Promise<boolean>;
  abstract insert(user: NewUser): Promise<number>;
  abstract save(user: User): Promise<void>;
  /** Counts active human owners, locking their rows so concurrent demotions serialise. */
  abstract lockActiveHumanOwners(realmId: number): Promise<number>;
  abstract countActiveHumans(realmId: number): Promise<number>;
  /** Deactivates the owner's active bots; returns their ids. */
  abstract deactivateBotsOwnedBy(realmId: number, ownerId: number): Promise<number[]>;
  /** The user's avatar facts, row-locked until the transaction ends (null: no such user). */
  abstract lockAvatar(realmId: number, userId: number): Promise<{ deliveryEmail: string; avatarVersion: number; avatarPath: string | null } | null>;
  /** A new avatar (a stored path; null: the Gravatar) with the next avatar version, which it returns. */
  abstract setAvatar(realmId: number, userId: number, avatarPath: string | null): Promise<number>;
}

export interface UserGroupRecord {
  id: number;
  realmId: number;
  name: string | null;
  description: string;
  isSystemGroup: boolean;
  creatorId: number | null;
  dateCreated: Date | null;
  deactivated: boolean;
  settings: Record<string, number | null>;
}

export abstract class UserGroupRepository {
  abstract createSystemGroups(realmId: number): Promise<Map<SystemGroupName, number>>;
  /** Replaces the user's direct memberships of system groups (role changes, new users). */
  abstract setSystemGroupMemberships(realmId: number, userId: number, groups: readonly SystemGroupName[]): Promise<void>;
  /**
   * Makes role:fullmembers' direct members exactly the members (role 400) who joined at or
   * before `cutoff` (Zulip's update_users_in_full_members_system_group), in two statements.
   */
  abstract refreshFullMembers(realmId: number, cutoff: Date): Promise<void>;
  /** A named group's row (its setting columns as given: ids of stored groups). Returns its id. */
  abstract createNamed(g: {
    realmId: number;
    name: string;
    description: string;
    creatorId: number | null;
    dateCreated: Date | null;
    settings: Readonly<Partial<Record<string, number>>>;
  }): Promise<number>;
  abstract find(realmId: number, groupId: number, forUpdate?: boolean): Promise<UserGroupRecord | null>;
  /**
   * A named group of the organization (system groups too), its row locked until the transaction
   * ends, with its direct members (deactivated users included), direct subgroups and setting
   * values, read after the lock; null when the organization has no such named group.
   */
  abstract getForUpdate(realmId: number, groupId: number): Promise<UserGroup | null>;
  /** Stores a new group with its members and subgroups (`settings`: the stored group of each setting) and identifies it. */
  abstract insert(group: UserGroup, settings: Readonly<Partial<Record<UserGroupSettingName, number>>>): Promise<void>;
  /** Writes a loaded group's pending changes; `settings`: the stored groups of the settings it changed. */
  abstract save(group: UserGroup, settings: Readonly<Partial<Record<UserGroupSettingName, number>>>): Promise<void>;
  abstract namedGroupExists(realmId: number, name: string): Promise<boolean>;
  abstract addMembers(realmId: number, groupId: number, userIds: readonly number[]): Promise<void>;
  /** The group and every group containing it, recursively. */
  abstract ancestorIds(groupId: number): Promise<Set<number>>;
  /**
   * Every group the user belongs to through subgroups; empty for deactivated users. `reader`
   * (the user as an authenticated caller): from the settings cache at the caller's settings
   * version or newer, shared, so never modify the set.
   */
  abstract groupIdsOfUser(userId: number, reader?: SettingsReader): Promise<Set<number>>;
  /** The groups of several users (through subgroups) in one query. */
  abstract groupIdsOfUsers(userIds: readonly number[]): Promise<Map<number, Set<number>>>;
  /** The value a setting pointing at this group reports: its id, or its members and subgroups when anonymous. */
  abstract settingValue(groupId: number): Promise<GroupSettingValue>;
  abstract settingValuesOf(groupIds: readonly number[]): Promise<Map<number, GroupSettingValue>>;
  abstract isMember(groupId: number, userId: number, directOnly: boolean): Promise<boolean>;
  /** The group's active members (direct, or through subgroups too), ascending. */
  abstract memberIds(groupId: number, directOnly: boolean): Promise<number[]>;
  /** The group's subgroups (direct, or recursively; never the group itself), ascending. */
  abstract subgroupIdsOf(groupId: number, directOnly: boolean): Promise<number[]>;
  /**
   * What keeps a group from being deactivated (Zulip's access_user_group_for_deactivation), in
   * three statements: its active named direct supergroups; the ids a setting may hold to use it
   * (itself and its anonymous direct supergroups); the active named groups whose settings hold one.
   */
  abstract usage(realmId: number, groupId: number): Promise<GroupUsage>;
}

/** Where a user group is in use (see UserGroupRepository.usage). */
export interface GroupUsage {
  supergroupIds: number[];
  /** The group itself and its anonymous direct supergroups: a setting holding one of these uses the group. */
  settingGroupIds: number[];
  /** Named groups that are not deactivated, with their settings that hold one of settingGroupIds, in setting order. */
  groups: { groupId: number; settings: string[] }[];
}

/**
 * Channels whose permission settings use a user group (a group about to be deactivated). Owned
 * here, implemented by the channels context; bound in src/app.
 */
export abstract class ChannelGroupUsage {
  /** Channels that are not archived whose settings hold one of `settingGroupIds`, by id, with those settings in Zulip's order. */
  abstract channelsUsing(tx: Tx, realmId: number, settingGroupIds: readonly number[]): Promise<{ channelId: number; settings: string[] }[]>;
}

export abstract class UserQueries {
  abstract credentialsByEmail(realmId: number, email: string): Promise<Credentials | null>;
  abstract list(realmId: number): Promise<UserRecord[]>;
  abstract get(realmId: number, userId: number): Promise<UserRecord | null>;
  /** The user whose real address is `email` (case-insensitively) and whose visibility is one of `visibilities`. */
  abstract findByDeliveryEmail(realmId: number, email: string, visibilities: readonly number[]): Promise<UserRecord | null>;
  abstract systemBots(realmId: number): Promise<UserRecord[]>;
  /** The newest message the user received, or -1. */
  abstract maxMessageId(userId: number): Promise<number>;
  /** GET /users/me in one read: the user, their custom profile field values (in field order) and their newest message id (-1: none). */
  abstract ownProfile(realmId: number, userId: number): Promise<{ user: UserRecord; profileValues: ProfileValueRecord[]; maxMessageId: number } | null>;
  abstract listGroups(realmId: number, includeDeactivated: boolean): Promise<UserGroupView[]>;
  /** The organization's user list (`list`, `systemBots` and every user's profile field values) in one statement. */
  abstract directory(realmId: number): Promise<UserDirectory>;
}

/** Everyone POST /register's realm_user section shows. */
export interface UserDirectory {
  /** Everyone but the system bots, by id. */
  users: UserRecord[];
  /** By id. */
  systemBots: UserRecord[];
  /** Each user's custom profile field values, in field order (users without any are absent). */
  profileValues: Map<number, ProfileValueRecord[]>;
}

export interface UserGroupView {
  id: number;
  name: string;
  description: string;
  creatorId: number | null;
  dateCreated: Date | null;
  isSystemGroup: boolean;
  deactivated: boolean;
  members: number[];
  directSubgroupIds: number[];
  settings: Record<string, GroupSettingValue>;
}

/**
 * What the organization's channels do for a user who just joined: subscribe a new human to the
 * default channels and tell everyone concerned. Owned here, implemented by the channels
 * context (which depends on users, not the other way round); bound in src/app.
 */
export abstract class NewUserChannels {
  /** The new user joins `channelIds` (active ones the organization has) and, if asked, the default channels. */
  abstract subscribeNewUser(tx: Tx, realmId: number, userId: number, o: { channelIds: readonly number[]; includeDefaults: boolean }): Promise<void>;
}

/**
 * The Notification Bot's sign-up announcement (Zulip's notify_new_user): "… joined this
 * organization." in the organization's sign-up announcements channel, when it has one. Owned
 * here, implemented by the messages context; bound in src/app.
 */
export abstract class NewUserAnnouncements {
  abstract userJoined(tx: Tx, realmId: number, user: { id: number; fullName: string }, now: Date): Promise<void>;
  /** The Notification Bot tells who invited the new user (an invitation's notify_referrer_on_join). */
  abstract invitationAccepted(tx: Tx, realmId: number, referrerId: number, user: { id: number; fullName: string }, now: Date): Promise<void>;
}

/**
 * The channels of a new organization (Zulip's do_create_realm: `Zulip`, `sandbox`, `general`,
 * see INITIAL_CHANNELS in @app/domain/channels): created public without a creator and made the
 * default channels, before the owner joins. Owned here, implemented by the channels context;
 * returns the new channels' ids by name (`general` is the one Zulip's announcement settings use).
 */
export abstract class OrganizationChannels {
  abstract createInitialChannels(tx: Tx, realmId: number, now: Date): Promise<Map<string, number>>;
  /** The new organization's owner joins its default channels (no events: nobody can listen yet). */
  abstract subscribeFounder(tx: Tx, realmId: number, userId: number): Promise<void>;
}

/**
 * What follows a change of a user's presence_enabled setting: Zulip updates their presence at
 * once (on: active now; off: shown offline) and tells everyone. Owned here, implemented by the
 * presence context (which depends on users, not the other way round); bound in src/app.
 */
export abstract class PresenceSettingEffects {
  abstract presenceEnabledChanged(tx: Tx, realmId: number, userId: number, enabled: boolean): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly users: UserRepository;
    readonly groups: UserGroupRepository;
  }
}
