import { badRequest } from '../shared/domain-error.js';
import { isAvailableLanguage } from './languages.js';
import { isKnownTimezone } from './timezones.js';

/**
 * A user's personal settings: Zulip's UserBaseSettings.property_types at feature level 472,
 * plus `timezone` (a profile field Zulip changes through the same endpoint and event).
 *
 * The keys are Zulip's setting names: they are the wire protocol's identifiers (parameter,
 * event `property`, register key and column name), so the catalogue keeps them as they are.
 */
export type SettingKind = 'bool' | 'int' | 'str';

/** Which legacy event (and register block) carries a setting for clients without user_settings_object. */
export type LegacyGroup = 'display' | 'notification' | null;

export interface SettingSpec {
  readonly kind: SettingKind;
  readonly default: boolean | number | string;
  /** Allowed values (`Invalid <name>` otherwise). */
  readonly choices?: readonly (number | string)[];
  readonly legacy: LegacyGroup;
  /** Organization administrators may not change it for other users (target_users). */
  readonly securitySensitive?: true;
}

const bool = (d: boolean, legacy: LegacyGroup = null, securitySensitive?: true): SettingSpec => ({ kind: 'bool', default: d, legacy, securitySensitive });
const int = (d: number, choices?: readonly number[], legacy: LegacyGroup = null): SettingSpec => ({ kind: 'int', default: d, choices, legacy });
const str = (d: string, choices?: readonly string[], legacy: LegacyGroup = null): SettingSpec => ({ kind: 'str', default: d, choices, legacy });

const TOPIC_VISIBILITY_POLICIES = [1, 2, 3, 4] as const;
export const EMAIL_ADDRESS_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;
export const EMOJISETS = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
] as const;
/** Zulip's ResolvedTopicNoticeAutoReadPolicyEnum: stored as its value, shown as its name. */
export const RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES = ['always', 'except_followed', 'never'] as const;
export type ResolvedTopicNoticeAutoReadPolicy = (typeof RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES)[number];

/** The .ogg files of Zulip's static/audio/notification_sounds, sorted as Python sorts them. */
export const NOTIFICATION_SOUNDS: readonly string[] = [
  'ascend', 'beep_boop', 'bink', 'bright', 'brlip', 'chime', 'deep tom', 'ding', 'double tap', 'down', 'dry bongos',
  'dutdut', 'fast ascend', 'flute', 'friendly', 'kick roll', 'loud tintong', 'metallic snare', 'pan', 'practicechat',
  'shaker', 'simple', 'stairs', 'subtle', 'swish', 'tintong', 'up', 'wood block', 'zaping', 'zing', 'zulip',
];

/** Every setting, in Zulip's parameter order (alphabetical but for hide_ai_features), which is also the order changes are applied in. */
export const USER_SETTINGS = {
  allow_private_data_export: bool(false, null, true),
  automatically_follow_topics_policy: int(3, TOPIC_VISIBILITY_POLICIES),
  automatically_follow_topics_where_mentioned: bool(true),
  automatically_unmute_topics_in_muted_streams_policy: int(2, TOPIC_VISIBILITY_POLICIES),
  color_scheme: int(1, [1, 2, 3], 'display'),
  default_language: str('en', undefined, 'display'),
  demote_inactive_streams: int(1, [1, 2, 3], 'display'),
  desktop_icon_count_display: int(1, [1, 3, 2, 4], 'notification'),
  display_emoji_reaction_users: bool(true),
  email_address_visibility: { ...int(1, [1, 2, 5, 3, 4]), securitySensitive: true },
  email_notifications_batching_period_seconds: int(120, undefined, 'notification'),
  emojiset: str('google', EMOJISETS.map((e) => e.key), 'display'),
  enable_desktop_notifications: bool(true, 'notification'),
  enable_digest_emails: bool(true, 'notification', true),
  enable_drafts_synchronization: bool(true, 'display'),
  enable_followed_topic_audible_notifications: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  enable_login_emails: bool(true, 'notification', true),
  enable_marketing_emails: bool(true, 'notification', true),
  enable_offline_email_notifications: bool(true, 'notification'),
  enable_offline_push_notifications: bool(true, 'notification'),
  enable_online_push_notifications: bool(true, 'notification'),
  enable_sounds: bool(true, 'notification'),
  enable_stream_audible_notifications: bool(false, 'notification'),
  enable_stream_desktop_notifications: bool(false, 'notification'),
  enable_stream_email_notifications: bool(false, 'notification'),
  enable_stream_push_notifications: bool(false, 'notification'),
  enter_sends: bool(false, 'display'),
  fluid_layout_width: bool(false, 'display'),
  high_contrast_mode: bool(false, 'display'),
  hide_ai_features: bool(false),
  left_side_userlist: bool(false, 'display'),
  message_content_in_email_notifications: bool(true, 'notification'),
  notification_sound: str('zulip', undefined, 'notification'),
  pm_content_in_desktop_notifications: bool(true, 'notification'),
  presence_enabled: bool(true, 'notification', true),
  realm_name_in_email_notifications_policy: int(1, [1, 2, 3], 'notification'),
  receives_typing_notifications: bool(true),
  resolved_topic_notice_auto_read_policy: str('except_followed', RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES),
  send_private_typing_notifications: bool(true, null, true),
  send_read_receipts: bool(true, null, true),
  send_stream_typing_notifications: bool(true, null, true),
  starred_message_counts: bool(true, 'display'),
  translate_emoticons: bool(false, 'display'),
  twenty_four_hour_time: bool(false, 'display'),
  user_list_style: int(3, [1, 2, 3]),
  web_animate_image_previews: str('on_hover', ['always', 'on_hover', 'never']),
  web_channel_default_view: int(1, [1, 3, 2, 4]),
  web_escape_navigates_to_home_view: bool(true),
  web_font_size_px: int(16),
  web_home_view: str('inbox', ['recent', 'inbox', 'all_messages'], 'display'),
  web_inbox_show_channel_folders: bool(true),
  web_left_sidebar_show_channel_folders: bool(true),
  web_left_sidebar_unreads_count_summary: bool(true),
  web_line_height_percent: int(140),
  web_mark_read_on_scroll_policy: int(1, [1, 2, 3]),
  web_navigate_to_sent_message: bool(true),
  web_stream_unreads_count_display_policy: int(2, [1, 2, 3]),
  web_suggest_update_timezone: bool(true),
  wildcard_mentions_notify: bool(true, 'notification'),
} as const satisfies Record<string, SettingSpec>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export type UserSettingValue = boolean | number | string;
/** A user's settings; `timezone` included ('' when unset). */
export type UserSettings = { [K in UserSettingName]: UserSettingValue } & { timezone: string };
export type ChangeableSetting = UserSettingName | 'timezone';

