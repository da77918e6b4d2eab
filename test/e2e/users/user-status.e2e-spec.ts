import { DataSource } from 'typeorm';
import { RealmEmojiService } from '../../../src/emoji/application/realm-emoji.service.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let otherMember: Account;
let realmId: number;
let otherRealmId: number;
let greenTick: number;
let oldLogo: number;
let customCar: number;
let otherRealmEmoji: number;

const realmOf = async (userId: number): Promise<number> =>
  (await t.app.get(DataSource).query('SELECT realm_id FROM users WHERE id = $1', [userId]))[0].realm_id;

const addEmoji = (realm: number, name: string, authorId: number | null = null, isAnimated = false) =>
  t.app.get(RealmEmojiService).addRealmEmoji({ realmId: realm, authorId, name, fileName: (id) => `e${id}.png`, isAnimated });

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  moderator = await t.createUser({ role: 300, fullName: 'Moderator' });
  member = await t.createUser({ fullName: 'Member' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(member, 'helper');
  otherOwner = await t.createOrganization('other');
  const res = await t.post('users', {
    as: otherOwner,
    form: { email: 'other-member@example.com', password: 'Other-member-long-pass-1', full_name: 'Other Member' },
  });
  otherMember = await t.login('other-member@example.com', 'Other-member-long-pass-1', otherOwner.host);
  expect(otherMember.id).toBe(res.body.user_id);
  realmId = await realmOf(t.owner.id);
  otherRealmId = await realmOf(otherOwner.id);
  greenTick = await addEmoji(realmId, 'green_tick', admin.id);
  oldLogo = await addEmoji(realmId, 'old_logo', admin.id);
  await t.app.get(RealmEmojiService).deactivateRealmEmoji(realmId, 'old_logo');
  customCar = await addEmoji(realmId, 'car', member.id);
  await t.app.get(RealmEmojiService).deactivateRealmEmoji(realmId, 'car');
  otherRealmEmoji = await addEmoji(otherRealmId, 'other_tick', otherOwner.id);
});
afterAll(() => t.close());

const setOwn = (as: Account, form: Record<string, unknown>) => t.post('users/me/status', { as, form });
const setFor = (as: Account, userId: number, form: Record<string, unknown>) => t.post(`users/${userId}/status`, { as, form });
const statusOf = async (userId: number, as: Account = t.owner) => {
  const res = await t.get(`users/${userId}/status`, { as });
  expectSuccess(res);
  return res.body.status;
};
const clear = (as: Account) => setOwn(as, { away: false, status_text: '', emoji_name: '' });

