import {
  EditHistoryVisibility,
  EMPTY_TOPIC_DISPLAY_NAME,
  LIMITS,
  REALM_GROUP_SETTING_NAMES,
  RealmTopicsPolicy,
} from '@app/domain/realm';
import { type Actor, type GroupSettingValue, holdsGroupSetting, isAdmin, isGuest, isOwner, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { RealmQueries, type RealmRecord } from '../../realm/application/realm.ports.js';
import { authenticationMethods, realmIconUrl, versionFields } from '../../server/application/server-info.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { presentGroupSetting } from '../../shared/http/group-setting.decoders.js';
import { paragraphHtml } from '../../shared/http/html.js';
import { presentDomain, presentLinkifier, presentPlayground } from '../../realm/http/realm-resources.presenter.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { RealmEmojiService } from '../../emoji/application/realm-emoji.service.js';
import { RemindersService } from '../../drafts/application/reminders.service.js';
import { presentReminder } from '../../drafts/http/draft.presenter.js';
import { presentRealmEmojiMap } from '../../emoji/http/realm-emoji.presenter.js';
import { UserStatusService } from '../../users/application/user-status.service.js';
import { UserQueries } from '../../users/application/user.ports.js';
import { presentUserStatusMap } from '../../users/http/user-status.presenter.js';
import { gravatarUrl, presentUser, presentUserGroup, unixSeconds } from '../../users/http/user.presenter.js';

const SERVER_GENERATION = Math.floor(Date.now() / 1000);

const nameOf = <T extends Record<string, number>>(table: T, value: number): string =>
  Object.entries(table).find(([, v]) => v === value)?.[0] ?? String(value);

/** The sections POST /register can return today; the others arrive with their modules. */
export const FETCHABLE = [
  'realm',
  'realm_user',
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
  'default_streams',
] as const;

/** Client capabilities (the `client_capabilities` object of POST /register) that change the initial state. */
export interface ClientCapabilities {
  linkifierUrlTemplate: boolean;
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
  ) {}

  async initialState(
    actor: Actor,
    want: (section: string) => boolean,
    clientGravatar: boolean,
    capabilities: ClientCapabilities = { linkifierUrlTemplate: false },
  ) {
    const realm = await this.realms.get(actor.realmId);
    const state: Record<string, unknown> = { ...versionFields() };
    const settings = await this.realms.groupSettings(actor.realmId);
    if (want('realm')) Object.assign(state, this.realmBundle(realm, settings));
    if (want('realm_user')) Object.assign(state, await this.realmUserSection(actor, realm, settings, clientGravatar));
    if (want('realm_user_groups')) {
      const groups = await this.users.listGroups(actor.realmId, false);
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
    return state;
  }

  private realmBundle(realm: RealmRecord, settings: Record<string, GroupSettingValue>) {
    const topicsPolicy = nameOf(RealmTopicsPolicy, realm.topicsPolicy);
    const historyPolicy = nameOf(EditHistoryVisibility, realm.messageEditHistoryVisibilityPolicy);
    const url = this.config.realmUrl(realm.stringId);
    return {
      realm_allow_message_editing: realm.allowMessageEditing,
      realm_avatar_changes_disabled: realm.avatarChangesDisabled,
      realm_default_code_block_language: '',
      realm_default_language: realm.defaultLanguage,
      realm_description: paragraphHtml(realm.description),
      realm_digest_emails_enabled: false,
      realm_digest_weekday: 1,
      realm_disallow_disposable_email_addresses: realm.disallowDisposableEmailAddresses,
      realm_email_changes_disabled: realm.emailChangesDisabled,
      realm_emails_restricted_to_domains: realm.emailsRestrictedToDomains,
      realm_enable_guest_user_dm_warning: true,
      realm_enable_guest_user_indicator: true,
      realm_enable_read_receipts: false,
      realm_enable_spectator_access: realm.enableSpectatorAccess,
      realm_giphy_rating: 2,
      realm_inline_image_preview: true,
      realm_inline_url_embed_preview: false,
      realm_invite_required: realm.inviteRequired,
      realm_jitsi_server_url: null,
      realm_message_content_allowed_in_email_notifications: true,
      realm_message_content_edit_limit_seconds: realm.messageContentEditLimitSeconds,
      realm_message_content_delete_limit_seconds: realm.messageContentDeleteLimitSeconds,
      realm_move_messages_between_streams_limit_seconds: realm.moveMessagesBetweenStreamsLimitSeconds,
      realm_move_messages_within_stream_limit_seconds: realm.moveMessagesWithinStreamLimitSeconds,
      realm_message_retention_days: realm.messageRetentionDays,
      realm_name: realm.name,
      realm_name_changes_disabled: realm.nameChangesDisabled,
      realm_push_notifications_enabled: this.config.pushConfigured,
      realm_require_e2ee_push_notifications: false,
      realm_require_unique_names: realm.requireUniqueNames,
      realm_send_channel_events_messages: true,
      realm_send_welcome_emails: realm.sendWelcomeEmails,
      realm_video_chat_provider: 1,
      realm_waiting_period_threshold: realm.waitingPeriodThreshold,
      realm_want_advertise_in_communities_directory: false,
      realm_welcome_message_custom_text: '',
      ...Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((s) => [`realm_${s}`, presentGroupSetting(settings[s])])),
      realm_owner_full_content_access: false,
      realm_authentication_methods: Object.fromEntries(
        Object.entries(authenticationMethods(realm)).map(([k, on]) => [k, { enabled: on, available: on }]),
      ),
      realm_presence_disabled: realm.presenceDisabled,
      max_avatar_file_size_mib: LIMITS.maxAvatarFileSizeMib,
      max_file_upload_size_mib: LIMITS.maxFileUploadSizeMib,
      max_icon_file_size_mib: LIMITS.maxIconFileSizeMib,
      realm_upload_quota_mib: null,
      realm_icon_url: realmIconUrl(realm),
      realm_icon_source: 'G',
      realm_logo_url: '',
      realm_logo_source: 'D',
      realm_night_logo_url: '',
      realm_night_logo_source: 'D',
      max_logo_file_size_mib: LIMITS.maxLogoFileSizeMib,
      realm_url: url,
      realm_uri: url,
      realm_bot_domain: this.config.botDomainFor(realm.stringId),
      realm_available_video_chat_providers: {},
      settings_send_digest_emails: false,
      realm_email_auth_enabled: realm.passwordAuthEnabled,
      realm_password_auth_enabled: realm.passwordAuthEnabled,
      server_generation: SERVER_GENERATION,
      development_environment: false,
      realm_org_type: realm.orgType,
      realm_plan_type: realm.planType,
      svc_plan_is_not_limited: true,
      upgrade_text_for_wide_organization_logo: '',
      realm_push_notifications_enabled_end_timestamp: null,
      password_min_length: 6,
      password_max_length: 100,
      password_min_guesses: 10000,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      server_thumbnail_formats: [],
      server_avatar_changes_disabled: false,
      server_name_changes_disabled: false,
      server_web_public_streams_enabled: this.config.webPublicStreamsEnabled,
      giphy_rating_options: {},
      server_emoji_data_url: '',
      server_needs_upgrade: false,
      event_queue_longpoll_timeout_seconds: 90,
      realm_default_external_accounts: {},
      server_jitsi_server_url: null,
      jitsi_server_url: null,
      server_can_summarize_topics: false,
      realm_moderation_request_channel_id: -1,
      realm_new_stream_announcements_stream_id: -1,
      realm_signup_announcements_stream_id: -1,
      realm_svc_update_announcements_stream_id: -1,
      max_stream_name_length: LIMITS.maxStreamNameLength,
      max_stream_description_length: LIMITS.maxStreamDescriptionLength,
      max_bulk_new_subscription_messages: LIMITS.maxBulkNewSubscriptionMessages,
      max_topic_length: LIMITS.maxTopicLength,
      max_message_length: LIMITS.maxMessageLength,
      max_channel_folder_name_length: LIMITS.maxChannelFolderNameLength,
      max_channel_folder_description_length: LIMITS.maxChannelFolderDescriptionLength,
      max_reminder_note_length: LIMITS.maxReminderNoteLength,
      realm_date_created: unixSeconds(realm.dateCreated),
      server_report_message_types: [],
      server_presence_ping_interval_seconds: 60,
      server_presence_offline_threshold_seconds: 200,
      server_typing_started_expiry_period_milliseconds: 45000,
      server_typing_stopped_wait_period_milliseconds: 12000,
      server_typing_started_wait_period_milliseconds: 30000,
      server_supported_permission_settings: {},
      server_min_deactivated_realm_deletion_days: 14,
      server_max_deactivated_realm_deletion_days: null,
      realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
      realm_allow_edit_history: historyPolicy !== 'none',
      realm_message_edit_history_visibility_policy: historyPolicy,
      realm_topics_policy: topicsPolicy,
      realm_mandatory_topics: topicsPolicy === 'disable_empty_topic',
    };
  }

  private async realmUserSection(
    actor: Actor,
    realm: RealmRecord,
    settings: Record<string, GroupSettingValue>,
    clientGravatar: boolean,
  ) {
    const all = await this.users.list(actor.realmId);
    const me = all.find((u) => u.id === actor.userId)!;
    const strip = (u: (typeof all)[number]) => {
      const { is_active: _, ...rest } = presentUser(u, { clientGravatar });
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
      realm_users: all.filter((u) => u.isActive).map(strip),
      realm_non_active_users: all.filter((u) => !u.isActive).map(strip),
      cross_realm_bots: systemBots.map(strip),
      avatar_source: 'G',
      avatar_url_medium: gravatarUrl(me.email, me.avatarVersion),
      avatar_url: gravatarUrl(me.email, me.avatarVersion),
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
