import { someSettings } from '../../test/builders.js';
import { languageName } from './languages.js';
import { isKnownTimezone } from './timezones.js';
import {
  assertChangeableForOthers,
  checkSettingValues,
  checkTimezone,
  defaultUserSettings,
  resolvedTopicPolicyName,
  resolvedTopicPolicyValue,
  settingChanges,
  USER_SETTING_NAMES,
  USER_SETTINGS,
} from './user-settings.js';

describe('the settings catalogue', () => {
  it('lists Zulip’s settings in its parameter order (alphabetical but for hide_ai_features), without the removed dense_mode', () => {
    const sorted: string[] = [...USER_SETTING_NAMES].sort();
    const zulips = sorted.filter((n) => n !== 'hide_ai_features');
    zulips.splice(zulips.indexOf('high_contrast_mode') + 1, 0, 'hide_ai_features');
    expect(USER_SETTING_NAMES).toEqual(zulips);
    expect(USER_SETTING_NAMES).toHaveLength(63);
    expect(USER_SETTING_NAMES).not.toContain('dense_mode');
  });

  it('gives a new account Zulip’s defaults and the organization’s language', () => {
    expect(defaultUserSettings('de')).toMatchObject({ default_language: 'de', timezone: '', web_home_view: 'inbox', notification_sound: 'zulip' });
  });

  it('sorts the legacy settings into Zulip’s two legacy events', () => {
    const group = (g: string) => USER_SETTING_NAMES.filter((n) => USER_SETTINGS[n].legacy === g);
    expect(group('display')).toEqual([
      'color_scheme', 'default_language', 'demote_inactive_streams', 'emojiset', 'enable_drafts_synchronization', 'enter_sends',
      'fluid_layout_width', 'high_contrast_mode', 'left_side_userlist', 'starred_message_counts', 'translate_emoticons',
      'twenty_four_hour_time', 'web_home_view',
    ]);
    expect(group('notification')).toHaveLength(20);
  });
});

describe('checkSettingValues', () => {
  it.each([
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'trumpet' }, "Invalid notification sound 'trumpet'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ notification_sound: 'x', default_language: 'xx' }, 'Invalid default_language'],
  ])('%j → %s', (requested, msg) => {
    expect(() => checkSettingValues(requested)).toThrow(msg);
  });

  it.each([[{ notification_sound: 'none' }], [{ notification_sound: 'deep tom' }], [{ email_notifications_batching_period_seconds: 604800 }], [{ default_language: 'zh-hans' }]])(
    'accepts %j',
    (requested) => {
      expect(() => checkSettingValues(requested)).not.toThrow();
    },
  );
});

describe('time zones and languages', () => {
  it.each(['America/New_York', 'UTC', 'Etc/UTC', 'US/Pacific', 'Asia/Calcutta', 'Europe/Kiev'])('knows %s', (z) => {
    expect(isKnownTimezone(z)).toBe(true);
  });
  it.each(['', 'america/new_york', 'Mars/Base', ' UTC', 'us/pacific'])('refuses %j', (z) => {
    expect(isKnownTimezone(z)).toBe(false);
    expect(() => checkTimezone(z)).toThrow('Invalid timezone: Value error, Not a recognized time zone');
  });
  it('names languages as Zulip does', () => {
    expect(languageName('de')).toBe('Deutsch');
    expect(languageName('xx')).toBe('Unknown');
  });
});

describe('settingChanges', () => {
  it('keeps only real changes, in parameter order, the time zone last', () => {
    const current = someSettings({ color_scheme: 2 });
    expect(settingChanges(current, { timezone: 'UTC', web_home_view: 'recent', color_scheme: 2, enter_sends: true })).toEqual([
      { name: 'enter_sends', value: true },
      { name: 'web_home_view', value: 'recent' },
      { name: 'timezone', value: 'UTC' },
    ]);
    expect(settingChanges(current, { color_scheme: 2, timezone: '' })).toEqual([]);
  });
});

describe('target_users restrictions', () => {
  it.each(['email', 'new_password', 'timezone', 'presence_enabled', 'email_address_visibility', 'allow_private_data_export', 'send_read_receipts'])(
    'refuses %s for others',
    (name) => {
      expect(() => assertChangeableForOthers([name])).toThrow('Cannot change this setting for other users.');
    },
  );
  it('allows display and notification preferences', () => {
    expect(() => assertChangeableForOthers(['enable_sounds', 'color_scheme', 'full_name'])).not.toThrow();
  });
});

describe('resolved_topic_notice_auto_read_policy', () => {
  it('is stored by the enum’s value and shown by its name', () => {
    expect(['always', 'except_followed', 'never'].map(resolvedTopicPolicyValue)).toEqual([1, 2, 3]);
    expect([1, 2, 3].map(resolvedTopicPolicyName)).toEqual(['always', 'except_followed', 'never']);
  });
});
