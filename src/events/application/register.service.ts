import {
  type Actor,
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
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { presentRealmEmojiMap, RealmEmojiService } from '../../emoji/index.js';
import { presentReminder, RemindersService } from '../../drafts/index.js';
import {
  AlertWordsService,
  CustomProfileFieldQueries,
  MutedUsersService,
  gravatarUrl,
  presentCustomProfileField,
  presentCustomProfileFieldTypes,
  presentLegacyDisplaySettings,
  presentLegacyNotificationSettings,
  presentProfileData,
  presentUser,
  presentUserGroup,
  presentUserSettings,
  presentUserStatusMap,
  BotsService,
  presentBot,
  UserQueries,
  UserSettingsQueries,
  UserStatusService,
} from '../../users/index.js';
import { realmSection } from './realm-section.js';

/** The sections POST /register can return today; the others arrive with their modules. */
export const FETCHABLE = [
  'realm',
  'realm_user',
  'realm_bot',
  'realm_user_groups',
  'realm_domains',
  'realm_linkifiers',
  'realm_filters',
  'realm_playgrounds',
  'realm_emoji',
  'user_status',
  'reminders',
  'subscription',
  'stream',
  'message',
  'update_message_flags',
  'starred_messages',
  'user_topic',
  'muted_topics',
  'drafts',
  'saved_snippets',
  'scheduled_messages',
  'default_streams',
  'presence',
  'user_settings',
  'update_display_settings',
  'update_global_notifications',
  'custom_profile_fields',
  'alert_words',
  'muted_users',
  'channel_folders',
] as const;

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
 * event queue that makes the snapshot live comes with the events module.
 */
@Injectable()
export class RegisterService {
  constructor(
    private readonly realms: RealmQueries,
    private readonly users: UserQueries,
    private readonly uow: UnitOfWork,
    private readonly config: ServerConfig,
    private readonly statuses: UserStatusService,
    private readonly emoji: RealmEmojiService,
    private readonly reminders: RemindersService,
    private readonly userSettings: UserSettingsQueries,
    private readonly profileFields: CustomProfileFieldQueries,
    private readonly alertWords: AlertWordsService,
    private readonly mutedUsers: MutedUsersService,
    private readonly bots: BotsService,
  ) {}

  async initialState(
    actor: Actor,
    want: (section: string) => boolean,
    clientGravatar: boolean,
    capabilities: ClientCapabilities = { linkifierUrlTemplate: false },
  ) {
    const realm = await this.realms.get(actor.realmId);
    const state: Record<string, unknown> = { ...versionFields(this.config) };
    const settings = await this.realms.groupSettings(actor.realmId);
    if (want('realm')) Object.assign(state, realmSection(realm, settings, this.config));
    if (want('realm_user')) Object.assign(state, await this.realmUserSection(actor, realm, settings, clientGravatar));
    if (want('realm_bot')) state.realm_bots = (await this.bots.realmBots(actor)).map(presentBot);
    if (want('realm_user_groups')) {
      const groups = await this.users.listGroups(actor.realmId, capabilities.includeDeactivatedGroups === true);
      state.realm_user_groups = groups.map(presentUserGroup);
    }
    if (want('realm_domains')) {
      state.realm_domains = (await this.realms.domains(actor.realmId)).map(presentDomain);
    }
    if (want('realm_linkifiers')) {
      // Clients that do not announce linkifier_url_template cannot read URL templates.
      state.realm_linkifiers = capabilities.linkifierUrlTemplate
        ? (await this.realms.linkifiers(actor.realmId)).map(presentLinkifier)
        : [];
    }
    // The legacy section: its tuples cannot express URL templates, so Zulip sends it empty.
    if (want('realm_filters')) state.realm_filters = [];
    if (want('realm_playgrounds')) {
      state.realm_playgrounds = (await this.realms.playgrounds(actor.realmId)).map(presentPlayground);
    }
    if (want('realm_emoji')) state.realm_emoji = presentRealmEmojiMap(await this.emoji.list(actor));
    if (want('user_status')) state.user_status = presentUserStatusMap(await this.statuses.statusesOfRealm(actor));
    if (want('reminders')) state.reminders = (await this.reminders.listReminders(actor)).map(presentReminder);
    await this.settingsSections(actor, want, capabilities.userSettingsObject === true, state);
    if (want('custom_profile_fields')) {
      state.custom_profile_fields = (await this.profileFields.list(actor.realmId)).map(presentCustomProfileField);
      state.custom_profile_field_types = presentCustomProfileFieldTypes();
    }
    if (want('alert_words')) state.alert_words = await this.alertWords.listAlertWords(actor);
    if (want('muted_users')) state.muted_users = await this.mutedUsers.listMutedUsers(actor);
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
    realm: RealmRecord,
    settings: Record<string, GroupSettingValue>,
    clientGravatar: boolean,
  ) {
    const all = await this.users.list(actor.realmId);
    const me = all.find((u) => u.id === actor.userId)!;
    const values = await this.profileFields.valuesOfRealm(actor.realmId);
    const viewer = { id: actor.userId, role: actor.role };
    const strip = (u: (typeof all)[number], withProfile = true) => {
      const profileData = withProfile ? presentProfileData(values.get(u.id) ?? []) : undefined;
      const { is_active: _, ...rest } = presentUser(u, { clientGravatar, viewer, profileData });
      return rest;
    };
    const groupIds = await this.uow.run((tx) => tx.groups.groupIdsOfUser(actor.userId));
    const holds = (s: string) => holdsGroupSetting(settings[s], actor.userId, groupIds);
    const canPublic = holds('can_create_public_channel_group');
    const canPrivate = holds('can_create_private_channel_group');
    const canWebPublic =
      this.config.webPublicStreamsEnabled && realm.enableSpectatorAccess && holds('can_create_web_public_channel_group');
    const systemBots = await this.users.systemBots(actor.realmId);
    return {
      realm_users: all.filter((u) => u.isActive).map((u) => strip(u)),
      realm_non_active_users: all.filter((u) => !u.isActive).map((u) => strip(u)),
      cross_realm_bots: systemBots.map((u) => strip(u, false)),
      avatar_source: 'G',
      avatar_url_medium: gravatarUrl(me.deliveryEmail, me.avatarVersion),
      avatar_url: gravatarUrl(me.deliveryEmail, me.avatarVersion),
      can_create_private_streams: canPrivate,
      can_create_public_streams: canPublic,
      can_create_web_public_streams: canWebPublic,
      can_create_streams: canPublic || canPrivate || canWebPublic,
      can_invite_others_to_realm: holds('can_invite_users_group'),
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
