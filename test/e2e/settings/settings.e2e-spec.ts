import pg from 'pg';
import { INVALID_DISPLAY_AND_NOTIFICATION_SETTINGS } from '../../support/settings-cases.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let db: pg.Client;
let admin: Account;
let member: Account;
let watcher: Account;
let bot: Account;

const MODERN = { client_capabilities: { notification_settings_null: false, user_settings_object: true } };
const LEGACY = { client_capabilities: { notification_settings_null: false } };

beforeAll(async () => {
  t = await TestApp.start();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  member = await t.createUser({ fullName: 'Member' });
  watcher = await t.createUser({ fullName: 'Watcher' });
  bot = await t.createBot(member, 'helper');
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const patch = (as: Account, form: Record<string, unknown>) => t.patch('settings', { as, form });
const settingsOf = async (as: Account) =>
  (await t.post('register', { as, form: { fetch_event_types: ['user_settings'], ...MODERN } })).body.user_settings as Record<string, unknown>;
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
const userSettingsUpdate = (property: string, value: unknown) => ({ type: 'user_settings', op: 'update', property, value });

describe('PATCH /settings: personal settings', () => {
  it('changes settings of every kind and tells only the user’s queues, with legacy events for clients that want them', async () => {
    const modern = await EventClient.register(t, member, MODERN);
    const legacy = await EventClient.register(t, member, LEGACY);
    const other = await EventClient.register(t, watcher, MODERN);
    const res = await patch(member, {
      web_home_view: 'recent',
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'text',
      enable_sounds: false,
      resolved_topic_notice_auto_read_policy: 'never',
      send_read_receipts: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const expected = [
      userSettingsUpdate('color_scheme', 2),
      userSettingsUpdate('emojiset', 'text'),
      userSettingsUpdate('enable_sounds', false),
      userSettingsUpdate('resolved_topic_notice_auto_read_policy', 'never'),
      userSettingsUpdate('send_read_receipts', false),
      userSettingsUpdate('twenty_four_hour_time', true),
      userSettingsUpdate('web_home_view', 'recent'),
    ];
    expect(strip(await modern.next())).toEqual(expected);
    const display = (setting_name: string, setting: unknown) => ({ type: 'update_display_settings', user: member.email, setting_name, setting });
    expect(strip(await legacy.next())).toEqual([
      expected[0],
      display('color_scheme', 2),
      expected[1],
      display('emojiset', 'text'),
      expected[2],
      { type: 'update_global_notifications', user: member.email, notification_name: 'enable_sounds', setting: false },
      expected[3],
      expected[4],
      expected[5],
      display('twenty_four_hour_time', true),
      expected[6],
      display('web_home_view', 'recent'),
    ]);
    expect(await other.drain()).toEqual([]);
    expect(await settingsOf(member)).toMatchObject({
      web_home_view: 'recent',
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'text',
      enable_sounds: false,
      resolved_topic_notice_auto_read_policy: 'never',
      send_read_receipts: false,
    });
  });

  it('sends nothing for values that do not change, and lists the parameters it does not know', async () => {
    const queue = await EventClient.register(t, member, MODERN);
    const res = await patch(member, { color_scheme: 2, dense_mode: true, bogus: 'x' });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['bogus', 'dense_mode'] });
    expect(await queue.drain()).toEqual([]);
  });

  it('names the new language in both events', async () => {
    const modern = await EventClient.register(t, member, MODERN);
    const legacy = await EventClient.register(t, member, LEGACY);
    expectSuccess(await patch(member, { default_language: 'de' }));
    expect(strip(await modern.next())).toEqual([{ ...userSettingsUpdate('default_language', 'de'), language_name: 'Deutsch' }]);
    expect(strip(await legacy.next())).toEqual([
      { ...userSettingsUpdate('default_language', 'de'), language_name: 'Deutsch' },
      { type: 'update_display_settings', user: member.email, setting_name: 'default_language', setting: 'de', language_name: 'Deutsch' },
    ]);
    expect((await settingsOf(member)).default_language).toBe('de');
  });

  it('tells everyone a new time zone, and the user their setting', async () => {
    const own = await EventClient.register(t, member, LEGACY);
    const other = await EventClient.register(t, watcher, MODERN);
    expectSuccess(await patch(member, { timezone: 'Asia/Kolkata' }));
    expect(strip(await own.next())).toEqual([
      userSettingsUpdate('timezone', 'Asia/Kolkata'),
      { type: 'update_display_settings', user: member.email, setting_name: 'timezone', setting: 'Asia/Kolkata' },
      { type: 'realm_user', op: 'update', person: { email: member.email, user_id: member.id, timezone: 'Asia/Kolkata' } },
    ]);
    expect(strip(await other.next())).toEqual([
      { type: 'realm_user', op: 'update', person: { email: member.email, user_id: member.id, timezone: 'Asia/Kolkata' } },
    ]);
    expect((await t.get(`users/${member.id}`, { as: watcher })).body.user.timezone).toBe('Asia/Kolkata');
    expectSuccess(await patch(member, { timezone: 'US/Pacific' }));
    expect((await settingsOf(member)).timezone).toBe('US/Pacific');
  });

  it('keeps the deprecated /settings/display and /settings/notifications aliases', async () => {
    expectSuccess(await t.patch('settings/display', { as: member, form: { left_side_userlist: true } }));
    expectSuccess(await t.patch('settings/notifications', { as: member, form: { enable_digest_emails: false } }));
    expect(await settingsOf(member)).toMatchObject({ left_side_userlist: true, enable_digest_emails: false });
  });

  it.each([
    ...INVALID_DISPLAY_AND_NOTIFICATION_SETTINGS,
    [{ twenty_four_hour_time: 'yes' }, 'twenty_four_hour_time is not valid JSON'],
    [{ twenty_four_hour_time: 1 }, 'twenty_four_hour_time is not a boolean'],
    [{ web_channel_default_view: 5 }, 'Invalid web_channel_default_view'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'Invalid timezone: Value error, Not a recognized time zone'],
    [{ timezone: 'america/new_york' }, 'Invalid timezone: Value error, Not a recognized time zone'],
    [{ target_users: '[1]' }, 'target_users is not a dict'],
    // The first bad parameter in Zulip's (alphabetical) order wins; value checks come after parsing.
    [{ web_home_view: 'x', color_scheme: 9 }, 'Invalid color_scheme'],
    [{ notification_sound: 'x', default_language: 'xx', enable_sounds: false }, 'Invalid default_language'],
    [{ enable_sounds: true, timezone: 'Nowhere/Else' }, 'Invalid timezone: Value error, Not a recognized time zone'],
  ])('refuses %j: %s, changing nothing', async (form, msg) => {
    const before = await settingsOf(member);
    expectError(await patch(member, form), 400, msg);
    expect(await settingsOf(member)).toEqual(before);
  });

  it('is for humans only, before any parameter is read', async () => {
    expectError(await patch(bot, { color_scheme: 4 }), 400, 'This endpoint does not accept bot requests.');
  });

  it('stores presence_enabled and the privacy settings', async () => {
    const legacy = await EventClient.register(t, watcher, LEGACY);
    expectSuccess(await patch(watcher, { presence_enabled: false, allow_private_data_export: true, send_private_typing_notifications: false }));
    expect(strip(await legacy.next())).toEqual([
      userSettingsUpdate('allow_private_data_export', true),
      userSettingsUpdate('presence_enabled', false),
      { type: 'update_global_notifications', user: watcher.email, notification_name: 'presence_enabled', setting: false },
      // Zulip's do_change_user_setting then updates the user's presence (the presence context).
      expect.objectContaining({ type: 'presence', user_id: watcher.id, email: watcher.email }),
      userSettingsUpdate('send_private_typing_notifications', false),
    ]);
    const row = (await db.query('SELECT presence_enabled FROM users WHERE id = $1', [watcher.id])).rows[0];
    expect(row.presence_enabled).toBe(false);
    expectSuccess(await patch(watcher, { presence_enabled: true }));
  });
});

describe('PATCH /settings: full_name', () => {
  it('renames the user and tells everyone', async () => {
    const u = await t.createUser({ fullName: 'Before' });
    const other = await EventClient.register(t, watcher, MODERN);
    expectSuccess(await patch(u, { full_name: '  After Rename ' }));
    expect(strip(await other.next())).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: u.id, full_name: 'After Rename' } }]);
    expect((await t.get('users/me', { as: u })).body.full_name).toBe('After Rename');
  });

  it.each([
    ['Bad*Name', 'Invalid characters in name!'],
    ['x'.repeat(101), 'Name too long!'],
    ['iago|72', 'Invalid format!'],
  ])('refuses %j: %s', async (name, msg) => {
    expectError(await patch(member, { full_name: name }), 400, msg);
    expect((await t.get('users/me', { as: member })).body.full_name).toBe('Member');
  });

  it('ignores name changes where the organization disables them, except for administrators', async () => {
    await t.sql(`UPDATE realms SET name_changes_disabled = true WHERE string_id = ''`);
    try {
      expectSuccess(await patch(member, { full_name: 'Not Allowed' }));
      expect((await t.get('users/me', { as: member })).body.full_name).toBe('Member');
      expectSuccess(await patch(admin, { full_name: 'Admin Renamed' }));
      expect((await t.get('users/me', { as: admin })).body.full_name).toBe('Admin Renamed');
    } finally {
      await t.sql(`UPDATE realms SET name_changes_disabled = false WHERE string_id = ''`);
    }
  });

  it('refuses a name someone else has where names must be unique (ignoring case)', async () => {
    await t.sql(`UPDATE realms SET require_unique_names = true WHERE string_id = ''`);
    try {
      expectError(await patch(member, { full_name: 'WATCHER' }), 400, 'Unique names required in this organization.');
      expectSuccess(await patch(member, { full_name: 'Member' }));
    } finally {
      await t.sql(`UPDATE realms SET require_unique_names = false WHERE string_id = ''`);
    }
  });
});

