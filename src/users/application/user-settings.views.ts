import { EMOJISETS, NOTIFICATION_SOUNDS, USER_SETTING_NAMES, USER_SETTINGS, type UserSettings } from '@app/domain/users';

const emojisetChoices = () => EMOJISETS.map((e) => ({ key: e.key, text: e.text }));

/** POST /register's `user_settings` object (Zulip's fetch_initial_state_data). */
export function presentUserSettings(s: UserSettings): Record<string, unknown> {
  return {
    ...Object.fromEntries(USER_SETTING_NAMES.map((n) => [n, s[n]])),
    emojiset_choices: emojisetChoices(),
    timezone: s.timezone,
    available_notification_sounds: [...NOTIFICATION_SOUNDS],
  };
}

/** The top-level display settings register sends clients without the user_settings_object capability. */
export function presentLegacyDisplaySettings(s: UserSettings): Record<string, unknown> {
  return {
    ...Object.fromEntries(USER_SETTING_NAMES.filter((n) => USER_SETTINGS[n].legacy === 'display').map((n) => [n, s[n]])),
    emojiset_choices: emojisetChoices(),
    timezone: s.timezone,
  };
}

/** The top-level notification settings register sends clients without the user_settings_object capability. */
export function presentLegacyNotificationSettings(s: UserSettings): Record<string, unknown> {
  return {
    ...Object.fromEntries(USER_SETTING_NAMES.filter((n) => USER_SETTINGS[n].legacy === 'notification').map((n) => [n, s[n]])),
    available_notification_sounds: [...NOTIFICATION_SOUNDS],
  };
}
