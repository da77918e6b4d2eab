import { USER_SETTING_NAMES } from '@app/domain/users';
import { createChannels } from '../../support/channels.js';
import { INVALID_DISPLAY_AND_NOTIFICATION_SETTINGS } from '../../support/settings-cases.js';
import { EventClient } from '../../support/events.js';
import { json, someToken } from '../../support/sessions.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * PATCH /realm/user_settings_defaults (issue 25): the organization's defaults for new users'
 * settings (Zulip's RealmUserDefault), register's realm_user_settings_defaults, its update
 * events, and the defaults reaching people who join afterwards (POST /users, invitations), but
 * not bots.
 */
let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let n = 0;

const MODERN = { client_capabilities: { notification_settings_null: false, user_settings_object: true } };
const ADMIN = 'Must be an organization administrator';

beforeAll(async () => {
  t = await TestApp.start({ WEB_PUBLIC_STREAMS_ENABLED: 'true' });
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  moderator = await t.createUser({ role: 300, fullName: 'Moderator' });
  member = await t.createUser({ fullName: 'Member' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(member, 'defaultsbot');
  otherOwner = await t.createOrganization('defaultsother');
});
afterAll(() => t.close());

const patch = (form: Record<string, unknown>, as: Account = admin) => t.patch('realm/user_settings_defaults', { as, form });
const defaultsOf = async (as: Account = member) =>
  (await t.post('register', { as, form: { fetch_event_types: ['realm_user_settings_defaults'] } })).body.realm_user_settings_defaults as Record<string, unknown>;
const settingsOf = async (as: Account) =>
  (await t.post('register', { as, form: { fetch_event_types: ['user_settings'], ...MODERN } })).body.user_settings as Record<string, unknown>;
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
const update = (property: string, value: unknown) => ({ type: 'realm_user_settings_defaults', op: 'update', property, value });
const storedRow = async (realmId = 1) => (await t.sql(`SELECT * FROM realm_user_defaults WHERE realm_id = $1`, [realmId]))[0];

async function newUser(): Promise<Account & { password: string }> {
  n += 1;
  const email = `joiner${n}@example.com`;
  const password = `Joiner-${n}-correct-horse-battery`;
  expectSuccess(await t.post('users', { form: { email, password, full_name: `Joiner ${n}` } }));
  return { ...(await t.login(email, password)), password };
}

describe('register: realm_user_settings_defaults', () => {
  it('has every setting with Zulip’s model defaults, the emoji sets and the sounds', async () => {
    const d = await defaultsOf();
    expect(Object.keys(d).sort()).toEqual([...USER_SETTING_NAMES, 'emojiset_choices', 'available_notification_sounds'].sort());
    expect(d).toMatchObject({
      web_home_view: 'inbox',
      enter_sends: false,
      color_scheme: 1,
      email_address_visibility: 1,
      resolved_topic_notice_auto_read_policy: 'except_followed',
      notification_sound: 'zulip',
      default_language: 'en',
      enable_login_emails: true,
    });
    expect(d.emojiset_choices).toContainEqual({ key: 'google', text: 'Google' });
    expect(d.available_notification_sounds).toContain('zulip');
  });

  it('is there for any caller, guests and bots included, and only when asked for', async () => {
    for (const as of [guest, bot, t.owner]) expect(await defaultsOf(as)).toMatchObject({ emojiset: 'google' });
    const res = await t.post('register', { as: member, form: { fetch_event_types: ['realm'] } });
    expect(res.body.realm_user_settings_defaults).toBeUndefined();
  });

  it('is there for spectators too (a browser without a session, where the organization allows them)', async () => {
    expectSuccess(await t.patch('realm', { form: { enable_spectator_access: true } }));
    await createChannels(t, ['defaults-window'], { form: { is_web_public: true } });
    const res = await json(t, 'post', 'register', { csrftoken: someToken('spectator') }, { form: { client_gravatar: false, fetch_event_types: ['realm_user_settings_defaults'] } });
    expectSuccess(res, { queue_id: null });
    expect(res.body.realm_user_settings_defaults).toEqual(await defaultsOf());
    expectSuccess(await t.patch('realm', { form: { enable_spectator_access: false } }));
  });
});

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes the defaults, tells everyone one event per changed setting, in parameter order, and answers nothing more', async () => {
    const watchers = await Promise.all([member, guest, t.owner].map((a) => EventClient.register(t, a, { event_types: ['realm_user_settings_defaults'] })));
    const res = await patch({
      web_home_view: 'recent',
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'text',
      enable_sounds: false,
      resolved_topic_notice_auto_read_policy: 'never',
      notification_sound: 'ding',
      web_font_size_px: 18,
      enter_sends: false, // unchanged: no event
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const expected = [
      update('color_scheme', 2),
      update('emojiset', 'text'),
      update('enable_sounds', false),
      update('notification_sound', 'ding'),
      update('resolved_topic_notice_auto_read_policy', 'never'),
      update('twenty_four_hour_time', true),
      update('web_font_size_px', 18),
      update('web_home_view', 'recent'),
    ];
    for (const w of watchers) expect(strip(await w.next())).toEqual(expected);
    // Register right after shows them (its cached section is versioned).
    expect(await defaultsOf()).toMatchObject({ web_home_view: 'recent', twenty_four_hour_time: true, resolved_topic_notice_auto_read_policy: 'never', emojiset: 'text' });
    expect(await storedRow()).toMatchObject({ resolved_topic_notice_auto_read_policy: 3, web_home_view: 'recent' });

    // The same again changes nothing and tells nobody.
    expectSuccess(await patch({ web_home_view: 'recent', color_scheme: 2 }));
    expect(await watchers[0].drain()).toEqual([]);
  });

  it('ignores what it does not take: the language, login and marketing emails, data export, the time zone', async () => {
    const res = await patch({ default_language: 'de', enable_login_emails: false, enable_marketing_emails: false, allow_private_data_export: true, timezone: 'UTC' });
    expectSuccess(res);
    expect(res.body.ignored_parameters_unsupported.sort()).toEqual(['allow_private_data_export', 'default_language', 'enable_login_emails', 'enable_marketing_emails', 'timezone']);
    expect(await defaultsOf()).toMatchObject({ default_language: 'en', enable_login_emails: true, enable_marketing_emails: true, allow_private_data_export: false });
  });

  it.each([
    ...INVALID_DISPLAY_AND_NOTIFICATION_SETTINGS,
    [{ enter_sends: 'yes' }, 'enter_sends is not valid JSON'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    // Typed parameters first, in parameter order; the sound after them.
    [{ notification_sound: 'trumpet', web_home_view: 'nowhere', color_scheme: 9 }, 'Invalid color_scheme'],
  ])('refuses %j with %s and changes nothing', async (form, msg) => {
    const before = await storedRow();
    const watcher = await EventClient.register(t, member, { event_types: ['realm_user_settings_defaults'] });
    expectError(await patch({ enter_sends: true, ...form }), 400, msg);
    expect(await storedRow()).toEqual(before);
    expect(await watcher.drain()).toEqual([]);
  });

  it('refuses oversized values as any invalid one', async () => {
    const before = await storedRow();
    const sound = 'x'.repeat(20_000);
    expectError(await patch({ notification_sound: sound }), 400, `Invalid notification sound '${sound}'`);
    expectError(await patch({ web_font_size_px: 2 ** 60 }), 400, 'web_font_size_px is not an integer');
    expect(await storedRow()).toEqual(before);
  });

  it('is for administrators only', async () => {
    const before = await storedRow();
    for (const as of [moderator, member, guest, bot]) expectError(await patch({ enter_sends: true }, as), 400, ADMIN, 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.patch('realm/user_settings_defaults', { as: null, form: { enter_sends: true } }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    expect(await storedRow()).toEqual(before);
    expectSuccess(await patch({ left_side_userlist: true }, t.owner));
  });

  it('belongs to one organization: another organization’s owner changes only theirs', async () => {
    const mine = await defaultsOf();
    const watcher = await EventClient.register(t, member, { event_types: ['realm_user_settings_defaults'] });
    expectSuccess(await patch({ enter_sends: true, color_scheme: 3 }, otherOwner));
    expect(await defaultsOf(otherOwner)).toMatchObject({ enter_sends: true, color_scheme: 3 });
    expect(await defaultsOf()).toEqual(mine);
    expect(await watcher.drain()).toEqual([]);
  });
});

describe('new accounts take the defaults', () => {
  it('a user made with POST /users gets every default but the language and login emails', async () => {
    expectSuccess(await patch({ web_home_view: 'recent', enter_sends: true, twenty_four_hour_time: true, resolved_topic_notice_auto_read_policy: 'never', web_font_size_px: 20 }));
    const joiner = await newUser();
    expect(await settingsOf(joiner)).toMatchObject({
      web_home_view: 'recent',
      enter_sends: true,
      twenty_four_hour_time: true,
      resolved_topic_notice_auto_read_policy: 'never',
      web_font_size_px: 20,
      color_scheme: 2,
      default_language: 'en',
      enable_login_emails: true,
    });
    // Existing users keep theirs.
    expect(await settingsOf(member)).toMatchObject({ web_home_view: 'inbox', enter_sends: false });
  });

  it('bots keep the model defaults', async () => {
    const b = await t.createBot(member, `fresh${++n}`);
    const rows = await t.sql(`SELECT enter_sends, web_home_view, email_address_visibility FROM users WHERE id = $1`, [b.id]);
    expect(rows[0]).toEqual({ enter_sends: false, web_home_view: 'inbox', email_address_visibility: 1 });
  });

  it('a restricted address visibility gives the newcomer a display address, and only those allowed see the real one', async () => {
    expectSuccess(await patch({ email_address_visibility: 3 })); // administrators only
    const [adminQ, memberQ] = await Promise.all([admin, member].map((a) => EventClient.register(t, a, { event_types: ['realm_user'] })));
    n += 1;
    const email = `hidden${n}@example.com`;
    const created = await t.post('users', { form: { email, password: 'Hidden-correct-horse-battery', full_name: 'Hidden Joiner' } });
    expectSuccess(created);
    const id = created.body.user_id as number;
    const [seen] = await adminQ.ofType('realm_user');
    const [blind] = await memberQ.ofType('realm_user');
    expect(seen).toMatchObject({ op: 'add', person: { user_id: id, email: `user${id}@chat.example.com`, delivery_email: email } });
    expect(blind).toMatchObject({ op: 'add', person: { user_id: id, email: `user${id}@chat.example.com`, delivery_email: null } });
    const me = await t.login(email, 'Hidden-correct-horse-battery');
    expect((await t.get('users/me', { as: me })).body).toMatchObject({ email: `user${id}@chat.example.com`, delivery_email: email });
    expect(await settingsOf(me)).toMatchObject({ email_address_visibility: 3 });
    expectSuccess(await patch({ email_address_visibility: 1 }));
  });

  it('a person joining through an invitation gets them too', async () => {
    expectSuccess(await patch({ starred_message_counts: false }));
    n += 1;
    const email = `invited${n}@example.com`;
    expectSuccess(await t.post('invites', { form: { invitee_emails: email, stream_ids: [] } }));
    const [mail] = await t.sql(`SELECT body FROM email_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1`, [email]);
    const link = /https?:\/\/[^\s<>]+\/accounts\/do_confirm\/[a-z2-7]{24}/.exec(mail.body as string)![0];
    const done = await t.post(new URL(link).pathname, { as: null, form: { full_name: 'Invited Joiner', password: 'Invited-correct-horse-battery' } });
    expect(done.status, done.text).toBe(200);
    const me = await t.login(email, 'Invited-correct-horse-battery');
    expect(await settingsOf(me)).toMatchObject({ starred_message_counts: false, web_home_view: 'recent', enter_sends: true });
  });
});
