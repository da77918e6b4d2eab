import {
  channelSettingValue,
  EditHistoryVisibility,
  EMPTY_TOPIC_DISPLAY_NAME,
  LIMITS,
  REALM_GROUP_SETTING_NAMES,
  RealmTopicsPolicy,
} from '@app/domain/realm';
import { REPORT_MESSAGE_TYPES, serverThumbnailFormats, uploadQuotaMib } from '@app/domain/messages';
import { paragraphHtml } from '@app/domain/shared';
import type { GroupSettingValue } from '@app/domain/users';
import { type RealmRecord, realmImageFields } from '../../realm/index.js';
import { authenticationMethods, brandedRealmFields } from '../../server/index.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';
import type { ServerConfig } from '../../shared/config/server-config.js';
import { unixSeconds } from '../../users/index.js';

const SERVER_GENERATION = Math.floor(Date.now() / 1000);

const nameOf = <T extends Record<string, number>>(table: T, value: number): string =>
  Object.entries(table).find(([, v]) => v === value)?.[0] ?? String(value);

/** The `realm` section of POST /register: the organization's settings, then the server's. */
export function realmSection(realm: RealmRecord, settings: Record<string, GroupSettingValue>, config: ServerConfig) {
  return {
    ...organizationSettings(realm, config),
    ...Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((s) => [`realm_${s}`, presentGroupSetting(settings[s])])),
    ...accessAndPolicies(realm),
    ...brandingAndUrls(realm, config),
    ...serverSettings(realm, config),
    ...limitsAndTopics(realm),
  };
}

function organizationSettings(realm: RealmRecord, config: ServerConfig) {
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
    realm_enable_read_receipts: realm.enableReadReceipts,
    realm_enable_spectator_access: realm.enableSpectatorAccess,
    realm_gif_rating_policy: 2,
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
    realm_push_notifications_enabled: config.pushConfigured,
    realm_require_e2ee_push_notifications: false,
    realm_require_unique_names: realm.requireUniqueNames,
    realm_send_welcome_emails: realm.sendWelcomeEmails,
    realm_send_channel_events_messages: realm.sendChannelEventsMessages,
    realm_video_chat_provider: 1,
    realm_waiting_period_threshold: realm.waitingPeriodThreshold,
    realm_want_advertise_in_communities_directory: false,
    realm_welcome_message_custom_text: '',
    realm_default_avatar_source: 'G', // Gravatar: the only default avatar this server makes
    realm_uuid: realm.uuid,
  };
}

function accessAndPolicies(realm: RealmRecord) {
  return {
    realm_owner_full_content_access: false,
    realm_authentication_methods: Object.fromEntries(
      Object.entries(authenticationMethods(realm)).map(([k, on]) => [k, { enabled: on, available: on }]),
    ),
    realm_presence_disabled: realm.presenceDisabled,
  };
}

function brandingAndUrls(realm: RealmRecord, config: ServerConfig) {
  const url = config.realmUrl(realm.stringId);
  return {
    max_avatar_file_size_mib: LIMITS.maxAvatarFileSizeMib,
    max_file_upload_size_mib: config.maxFileUploadSizeMib,
    max_icon_file_size_mib: LIMITS.maxIconFileSizeMib,
    realm_upload_quota_mib: uploadQuotaMib(realm.customUploadQuotaGb),
    ...realmImageFields(realm),
    max_logo_file_size_mib: LIMITS.maxLogoFileSizeMib,
    realm_url: url,
    realm_uri: url,
    realm_bot_domain: config.botDomainFor(realm.stringId),
    realm_available_video_chat_providers: {},
    settings_send_digest_emails: false,
  };
}

function serverSettings(realm: RealmRecord, config: ServerConfig) {
  return {
    realm_email_auth_enabled: realm.passwordAuthEnabled,
    realm_password_auth_enabled: realm.passwordAuthEnabled,
    server_generation: SERVER_GENERATION,
    development_environment: false,
    realm_org_type: realm.orgType,
    realm_plan_type: realm.planType,
    ...brandedRealmFields(config, { planIsNotLimited: true, updateAnnouncementsStreamId: channelSettingValue(realm.updateAnnouncementsStreamId) }),
    upgrade_text_for_wide_organization_logo: '',
    realm_push_notifications_enabled_end_timestamp: null,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 10000,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_thumbnail_formats: serverThumbnailFormats(),
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_web_public_streams_enabled: config.webPublicStreamsEnabled,
    gif_rating_policy_options: {},
    server_emoji_data_url: '',
    server_needs_upgrade: false,
    event_queue_longpoll_timeout_seconds: 90,
    realm_default_external_accounts: {},
    server_jitsi_server_url: null,
    jitsi_server_url: null,
    server_can_summarize_topics: false,
    realm_moderation_request_channel_id: channelSettingValue(realm.moderationRequestChannelId),
    realm_new_stream_announcements_stream_id: channelSettingValue(realm.newStreamAnnouncementsStreamId),
    realm_signup_announcements_stream_id: channelSettingValue(realm.signupAnnouncementsStreamId),
  };
}

function limitsAndTopics(realm: RealmRecord) {
  const topicsPolicy = nameOf(RealmTopicsPolicy, realm.topicsPolicy);
  const historyPolicy = nameOf(EditHistoryVisibility, realm.messageEditHistoryVisibilityPolicy);
  return {
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    max_bulk_new_subscription_messages: LIMITS.maxBulkNewSubscriptionMessages,
    max_topic_length: LIMITS.maxTopicLength,
    max_message_length: LIMITS.maxMessageLength,
    max_channel_folder_name_length: LIMITS.maxChannelFolderNameLength,
    max_channel_folder_description_length: LIMITS.maxChannelFolderDescriptionLength,
    max_reminder_note_length: LIMITS.maxReminderNoteLength,
    realm_date_created: unixSeconds(realm.dateCreated),
    server_report_message_types: Object.entries(REPORT_MESSAGE_TYPES).map(([key, name]) => ({ key, name })),
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