describe('PATCH /settings: password', () => {
  const login = (email: string, password: string) => t.post('fetch_api_key', { as: null, form: { username: email, password } });

  it('needs the old password and a strong new one', async () => {
    const old = 'An-old-but-decent-passphrase-1';
    expectSuccess(await t.post('users', { form: { email: 'pw@example.com', password: old, full_name: 'Pw' } }));
    const u = await t.login('pw@example.com', old);
    expectError(await patch(u, { new_password: 'A-brand-new-passphrase-9' }), 400, 'Wrong password!');
    expectError(await patch(u, { old_password: 'not it', new_password: 'A-brand-new-passphrase-9' }), 400, 'Wrong password!');
    expectError(await patch(u, { old_password: old, new_password: 'password' }), 400, 'New password is too weak!');
    // A later step failing leaves the password as it was: one transaction.
    expectError(await patch(u, { old_password: old, new_password: 'A-brand-new-passphrase-9', full_name: 'Bad*' }), 400, 'Invalid characters in name!');
    expect((await login('pw@example.com', old)).status).toBe(200);
    expectSuccess(await patch(u, { old_password: old, new_password: 'A-brand-new-passphrase-9' }));
    expectError(await login('pw@example.com', old), 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    expect((await login('pw@example.com', 'A-brand-new-passphrase-9')).status).toBe(200);
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  it('gives a new key; the old one stops working at once', async () => {
    const u = await t.createUser();
    const res = await t.post('users/me/api_key/regenerate', { as: u });
    expectSuccess(res);
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(res.body.api_key).not.toBe(u.apiKey);
    expectError(await t.get('users/me', { as: u }), 401, 'Invalid API key', 'UNAUTHORIZED');
    expectSuccess(await t.get('users/me', { as: { ...u, apiKey: res.body.api_key } }), { user_id: u.id });
  });

  it('works for bots too', async () => {
    const b = await t.createBot(member, 'rotator');
    const res = await t.post('users/me/api_key/regenerate', { as: b });
    expectSuccess(res);
    expectSuccess(await t.get('users/me', { as: { ...b, apiKey: res.body.api_key } }), { user_id: b.id, is_bot: true });
    expectError(await t.get('users/me', { as: b }), 401, 'Invalid API key', 'UNAUTHORIZED');
  });
});

describe('register: user_settings and the legacy keys', () => {
  it('shows a new user’s defaults in the user_settings object', async () => {
    const u = await t.createUser();
    const res = await t.post('register', { as: u, form: { fetch_event_types: ['user_settings'], ...MODERN } });
    expectSuccess(res);
    expect(res.body.user_settings).toEqual(DEFAULTS);
    expect(res.body).not.toHaveProperty('twenty_four_hour_time');
  });

  it('sends the legacy top-level settings to clients without user_settings_object', async () => {
    const u = await t.createUser();
    const res = await t.post('register', { as: u, form: LEGACY });
    const legacyDisplay = ['color_scheme', 'default_language', 'web_home_view', 'demote_inactive_streams', 'emojiset', 'enable_drafts_synchronization'];
    for (const key of [...legacyDisplay, 'enter_sends', 'timezone', 'emojiset_choices', 'enable_sounds', 'presence_enabled', 'available_notification_sounds']) {
      expect(res.body[key]).toEqual(DEFAULTS[key]);
    }
    expect(res.body).not.toHaveProperty('web_font_size_px');
    expect(res.body.user_settings).toEqual(DEFAULTS);
    const modern = await t.post('register', { as: u, form: MODERN });
    expect(modern.body).not.toHaveProperty('enter_sends');
    const only = await t.post('register', { as: u, form: { ...LEGACY, fetch_event_types: ['update_display_settings'] } });
    expect(only.body.enter_sends).toBe(false);
    expect(only.body).not.toHaveProperty('enable_sounds');
    expect(only.body).not.toHaveProperty('user_settings');
  });
});

const DEFAULTS: Record<string, unknown> = {
  allow_private_data_export: false,
  automatically_follow_topics_policy: 3,
  automatically_follow_topics_where_mentioned: true,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  color_scheme: 1,
  default_language: 'en',
  demote_inactive_streams: 1,
  desktop_icon_count_display: 1,
  display_emoji_reaction_users: true,
  email_address_visibility: 1,
  email_notifications_batching_period_seconds: 120,
  emojiset: 'google',
  enable_desktop_notifications: true,
  enable_digest_emails: true,
  enable_drafts_synchronization: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  enable_login_emails: true,
  enable_marketing_emails: true,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_sounds: true,
  enable_stream_audible_notifications: false,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enter_sends: false,
  fluid_layout_width: false,
  high_contrast_mode: false,
  hide_ai_features: false,
  left_side_userlist: false,
  message_content_in_email_notifications: true,
  notification_sound: 'zulip',
  pm_content_in_desktop_notifications: true,
  presence_enabled: true,
  realm_name_in_email_notifications_policy: 1,
  receives_typing_notifications: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
  send_private_typing_notifications: true,
  send_read_receipts: true,
  send_stream_typing_notifications: true,
  starred_message_counts: true,
  translate_emoticons: false,
  twenty_four_hour_time: false,
  user_list_style: 3,
  web_animate_image_previews: 'on_hover',
  web_channel_default_view: 1,
  web_escape_navigates_to_home_view: true,
  web_font_size_px: 16,
  web_home_view: 'inbox',
  web_inbox_show_channel_folders: true,
  web_left_sidebar_show_channel_folders: true,
  web_left_sidebar_unreads_count_summary: true,
  web_line_height_percent: 140,
  web_mark_read_on_scroll_policy: 1,
  web_navigate_to_sent_message: true,
  web_stream_unreads_count_display_policy: 2,
  web_suggest_update_timezone: true,
  wildcard_mentions_notify: true,
  emojiset_choices: [
    { key: 'google', text: 'Google' },
    { key: 'twitter', text: 'Twitter' },
    { key: 'text', text: 'Plain text' },
    { key: 'google-blob', text: 'Google blobs' },
  ],
  timezone: '',
  available_notification_sounds: [
    'ascend', 'beep_boop', 'bink', 'bright', 'brlip', 'chime', 'deep tom', 'ding', 'double tap', 'down', 'dry bongos', 'dutdut',
    'fast ascend', 'flute', 'friendly', 'kick roll', 'loud tintong', 'metallic snare', 'pan', 'practicechat', 'shaker', 'simple',
    'stairs', 'subtle', 'swish', 'tintong', 'up', 'wood block', 'zaping', 'zing', 'zulip',
  ],
};
