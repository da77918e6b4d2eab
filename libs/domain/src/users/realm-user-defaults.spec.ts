import { NOT_COPIED_TO_NEW_USERS, REALM_DEFAULT_SETTING_NAMES, type RealmUserDefaults, realmDefaultChanges } from './realm-user-defaults.js';
import { defaultUserSettings, USER_SETTING_NAMES } from './user-settings.js';

const defaults = (): RealmUserDefaults => {
  const { timezone: _, ...rest } = defaultUserSettings();
  return rest;
};

describe('the organization’s defaults for new users', () => {
  it('are settable for every setting but the language, login and marketing emails and data export, alphabetically', () => {
    expect(REALM_DEFAULT_SETTING_NAMES).toHaveLength(USER_SETTING_NAMES.length - 4);
    expect(REALM_DEFAULT_SETTING_NAMES).not.toContain('default_language');
    expect(REALM_DEFAULT_SETTING_NAMES).not.toContain('enable_login_emails');
    expect(REALM_DEFAULT_SETTING_NAMES).not.toContain('enable_marketing_emails');
    expect(REALM_DEFAULT_SETTING_NAMES).not.toContain('allow_private_data_export');
    expect([...REALM_DEFAULT_SETTING_NAMES]).toEqual([...REALM_DEFAULT_SETTING_NAMES].sort());
    expect(REALM_DEFAULT_SETTING_NAMES.indexOf('hide_ai_features')).toBeLessThan(REALM_DEFAULT_SETTING_NAMES.indexOf('high_contrast_mode'));
  });

  it('reach new accounts, but for the language and login emails', () => {
    expect(NOT_COPIED_TO_NEW_USERS).toEqual(['default_language', 'enable_login_emails']);
  });

  it('change only where the value differs, in parameter order', () => {
    expect(realmDefaultChanges(defaults(), { web_home_view: 'recent', color_scheme: 1, enter_sends: true, default_language: 'de' })).toEqual([
      { name: 'enter_sends', value: true },
      { name: 'web_home_view', value: 'recent' },
    ]);
    expect(realmDefaultChanges(defaults(), { twenty_four_hour_time: false })).toEqual([]);
  });
});