export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];

export function isUserSettingName(name: string): name is UserSettingName {
  return Object.prototype.hasOwnProperty.call(USER_SETTINGS, name);
}

/** The settings of a new account: Zulip's model defaults, the organization's language. */
export function defaultUserSettings(defaultLanguage = 'en'): UserSettings {
  const out = Object.fromEntries(USER_SETTING_NAMES.map((n) => [n, USER_SETTINGS[n].default])) as UserSettings;
  return { ...out, default_language: defaultLanguage, timezone: '' };
}

export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

/**
 * Zulip's check_settings_values: the checks typed parameters cannot express, in its order
 * (language, sound, batching period), then the time zone (a parameter validator in Zulip).
 */
export function checkSettingValues(requested: Partial<Record<ChangeableSetting, UserSettingValue>>): void {
  const { default_language: language, notification_sound: sound } = requested;
  const period = requested.email_notifications_batching_period_seconds;
  if (language !== undefined && !isAvailableLanguage(String(language))) throw badRequest('Invalid default_language');
  if (sound !== undefined && sound !== 'none' && !NOTIFICATION_SOUNDS.includes(String(sound))) {
    throw badRequest(`Invalid notification sound '${String(sound)}'`);
  }
  if (period !== undefined && (Number(period) <= 0 || Number(period) > MAX_EMAIL_BATCHING_PERIOD_SECONDS)) {
    throw badRequest(`Invalid email batching period: ${String(period)} seconds`);
  }
}

/** Zulip's timezone_validator (a parameter check, so it precedes everything else). */
export function checkTimezone(name: string): string {
  if (!isKnownTimezone(name)) throw badRequest('Invalid timezone: Value error, Not a recognized time zone');
  return name;
}

export interface SettingChange {
  readonly name: ChangeableSetting;
  readonly value: UserSettingValue;
}

/**
 * The settings a request really changes, in the order Zulip applies them: the property
 * settings in parameter order, then the time zone. Unchanged values are left out.
 */
export function settingChanges(current: UserSettings, requested: Partial<Record<ChangeableSetting, UserSettingValue>>): SettingChange[] {
  const changes: SettingChange[] = [];
  for (const name of USER_SETTING_NAMES) {
    const value = requested[name];
    if (value !== undefined && current[name] !== value) changes.push({ name, value });
  }
  if (requested.timezone !== undefined && current.timezone !== requested.timezone) {
    changes.push({ name: 'timezone', value: requested.timezone });
  }
  return changes;
}

/** target_users: settings administrators may not change for others, and the fields they may never touch. */
export function assertChangeableForOthers(names: readonly string[]): void {
  const forbidden = names.some(
    (n) => n === 'email' || n === 'new_password' || n === 'timezone' || (isUserSettingName(n) && USER_SETTINGS[n].securitySensitive === true),
  );
  if (forbidden) throw badRequest('Cannot change this setting for other users.');
}

/** The store's value of `resolved_topic_notice_auto_read_policy` (Zulip's enum value). */
export const resolvedTopicPolicyValue = (name: string): number => RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES.indexOf(name as ResolvedTopicNoticeAutoReadPolicy) + 1;
export const resolvedTopicPolicyName = (value: number): ResolvedTopicNoticeAutoReadPolicy => RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES[value - 1];