describe('POST /users/me/status', () => {
  let u: Account;
  beforeAll(async () => {
    u = await t.createUser({ fullName: 'Status Setter' });
  });

  it('starts empty', async () => {
    expect(await statusOf(u.id)).toEqual({});
  });

  it('sets the text, stripped, and answers with the bare envelope', async () => {
    const res = await setOwn(u, { status_text: '   in office  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await statusOf(u.id)).toEqual({ status_text: 'in office' });
  });

  it('fills the emoji code and type from the name and keeps what was not sent', async () => {
    expectSuccess(await setOwn(u, { emoji_name: 'car' }));
    expect(await statusOf(u.id)).toEqual({ status_text: 'in office', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expectSuccess(await setOwn(u, { status_text: 'out to lunch' }));
    expect(await statusOf(u.id)).toEqual({ status_text: 'out to lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  });

  it.each([
    [{ emoji_name: 'thumbs_up' }, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }],
    [{ emoji_name: '+1' }, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }],
    [{ emoji_name: 'laptop', emoji_code: '1f4bb' }, { emoji_name: 'laptop', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }],
    [
      { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
      { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    ],
    [{ emoji_name: 'zulip' }, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }],
    [
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' },
    ],
    // Zulip's name of the type, as Zulip's clients send it.
    [
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' },
    ],
  ])('sets %j', async (form, expected) => {
    expectSuccess(await setOwn(u, form));
    expect(await statusOf(u.id)).toEqual({ status_text: 'out to lunch', ...expected });
  });

  it('uses the organization’s custom emoji, by name or by ID', async () => {
    expectSuccess(await setOwn(u, { emoji_name: 'green_tick' }));
    expect(await statusOf(u.id)).toMatchObject({ emoji_name: 'green_tick', emoji_code: String(greenTick), reaction_type: 'realm_emoji' });
    expectSuccess(await setOwn(u, { emoji_name: 'green_tick', emoji_code: String(greenTick), reaction_type: 'realm_emoji' }));
    expect(await statusOf(u.id)).toMatchObject({ emoji_code: String(greenTick), reaction_type: 'realm_emoji' });
  });

  it('prefers an active custom emoji over the Unicode one of the same name', async () => {
    const id = await addEmoji(realmId, 'car', member.id);
    try {
      expectSuccess(await setOwn(u, { emoji_name: 'car' }));
      expect(await statusOf(u.id)).toMatchObject({ emoji_name: 'car', emoji_code: String(id), reaction_type: 'realm_emoji' });
      // the Unicode car stays reachable with its code
      expectSuccess(await setOwn(u, { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }));
      expect(await statusOf(u.id)).toMatchObject({ emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    } finally {
      await t.app.get(RealmEmojiService).deactivateRealmEmoji(realmId, 'car');
    }
  });

  it('clears the emoji with an empty name, whatever code and type come with it', async () => {
    expectSuccess(await setOwn(u, { emoji_name: '', emoji_code: 'junk', reaction_type: 'junk' }));
    expect(await statusOf(u.id)).toEqual({ status_text: 'out to lunch' });
  });

  it('sets and clears away (the inverse of the presence setting)', async () => {
    expectSuccess(await setOwn(u, { away: true, status_text: 'on vacation' }));
    expect(await statusOf(u.id)).toEqual({ away: true, status_text: 'on vacation' });
    expectSuccess(await setOwn(u, { status_text: '   at the beach  ' }));
    expect(await statusOf(u.id)).toEqual({ away: true, status_text: 'at the beach' });
    expectSuccess(await setOwn(u, { away: false }));
    expect(await statusOf(u.id)).toEqual({ status_text: 'at the beach' });
    const presence = await t.app.get(DataSource).query('SELECT presence_enabled FROM users WHERE id = $1', [u.id]);
    expect(presence[0].presence_enabled).toBe(true);
  });

  it('clears the text with an empty string', async () => {
    expectSuccess(await setOwn(u, { status_text: '' }));
    expect(await statusOf(u.id)).toEqual({});
  });

  it('accepts 60 code points after stripping', async () => {
    expectSuccess(await setOwn(u, { status_text: ` ${'😀'.repeat(60)}  ` }));
    expect(await statusOf(u.id)).toEqual({ status_text: '😀'.repeat(60) });
  });

  it('takes multipart bodies (zulip-js) and reports parameters it does not know', async () => {
    const res = await t.post('users/me/status', { as: u, multipart: { status_text: 'multi', away: false, foo: 1 } });
    expectSuccess(res, { ignored_parameters_unsupported: ['foo'] });
    expect(await statusOf(u.id)).toEqual({ status_text: 'multi' });
  });

  it.each([
    [{}, 'Client did not pass any new values.'],
    [{ emoji_code: '1f4bb' }, 'Client did not pass any new values.'],
    [{ reaction_type: 'unicode_emoji', emoji_code: '1f4bb' }, 'Client did not pass any new values.'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ away: true, reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    [{ emoji_name: 'old_logo' }, "Emoji 'old_logo' does not exist"],
    [{ emoji_name: 'other_tick' }, "Emoji 'other_tick' does not exist"],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: '1f6971', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'zulip', emoji_code: 'svc', reaction_type: 'svc_extra_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'car', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_emoji' }, 'Invalid emoji type.'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'car', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'other_tick', emoji_code: 'X', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'wrong_name', emoji_code: 'GREEN', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    [{ emoji_name: 'old_logo', emoji_code: 'OLD', reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ status_text: '😀'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ away: 'yes' }, 'away is not valid JSON'],
    [{ away: '1' }, 'away is not a boolean'],
    // parameters are checked in Zulip's order: away first, status_text last
    [{ away: '1', status_text: 'x'.repeat(61) }, 'away is not a boolean'],
    [{ status_text: 'x'.repeat(61), emoji_name: 'invalid' }, 'status_text is too long (limit: 60 characters)'],
  ])('refuses %j: %s', async (form, msg) => {
    const resolved = Object.fromEntries(
      Object.entries(form).map(([k, v]) => [
        k,
        v === 'GREEN' ? String(greenTick) : v === 'OLD' ? String(oldLogo) : v === 'X' ? String(otherRealmEmoji) : v,
      ]),
    );
    const before = await statusOf(u.id);
    expectError(await setOwn(u, resolved), 400, msg);
    expect(await statusOf(u.id)).toEqual(before);
  });

  it('refuses a deactivated custom emoji by ID even when another of that name is gone too', async () => {
    expectError(
      await setOwn(u, { emoji_name: 'car', emoji_code: String(customCar), reaction_type: 'realm_emoji' }),
      400,
      'This custom emoji has been deactivated.',
    );
  });

  it('lets every human role set their own status', async () => {
    for (const who of [t.owner, admin, moderator, member, guest]) {
      expectSuccess(await setOwn(who, { status_text: `I am ${who.id}` }));
      expect(await statusOf(who.id)).toEqual({ status_text: `I am ${who.id}` });
      expectSuccess(await clear(who));
    }
  });

  it('refuses bots before reading any parameter', async () => {
    expectError(await setOwn(bot, {}), 400, 'This endpoint does not accept bot requests.');
    expectError(await setOwn(bot, { status_text: 'x'.repeat(61) }), 400, 'This endpoint does not accept bot requests.');
  });

  it('changes nobody else’s status', async () => {
    expectSuccess(await setOwn(member, { status_text: 'mine', emoji_name: 'car' }));
    expect(await statusOf(guest.id)).toEqual({});
    expect(await statusOf(u.id)).toEqual({ status_text: 'multi' });
    expectSuccess(await clear(member));
  });
});

describe('POST /users/{user_id}/status', () => {
  let target: Account;
  beforeAll(async () => {
    target = await t.createUser({ fullName: 'Target' });
  });

  it.each([
    ['an administrator', () => admin],
    ['an owner', () => t.owner],
  ])('lets %s set another user’s status', async (_, who) => {
    expectSuccess(await setFor(who(), target.id, { status_text: '   at the beach  ', emoji_name: 'car' }));
    expect(await statusOf(target.id, target)).toEqual({
      status_text: 'at the beach',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    expectSuccess(await setFor(who(), target.id, { emoji_name: '' }));
    expect(await statusOf(target.id)).toEqual({ status_text: 'at the beach' });
    expectSuccess(await setFor(who(), target.id, { status_text: '' }));
    expect(await statusOf(target.id)).toEqual({});
  });

  it('lets an administrator set an owner’s and their own status', async () => {
    expectSuccess(await setFor(admin, t.owner.id, { status_text: 'set by admin' }));
    expect(await statusOf(t.owner.id)).toEqual({ status_text: 'set by admin' });
    expectSuccess(await setFor(admin, admin.id, { status_text: 'me' }));
    expect(await statusOf(admin.id)).toEqual({ status_text: 'me' });
    await clear(t.owner);
    await clear(admin);
  });

  it('uses the organization’s custom emoji', async () => {
    expectSuccess(await setFor(admin, target.id, { emoji_name: 'green_tick' }));
    expect(await statusOf(target.id)).toEqual({ emoji_name: 'green_tick', emoji_code: String(greenTick), reaction_type: 'realm_emoji' });
    expectSuccess(await setFor(admin, target.id, { emoji_name: 'zulip' }));
    expect(await statusOf(target.id)).toEqual({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' });
    expectSuccess(await setFor(admin, target.id, { emoji_name: '' }));
  });

  it('accepts the deprecated away for the target, as Zulip does', async () => {
    expectSuccess(await setFor(admin, target.id, { away: true, status_text: 'on vacation' }));
    expect(await statusOf(target.id)).toEqual({ away: true, status_text: 'on vacation' });
    expect(await statusOf(admin.id)).toEqual({});
    const res = await setFor(admin, target.id, { away: false });
    expectSuccess(res);
    expect(res.body.ignored_parameters_unsupported).toBeUndefined();
    expect(await statusOf(target.id)).toEqual({ status_text: 'on vacation' });
    expectSuccess(await setFor(admin, target.id, { status_text: '' }));
  });

  it.each([
    [{}, 'Client did not pass any new values.'],
    [{ emoji_code: '1f4bb' }, 'Client did not pass any new values.'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car' }, 'Invalid emoji name.'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'other_tick', emoji_code: 'X', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'wrong_name', emoji_code: 'GREEN', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    [{ emoji_name: 'old_logo', emoji_code: 'OLD', reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
    [{ emoji_name: 'car', emoji_code: '1f6971', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'bogus' }, 'Invalid emoji type.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ away: 'yes' }, 'away is not valid JSON'],
    [{ away: '"true"' }, 'away is not a boolean'],
    [{ status_text: 'x'.repeat(61), away: '1' }, 'status_text is too long (limit: 60 characters)'],
    // away is read after the others: the emoji parameters are not checked until then
    [{ away: '1', emoji_code: '1f4bb' }, 'away is not a boolean'],
  ])('refuses %j: %s', async (form, msg) => {
    const resolved = Object.fromEntries(
      Object.entries(form).map(([k, v]) => [
        k,
        v === 'GREEN' ? String(greenTick) : v === 'OLD' ? String(oldLogo) : v === 'X' ? String(otherRealmEmoji) : v,
      ]),
    );
    expectError(await setFor(admin, target.id, resolved), 400, msg);
    expect(await statusOf(target.id)).toEqual({});
  });

  it.each([
    ['a moderator', () => moderator],
    ['a member', () => member],
    ['a guest', () => guest],
  ])('refuses %s with Insufficient permission, for others and for themselves', async (_, who) => {
    expectError(await setFor(who(), target.id, { status_text: 'hi' }), 400, 'Insufficient permission');
    expectError(await setFor(who(), who().id, { status_text: 'hi' }), 400, 'Insufficient permission');
    // the permission is checked before the values
    expectError(await setFor(who(), target.id, {}), 400, 'Insufficient permission');
    expectError(await setFor(who(), target.id, { away: 'nope' }), 400, 'Insufficient permission');
    expect(await statusOf(target.id)).toEqual({});
  });

  it('checks status_text before the target, as Zulip’s parser does', async () => {
    expectError(await setFor(member, target.id, { status_text: 'x'.repeat(61) }), 400, 'status_text is too long (limit: 60 characters)');
    expectError(await setFor(admin, 999999, { status_text: 'x'.repeat(61) }), 400, 'status_text is too long (limit: 60 characters)');
  });

  it('finds the target before checking the permission', async () => {
    expectError(await setFor(member, 999999, { status_text: 'hi' }), 400, 'No such user');
    expectError(await setFor(admin, 999999, {}), 400, 'No such user');
    expectError(await setFor(admin, 999999, { away: 'nope' }), 400, 'No such user');
  });

  it('refuses bots as targets and as callers', async () => {
    expectError(await setFor(admin, bot.id, { status_text: 'hi' }), 400, 'No such user');
    expectError(await setFor(bot, target.id, { status_text: 'hi' }), 400, 'This endpoint does not accept bot requests.');
    const adminBot = await t.createBot(admin, 'adminbot');
    expectError(await setFor(adminBot, target.id, {}), 400, 'This endpoint does not accept bot requests.');
  });

  it('refuses deactivated targets', async () => {
    const gone = await t.createUser({ fullName: 'Gone' });
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await setFor(admin, gone.id, { status_text: 'hi' }), 400, 'User is deactivated');
  });

  it('does not reach users of another organization', async () => {
    expectError(await setFor(admin, otherMember.id, { status_text: 'hi' }), 400, 'No such user');
    expectError(await setFor(otherOwner, target.id, { status_text: 'hi' }), 400, 'No such user');
    expect(await statusOf(otherMember.id, otherOwner)).toEqual({});
  });

  it('answers an unknown route for a non-numeric id', async () => {
    const res = await t.post('users/abc/status', { as: admin, form: { status_text: 'x' } });
    expect(res.status).toBe(404);
  });
});

describe('GET /users/{user_id}/status', () => {
  let reader: Account;
  beforeAll(async () => {
    reader = await t.createUser({ fullName: 'Reader' });
    expectSuccess(await setOwn(reader, { away: true, status_text: 'reading', emoji_name: 'thumbs_up' }));
  });

  it('shows the status to every user and bot of the organization', async () => {
    const expected = { away: true, status_text: 'reading', emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    for (const who of [t.owner, admin, moderator, member, guest, bot, reader]) {
      expect(await statusOf(reader.id, who)).toEqual(expected);
    }
  });

  it('shows away alone', async () => {
    const lazy = await t.createUser({ fullName: 'Away Only' });
    expectSuccess(await setOwn(lazy, { away: true }));
    expect(await statusOf(lazy.id)).toEqual({ away: true });
  });

  it('refuses unknown users, bots, deactivated users and users of other organizations', async () => {
    expectError(await t.get('users/999999/status'), 400, 'No such user');
    expectError(await t.get(`users/${bot.id}/status`), 400, 'No such user');
    expectError(await t.get(`users/${otherMember.id}/status`), 400, 'No such user');
    expectError(await t.get(`users/${reader.id}/status`, { as: otherOwner }), 400, 'No such user');
    const gone = await t.createUser({ fullName: 'Gone Reader' });
    expectSuccess(await setOwn(gone, { status_text: 'bye' }));
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await t.get(`users/${gone.id}/status`), 400, 'User is deactivated');
  });
});

describe('GET /realm/emoji', () => {
  it('lists the organization’s custom emoji by ID, deactivated ones included', async () => {
    const res = await t.get('realm/emoji', { as: guest });
    expectSuccess(res);
    expect(res.body.emoji[String(greenTick)]).toEqual({
      id: String(greenTick),
      name: 'green_tick',
      source_url: `/user_avatars/${realmId}/emoji/images/e${greenTick}.png`,
      deactivated: false,
      author_id: admin.id,
      still_url: null,
    });
    expect(res.body.emoji[String(oldLogo)]).toMatchObject({ name: 'old_logo', deactivated: true });
    expect(res.body.emoji[String(otherRealmEmoji)]).toBeUndefined();
  });

  it('is readable by bots and shows still images of animated emoji', async () => {
    const id = await addEmoji(realmId, 'dancing', null, true);
    const res = await t.get('realm/emoji', { as: bot });
    expectSuccess(res);
    expect(res.body.emoji[String(id)]).toEqual({
      id: String(id),
      name: 'dancing',
      source_url: `/user_avatars/${realmId}/emoji/images/e${id}.png`,
      deactivated: false,
      author_id: null,
      still_url: `/user_avatars/${realmId}/emoji/images/still/e${id}.png`,
    });
  });

  it('is per organization', async () => {
    const res = await t.get('realm/emoji', { as: otherMember });
    expectSuccess(res);
    expect(Object.keys(res.body.emoji)).toEqual([String(otherRealmEmoji)]);
  });
});

describe('adding and removing custom emoji (service)', () => {
  const service = () => t.app.get(RealmEmojiService);

  it('refuses a second active emoji of the same name, not a reuse after removal', async () => {
    await expect(addEmoji(realmId, 'green_tick')).rejects.toMatchObject({ msg: 'A custom emoji with this name already exists.' });
    // old_logo was deactivated: the name is free again
    const again = await addEmoji(realmId, 'old_logo');
    expect(again).not.toBe(oldLogo);
    await service().deactivateRealmEmoji(realmId, 'old_logo');
    // the same name in another organization is fine
    const inOther = await addEmoji(otherRealmId, 'green_tick');
    expect(inOther).toBeGreaterThan(0);
  });

  it('checks names', async () => {
    await expect(addEmoji(realmId, 'Bad Name')).rejects.toMatchObject({
      msg: 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    });
    await expect(addEmoji(realmId, 'tick_')).rejects.toMatchObject({ msg: 'Emoji names must end with either a letter or digit.' });
  });

  it('refuses to remove what is not active', async () => {
    await expect(service().deactivateRealmEmoji(realmId, 'nothing')).rejects.toMatchObject({
      msg: "Emoji 'nothing' does not exist",
      kind: 'not_found',
    });
    await expect(service().deactivateRealmEmoji(realmId, 'other_tick')).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('POST /register', () => {
  it('lists the statuses of active users by ID, only their set parts', async () => {
    const a = await t.createUser({ fullName: 'Reg A' });
    const b = await t.createUser({ fullName: 'Reg B' });
    const c = await t.createUser({ fullName: 'Reg C' });
    const d = await t.createUser({ fullName: 'Reg D' });
    expectSuccess(await setOwn(a, { status_text: 'busy', emoji_name: 'green_tick' }));
    expectSuccess(await setOwn(b, { away: true }));
    expectSuccess(await setOwn(c, { status_text: 'was set' }));
    expectSuccess(await setOwn(c, { status_text: '' }));
    expectSuccess(await setOwn(d, { status_text: 'leaving' }));
    expectSuccess(await t.delete(`users/${d.id}`));

    const res = await t.post('register', { as: guest, form: { fetch_event_types: ['user_status'] } });
    expectSuccess(res);
    const statuses = res.body.user_status as Record<string, unknown>;
    expect(statuses[String(a.id)]).toEqual({
      status_text: 'busy',
      emoji_name: 'green_tick',
      emoji_code: String(greenTick),
      reaction_type: 'realm_emoji',
    });
    expect(statuses[String(b.id)]).toEqual({ away: true });
    expect(statuses).not.toHaveProperty(String(c.id));
    expect(statuses).not.toHaveProperty(String(d.id));
    expect(statuses).not.toHaveProperty(String(member.id));
    expect(res.body.realm_emoji).toBeUndefined();
  });

  it('keeps organizations apart', async () => {
    expectSuccess(await setOwn(otherMember, { status_text: 'elsewhere' }));
    const mine = await t.post('register', { form: { fetch_event_types: ['user_status'] } });
    expect(mine.body.user_status).not.toHaveProperty(String(otherMember.id));
    const theirs = await t.post('register', { as: otherOwner, form: { fetch_event_types: ['user_status'] } });
    expect(theirs.body.user_status).toEqual({ [String(otherMember.id)]: { status_text: 'elsewhere' } });
  });

  it('returns realm_emoji in GET /realm/emoji’s shape', async () => {
    const res = await t.post('register', { as: member, form: { fetch_event_types: ['realm_emoji'] } });
    expectSuccess(res);
    const list = await t.get('realm/emoji', { as: member });
    expect(res.body.realm_emoji).toEqual(list.body.emoji);
    expect(res.body.user_status).toBeUndefined();
  });

  it('includes both sections when every section is asked for', async () => {
    const res = await t.post('register', { as: member });
    expectSuccess(res);
    expect(res.body).toHaveProperty('user_status');
    expect(res.body).toHaveProperty('realm_emoji');
  });
});

describe('JSON request bodies', () => {
  it('take away as a real boolean on both routes', async () => {
    const u = await t.createUser({ fullName: 'Json Body' });
    const own = await t.http.post('/api/v1/users/me/status').auth(u.email, u.apiKey).send({ away: true, status_text: 'json' });
    expectSuccess(own);
    expect(await statusOf(u.id)).toEqual({ away: true, status_text: 'json' });
    const other = await t.http.post(`/api/v1/users/${u.id}/status`).auth(admin.email, admin.apiKey).send({ away: false });
    expectSuccess(other);
    expect(await statusOf(u.id)).toEqual({ status_text: 'json' });
    const bad = await t.http.post(`/api/v1/users/${u.id}/status`).auth(admin.email, admin.apiKey).send({ away: 1 });
    expectError(bad, 400, 'away is not a boolean');
  });
});
