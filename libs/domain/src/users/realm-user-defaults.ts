import { type SettingChange, USER_SETTING_NAMES, type UserSettingName, type UserSettingValue } from './user-settings.js';

/**
 * The organization's defaults for new users' settings (Zulip's RealmUserDefault): one value for
 * every personal setting (the time zone is not one).
 */
export type RealmUserDefaults = { [K in UserSettingName]: UserSettingValue };

/**
 * Settings PATCH /realm/user_settings_defaults leaves alone: the language (a new account takes
 * the organization's), login and marketing emails (security, and the sign-up form decides), and
 * private data export (the user's own consent).
 */
const NOT_SETTABLE: readonly UserSettingName[] = ['allow_private_data_export', 'default_language', 'enable_login_emails', 'enable_marketing_emails'];

/** The parameters of PATCH /realm/user_settings_defaults, in Zulip's (alphabetical) order, which is also the order changes are applied in. */
export const REALM_DEFAULT_SETTING_NAMES: readonly UserSettingName[] = USER_SETTING_NAMES.filter((n) => !NOT_SETTABLE.includes(n)).sort();

/** Zulip's copy_default_settings from RealmUserDefault: every setting but these reaches a new account. */
export const NOT_COPIED_TO_NEW_USERS: readonly UserSettingName[] = ['default_language', 'enable_login_emails'];

/** The defaults a request really changes, in parameter order (unchanged values left out). */
export function realmDefaultChanges(current: RealmUserDefaults, requested: Partial<Record<UserSettingName, UserSettingValue>>): SettingChange[] {
  return REALM_DEFAULT_SETTING_NAMES.filter((n) => requested[n] !== undefined && requested[n] !== current[n]).map((n) => ({ name: n, value: requested[n]! }));
}
