import pg from 'pg';
import { systemGroups } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let db: pg.Client;
let admin: Account;
let moderator: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;

const MODERN = { client_capabilities: { notification_settings_null: false, user_settings_object: true } };
const LEGACY = { client_capabilities: { notification_settings_null: false } };

beforeAll(async () => {
  t = await TestApp.start();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  ({ admin, moderator, member, guest, bot, otherOwner } = await t.createRoleAccounts());
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const patch = (as: Account, form: Record<string, unknown>) => t.patch('settings', { as, form });
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
/** The emails to an address, but the account-created one (POST /users sends it to every new user). */
const outboxTo = async (email: string) =>
  (await db.query(`SELECT * FROM email_outbox WHERE to_address = $1 AND kind <> 'account_registered' ORDER BY id`, [email])).rows;
const linkIn = (body: string) => /http:\/\/chat\.example\.com\/accounts\/confirm_new_email\/([a-z2-7]{24})\//.exec(body)![1];
const setting = async (userId: number, column: string) => (await db.query(`SELECT ${column} AS v FROM users WHERE id = $1`, [userId])).rows[0].v;

describe('email address change', () => {
  it('emails a confirmation link to the new address; the change happens when it is followed', async () => {
    const u = await t.createUser({ email: 'mover@example.com', fullName: 'Mover' });
    const polling = { ...u }; // the queue's credentials: its email follows the change
    const own = await EventClient.register(t, polling, MODERN);
    const other = await EventClient.register(t, member, MODERN);
    expectSuccess(await patch(u, { email: ' moved@example.com ' }));
    const [mail] = await outboxTo('moved@example.com');
    expect(mail).toMatchObject({ kind: 'email_change', subject: 'Verify your new email address for chat.example.com' });
    expect(mail.body).toContain('from mover@example.com to moved@example.com');
    expect((await t.get('users/me', { as: u })).body.delivery_email).toBe('mover@example.com');
    expect(await own.drain()).toEqual([]);

    const key = linkIn(mail.body);
    const page = await t.http.get(`/accounts/confirm_new_email/${key}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`name="key" value="${key}"`);
    const done = await t.http.post('/accounts/confirm_new_email').type('form').send({ key });
    expect(done.status).toBe(200);
    expect(done.text).toContain('changed from mover@example.com to moved@example.com');

    const moved = { ...u, email: 'moved@example.com' };
    polling.email = moved.email;
    expect((await t.get('users/me', { as: moved })).body).toMatchObject({ email: 'moved@example.com', delivery_email: 'moved@example.com' });
    const avatar = expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    const medium = expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&s=500&version=1$/);
    const expected = [
      { type: 'realm_user', op: 'update', person: { user_id: u.id, delivery_email: 'moved@example.com' } },
      {
        type: 'realm_user',
        op: 'update',
        person: { avatar_source: 'G', avatar_url: avatar, avatar_url_medium: medium, avatar_version: 1, user_id: u.id },
      },
      { type: 'realm_user', op: 'update', person: { user_id: u.id, new_email: 'moved@example.com' } },
    ];
    expect(strip(await own.next())).toEqual(expected);
    expect(strip(await other.next())).toEqual(expected);
    expect(await outboxTo('mover@example.com')).toHaveLength(1); // the old address is told
    // Basic auth takes the new address now, not the old one.
    expectSuccess(await t.get('users/me', { as: { ...u, email: 'moved@example.com' } }), { user_id: u.id });
    expectError(await t.get('users/me', { as: u }), 401, 'Invalid API key', 'UNAUTHORIZED');
    // The link works once.
    const again = await t.http.post('/accounts/confirm_new_email').type('form').send({ key });
    expect(again.status).toBe(404);
  });

  it('answers unknown, malformed and revoked links with 404 pages', async () => {
    expect((await t.http.get('/accounts/confirm_new_email/abcdefghijklmnopqrstuvwx/')).status).toBe(404);
    expect((await t.http.get('/accounts/confirm_new_email/short/')).status).toBe(404);
    expect((await t.http.post('/accounts/confirm_new_email').type('form').send({ key: 'abcdefghijklmnopqrstuvwx' })).status).toBe(404);
    const u = await t.createUser({ email: 'twice@example.com' });
    expectSuccess(await patch(u, { email: 'first@example.com' }));
    expectSuccess(await patch(u, { email: 'second@example.com' }));
    const first = linkIn((await outboxTo('first@example.com'))[0].body);
    expect((await t.http.post('/accounts/confirm_new_email').type('form').send({ key: first })).status).toBe(404);
    const second = linkIn((await outboxTo('second@example.com'))[0].body);
    expect((await t.http.post('/accounts/confirm_new_email').type('form').send({ key: second })).status).toBe(200);
  });

  it('does nothing for the current address', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM email_outbox')).rows[0].n;
    expectSuccess(await patch(member, { email: member.email }));
    expect((await db.query('SELECT count(*)::int AS n FROM email_outbox')).rows[0].n).toBe(before);
  });

  it.each([
    ['not-an-email', 'Invalid address.'],
    ['owner@example.com', 'Already has an account.'],
    ['OWNER@example.com', 'Already has an account.'],
    ['someone@mailinator.com', 'Please use your real email address.'],
  ])('refuses %s: %s, sending nothing', async (email, msg) => {
    const before = (await db.query('SELECT count(*)::int AS n FROM email_outbox')).rows[0].n;
    expectError(await patch(member, { email }), 400, msg);
    expect((await db.query('SELECT count(*)::int AS n FROM email_outbox')).rows[0].n).toBe(before);
  });

  it('refuses the address of a deactivated account', async () => {
    const gone = await t.createUser({ email: 'gone@example.com' });
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await patch(member, { email: 'gone@example.com' }), 400, 'Account has been deactivated.');
  });

  it('follows the organization’s rules: disabled changes (administrators excepted) and allowed domains', async () => {
    await t.sql(`UPDATE realms SET email_changes_disabled = true WHERE string_id = ''`);
    try {
      expectError(await patch(member, { email: 'elsewhere@example.com' }), 400, 'Email address changes are disabled in this organization.');
      expectSuccess(await patch(admin, { email: 'admin-new@example.com' }));
    } finally {
      await t.sql(`UPDATE realms SET email_changes_disabled = false WHERE string_id = ''`);
    }
    await t.sql(`UPDATE realms SET emails_restricted_to_domains = true WHERE string_id = ''`);
    try {
      expectError(await patch(member, { email: 'x@elsewhere.org' }), 400, 'Outside your domain.');
    } finally {
      await t.sql(`UPDATE realms SET emails_restricted_to_domains = false WHERE string_id = ''`);
    }
  });
});

describe('email_address_visibility', () => {
  it('hides the real address from those who may no longer see it, and gives the user a placeholder email', async () => {
    const u = await t.createUser({ email: 'private@example.com', fullName: 'Private' });
    const [own, asMember, asModerator, asAdmin] = await Promise.all([
      EventClient.register(t, u, MODERN),
      EventClient.register(t, member, MODERN),
      EventClient.register(t, moderator, MODERN),
      EventClient.register(t, admin, MODERN),
    ]);
    expectSuccess(await patch(u, { email_address_visibility: 3 }));
    const placeholder = `user${u.id}@chat.example.com`;
    const avatar = expect.stringContaining('gravatar');
    const common = [
      { type: 'realm_user', op: 'update', person: { user_id: u.id, new_email: placeholder } },
      { type: 'realm_user', op: 'update', person: { avatar_source: 'G', avatar_url: avatar, avatar_url_medium: avatar, avatar_version: 1, user_id: u.id } },
    ];
    const hidden = { type: 'realm_user', op: 'update', person: { user_id: u.id, delivery_email: null } };
    expect(strip(await own.next())).toEqual([{ type: 'user_settings', op: 'update', property: 'email_address_visibility', value: 3 }, ...common]);
    expect(strip(await asMember.next())).toEqual([hidden, ...common]);
    expect(strip(await asModerator.next())).toEqual([hidden, ...common]);
    expect(strip(await asAdmin.next())).toEqual(common);

    const seenBy = async (as: Account) => (await t.get(`users/${u.id}`, { as })).body.user;
    expect(await seenBy(member)).toMatchObject({ email: placeholder, delivery_email: null });
    expect(await seenBy(admin)).toMatchObject({ email: placeholder, delivery_email: 'private@example.com' });
    expect((await t.get('users/me', { as: u })).body).toMatchObject({ email: placeholder, delivery_email: 'private@example.com' });
    const listed = (await t.get('users', { as: guest })).body.members.find((m: { user_id: number }) => m.user_id === u.id);
    expect(listed).toMatchObject({ email: placeholder, delivery_email: null, avatar_url: expect.stringContaining('gravatar') });
    // The real address still authenticates.
    expectSuccess(await t.get('users/me', { as: u }), { user_id: u.id });

    // Admins → moderators: moderators gain sight; the placeholder stays.
    expectSuccess(await patch(u, { email_address_visibility: 5 }));
    expect(strip(await asModerator.next())).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: u.id, delivery_email: 'private@example.com' } }]);
    expect(await asMember.drain()).toEqual([]);
    // Back to everyone: the real address is the email again.
    expectSuccess(await patch(u, { email_address_visibility: 1 }));
    expect(strip(await asMember.next())).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: u.id, delivery_email: 'private@example.com' } },
      { type: 'realm_user', op: 'update', person: { user_id: u.id, new_email: 'private@example.com' } },
      common[1],
    ]);
    expect(await seenBy(member)).toMatchObject({ email: 'private@example.com', delivery_email: 'private@example.com' });
  });
});

describe('target_users (administrators changing others’ settings)', () => {
  it('changes a setting for listed users and group members, humans only, and tells each of them', async () => {
    const groups = await systemGroups(t);
    const a = await t.createUser({ fullName: 'Target A' });
    const b = await t.createUser({ fullName: 'Target B' });
    const qa = await EventClient.register(t, a, LEGACY);
    const qAdmin = await EventClient.register(t, admin, MODERN);
    const res = await patch(admin, {
      target_users: { user_ids: [a.id], group_ids: [groups['role:members']], skip_if_already_edited: false },
      enable_sounds: false,
      full_name: 'Ignored here',
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(strip(await qa.next())).toEqual([
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      { type: 'update_global_notifications', user: a.email, notification_name: 'enable_sounds', setting: false },
    ]);
    expect(await setting(b.id, 'enable_sounds')).toBe(false);
    expect(await setting(bot.id, 'enable_sounds')).toBe(true);
    expect(await setting(admin.id, 'enable_sounds')).toBe(false); // administrators are members too
    expect(strip(await qAdmin.next())).toEqual([{ type: 'user_settings', op: 'update', property: 'enable_sounds', value: false }]);
    expect(await setting(guest.id, 'enable_sounds')).toBe(true);
    expect((await t.get('users/me', { as: admin })).body.full_name).not.toBe('Ignored here');
  });

  it('can leave alone users who chose the setting themselves', async () => {
    const chooser = await t.createUser();
    const other = await t.createUser();
    expectSuccess(await patch(chooser, { emojiset: 'twitter' }));
    expectSuccess(await patch(admin, { target_users: { user_ids: [chooser.id, other.id], skip_if_already_edited: true }, emojiset: 'text' }));
    expect(await setting(chooser.id, 'emojiset')).toBe('twitter');
    expect(await setting(other.id, 'emojiset')).toBe('text');
    expectSuccess(await patch(admin, { target_users: { user_ids: [chooser.id], skip_if_already_edited: false }, emojiset: 'text' }));
    expect(await setting(chooser.id, 'emojiset')).toBe('text');
  });

  it.each([
    [{ presence_enabled: false }, 'Cannot change this setting for other users.'],
    [{ email_address_visibility: 4 }, 'Cannot change this setting for other users.'],
    [{ enable_login_emails: false }, 'Cannot change this setting for other users.'],
    [{ timezone: 'UTC' }, 'Cannot change this setting for other users.'],
    [{ email: 'x@example.com' }, 'Cannot change this setting for other users.'],
    [{ new_password: 'Another-long-passphrase-7' }, 'Cannot change this setting for other users.'],
    [{ color_scheme: 9 }, 'Invalid color_scheme'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
  ])('refuses %j: %s', async (form, msg) => {
    expectError(await patch(admin, { target_users: { user_ids: [member.id], skip_if_already_edited: false }, ...form }), 400, msg);
  });

  it('refuses unknown users and groups, another organization’s included, changing nobody', async () => {
    const before = await setting(member.id, 'color_scheme');
    const target = (o: Record<string, unknown>) => patch(admin, { target_users: { skip_if_already_edited: false, ...o }, color_scheme: 3 });
    expectError(await target({ user_ids: [member.id, 999999] }), 400, 'Invalid user ID: 999999');
    expectError(await target({ user_ids: [member.id, otherOwner.id] }), 400, `Invalid user ID: ${otherOwner.id}`);
    expectError(await target({ group_ids: [999999] }), 400, 'Invalid user group ID: 999999');
    const foreignGroups = (await t.get('user_groups', { as: otherOwner })).body.user_groups;
    expectError(await target({ user_ids: [member.id], group_ids: [foreignGroups[0].id] }), 400, `Invalid user group ID: ${foreignGroups[0].id}`);
    expectError(await target({ user_ids: [], group_ids: [] }), 400, 'Either user_ids or group_ids must be provided.');
    expectError(await patch(admin, { target_users: { user_ids: [member.id] }, color_scheme: 3 }), 400, 'target_users["skip_if_already_edited"] field is missing: Field required');
    expectError(await target({ user_ids: ['x'] }), 400, 'target_users["user_ids"][0] is not an integer');
    expect(await setting(member.id, 'color_scheme')).toBe(before);
  });

  it('is for administrators', async () => {
    expectError(
      await patch(moderator, { target_users: { user_ids: [member.id], skip_if_already_edited: false }, color_scheme: 3 }),
      400,
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });
});
