import {
  type Actor,
  avatarSourceOf,
  type EmailViewer,
  type GroupSettingValue,
  holdsGroupSetting,
  isAdmin,
  isGuest,
  isOwner,
  Role,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import {
  presentDomain,
  presentLinkifier,
  presentPlayground,
  RealmQueries,
  type RealmRecord,
} from '../../realm/index.js';
import { versionFields } from '../../server/index.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { OrganizationSettingsCache } from '../../shared/application/settings-cache.js';
import { presentRealmEmojiMap, RealmEmojiService } from '../../emoji/index.js';
import { presentReminder } from '../../drafts/index.js';
import {
  avatarUrl,
  CustomProfileFieldQueries,
  presentCustomProfileField,
  presentCustomProfileFieldTypes,
  presentLegacyDisplaySettings,
  presentLegacyNotificationSettings,
  presentProfileData,
  presentRealmUserDefaults,
  RealmUserDefaultsQueries,
  presentUser,
  presentUserGroup,
  presentUserSettings,
  presentUserStatusMap,
  BotsService,
  presentBot,
  type UserDirectory,
  UserQueries,
  type UserRecord,
  UserSettingsQueries,
  UserStatusService,
} from '../../users/index.js';
import { realmSection } from './realm-section.js';
import type { RegisterSnapshot } from './register-sections.js';

/**
 * Sections about services this server does not run (GIF providers, Zoom, billing, embedded and
 * incoming-webhook bots): what Zulip answers without them. Search matches substrings, so no word
 * is a stop word.
 */
function absentServiceSections(want: (section: string) => boolean, state: Record<string, unknown>): void {
  if (want('giphy')) state.giphy_api_key = '';
  if (want('tenor')) state.tenor_api_key = '';
  if (want('video_calls')) state.has_zoom_token = false;
  if (want('realm_billing')) state.realm_billing = {};
  if (want('realm_embedded_bots')) state.realm_embedded_bots = [];
  if (want('realm_incoming_webhook_bots')) state.realm_incoming_webhook_bots = [];
  if (want('stop_words')) state.stop_words = [];
}

/** Client capabilities (the `client_capabilities` object of POST /register) that change the initial state. */
export interface ClientCapabilities {
  linkifierUrlTemplate: boolean;
  /** Without it, the settings also come as the legacy top-level keys. */
  userSettingsObject?: boolean;
  /** realm_user_groups lists deactivated groups too. */
  includeDeactivatedGroups?: boolean;
}

/**
 * The initial state of POST /register for the requested sections (spec 30 §2.5/2.6). The
 * organization-wide sections come from the settings cache at the settings version the
 * register's read saw (or newer), each documented with the tables whose changes give a new
 * version (SettingsVersion and RegisterSettingsVersion migrations); the user list from a cache of
 * its own, by the user list version.
 */
@Injectable()
export class RegisterService {
  /**
   * The organizations' user lists as realm_user shows them, by user list version (the same
   * never-stale rule as the settings cache: an entry of the version the register read, or newer).
   */
  private readonly userLists = new OrganizationSettingsCache();

  constructor(
    private readonly realms: RealmQueries,
    private readonly users: UserQueries,
    private readonly config: ServerConfig,
    private readonly statuses: UserStatusService,
    private readonly emoji: RealmEmojiService,
    private readonly userSettings: UserSettingsQueries,
    private readonly profileFields: CustomProfileFieldQueries,
    private readonly bots: BotsService,
    private readonly cache: OrganizationSettingsCache,
    private readonly userDefaults: RealmUserDefaultsQueries,
  ) {}

  /**
   * A spectator's state (no account, no queue): the version facts and the organization's
   * settings; sections about a user are not there.
   */
  async spectatorState(realm: RealmRecord, want: (section: string) => boolean): Promise<Record<string, unknown>> {
    const state: Record<string, unknown> = { ...versionFields(this.config) };
    if (want('realm')) Object.assign(state, realmSection(realm, await this.realms.groupSettings(realm.id), this.config));
    if (want('realm_user_settings_defaults')) state.realm_user_settings_defaults = presentRealmUserDefaults(await this.userDefaults.of(realm.id));
    return state;
  }

  async initialState(
    actor: Actor,
    want: (section: string) => boolean,
    clientGravatar: boolean,
    capabilities: ClientCapabilities,
    read: RegisterSnapshot,
  ) {
    const entry = this.cache.at(actor.realmId, read.settingsVersion);
    // The realms row and realm_group_settings (with the groups they name) are versioned.
    const realm = await entry.value('realm', () => this.realms.get(actor.realmId));
    const settings = await entry.value('groupSettings', () => this.realms.groupSettings(actor.realmId));
    const state: Record<string, unknown> = { ...versionFields(this.config) };
    if (want('realm')) Object.assign(state, await entry.value('register.realm', async () => Object.freeze(realmSection(realm, settings, this.config))));
    if (want('realm_user_settings_defaults')) {
      // realm_user_defaults is versioned.
      state.realm_user_settings_defaults = await entry.value('register.userSettingsDefaults', async () =>
        Object.freeze(presentRealmUserDefaults(await this.userDefaults.of(actor.realmId))),
      );
    }
    if (want('realm_user')) Object.assign(state, await this.realmUserSection(actor, read, realm, settings, clientGravatar));
    if (want('realm_bot')) state.realm_bots = (await this.bots.realmBots(actor)).map(presentBot);
    if (want('realm_user_groups')) {
      const deactivated = capabilities.includeDeactivatedGroups === true;
      // user_groups, their members (with the users' activity) and subgroups, and their settings are versioned.
      state.realm_user_groups = await entry.value(`register.userGroups:${deactivated}`, async () =>
        (await this.users.listGroups(actor.realmId, deactivated)).map(presentUserGroup),
      );
    }
    // realm_domains, linkifiers, code_playgrounds, realm_emoji and custom_profile_fields are versioned.
    if (want('realm_domains')) {
      state.realm_domains = await entry.value('register.domains', async () => (await this.realms.domains(actor.realmId)).map(presentDomain));
    }
    if (want('realm_linkifiers')) {
      // Clients that do not announce linkifier_url_template cannot read URL templates.
      state.realm_linkifiers = capabilities.linkifierUrlTemplate
        ? await entry.value('register.linkifiers', async () => (await this.realms.linkifiers(actor.realmId)).map(presentLinkifier))
        : [];
    }
    // The legacy section: its tuples cannot express URL templates, so Zulip sends it empty.
    if (want('realm_filters')) state.realm_filters = [];
    if (want('realm_playgrounds')) {
      state.realm_playgrounds = await entry.value('register.playgrounds', async () => (await this.realms.playgrounds(actor.realmId)).map(presentPlayground));
    }
    if (want('realm_emoji')) state.realm_emoji = await entry.value('register.emoji', async () => presentRealmEmojiMap(await this.emoji.list(actor)));
    if (want('user_status')) state.user_status = presentUserStatusMap(await this.statuses.statusesOfRealm(actor));
    if (want('reminders')) state.reminders = read.lists.reminders.map(presentReminder);
    await this.settingsSections(actor, want, capabilities.userSettingsObject === true, state);
    if (want('custom_profile_fields')) {
      state.custom_profile_fields = await entry.value('register.profileFields', async () =>
        (await this.profileFields.list(actor.realmId)).map(presentCustomProfileField),
      );
      state.custom_profile_field_types = presentCustomProfileFieldTypes();
    }
    if (want('alert_words')) state.alert_words = read.alertWords;
    if (want('muted_users')) state.muted_users = read.mutedUsers;
    absentServiceSections(want, state);
    return state;
  }

  /** `user_settings`, and the legacy top-level settings for clients without user_settings_object. */
  private async settingsSections(actor: Actor, want: (s: string) => boolean, settingsObject: boolean, state: Record<string, unknown>) {
    const legacyDisplay = want('update_display_settings') && !settingsObject;
    const legacyNotifications = want('update_global_notifications') && !settingsObject;
    if (!want('user_settings') && !legacyDisplay && !legacyNotifications) return;
    const settings = await this.userSettings.settingsOf(actor.realmId, actor.userId);
    if (legacyDisplay) Object.assign(state, presentLegacyDisplaySettings(settings));
    if (legacyNotifications) Object.assign(state, presentLegacyNotificationSettings(settings));
    if (want('user_settings')) state.user_settings = presentUserSettings(settings);
  }

  private async realmUserSection(
    actor: Actor,
    read: RegisterSnapshot,
    realm: RealmRecord,
    settings: Record<string, GroupSettingValue>,
    clientGravatar: boolean,
  ) {
    // The user list (users and their custom profile field values) is versioned apart from the settings.
    const entry = read.userListVersion > 0 ? this.userLists.at(actor.realmId, read.userListVersion) : undefined;
    const cached = <T>(key: string, load: () => Promise<T>) => (entry ? entry.value(key, load) : load());
    const directory = await cached('directory', () => this.users.directory(actor.realmId));
    const lists = await cached(`lists:${clientGravatar}:${actor.role}`, async () => userLists(directory, clientGravatar, actor.role));
    const me = directory.users.find((u) => u.id === actor.userId)!;
    const holds = (s: string) => holdsGroupSetting(settings[s], actor.userId, read.groupIds);
    const canPublic = holds('can_create_public_channel_group');
    const canPrivate = holds('can_create_private_channel_group');
    const canWebPublic =
      this.config.webPublicStreamsEnabled && realm.enableSpectatorAccess && holds('can_create_web_public_channel_group');
    return {
      ...lists.withViewer(me, presentListed(me, directory, clientGravatar, { id: actor.userId, role: actor.role })),
      avatar_source: avatarSourceOf(me.avatarPath),
      avatar_url_medium: avatarUrl(me, true),
      avatar_url: avatarUrl(me),
      can_create_private_streams: canPrivate,
      can_create_public_streams: canPublic,
      can_create_web_public_streams: canWebPublic,
      can_create_streams: canPublic || canPrivate || canWebPublic,
      can_invite_others_to_realm: holds('can_invite_users_group'),
      can_subscribe_other_users: holds('can_add_subscribers_group'),
      is_admin: isAdmin(me.role),
      is_owner: isOwner(me.role),
      is_moderator: me.role === Role.MODERATOR,
      is_guest: isGuest(me.role),
      user_id: me.id,
      email: me.email,
      delivery_email: me.deliveryEmail,
      full_name: me.fullName,
    };
  }
}

/** A user as realm_users lists them (without `is_active`); system bots without profile data. */
function presentListed(u: UserRecord, directory: UserDirectory, clientGravatar: boolean, viewer: EmailViewer): Readonly<Record<string, unknown>> {
  const profileData = u.isSystemBot ? undefined : presentProfileData(directory.profileValues.get(u.id) ?? []);
  const { is_active: _, ...rest } = presentUser(u, { clientGravatar, viewer, profileData });
  return Object.freeze(rest);
}

/**
 * realm_users, realm_non_active_users and cross_realm_bots as a viewer of `role` sees them,
 * computed once per settings version; `withViewer` puts in the viewer's own entry (everyone
 * sees their own address), copying the list only when that entry differs. Shared: never modified.
 */
function userLists(directory: UserDirectory, clientGravatar: boolean, role: Role) {
  const anyone = { id: 0, role };
  const present = (u: UserRecord) => presentListed(u, directory, clientGravatar, anyone);
  const active = Object.freeze(directory.users.filter((u) => u.isActive).map(present));
  const inactive = Object.freeze(directory.users.filter((u) => !u.isActive).map(present));
  const bots = Object.freeze(directory.systemBots.map(present));
  const positions = new Map(directory.users.map((u) => [u.id, u.isActive ? active : inactive] as const));
  return {
    withViewer(me: UserRecord, own: Readonly<Record<string, unknown>>) {
      const list = positions.get(me.id);
      const i = list?.findIndex((u) => u.user_id === me.id) ?? -1;
      const replace = (l: readonly Readonly<Record<string, unknown>>[]) =>
        l !== list || list[i].delivery_email === own.delivery_email ? l : l.map((u, j) => (j === i ? own : u));
      return { realm_users: replace(active), realm_non_active_users: replace(inactive), cross_realm_bots: bots };
    },
  };
}
