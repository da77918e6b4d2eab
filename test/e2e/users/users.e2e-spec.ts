import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let member: Account;
beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  member = await t.createUser({ fullName: 'Member' });
});
afterAll(() => t.close());

const createUser = (form: Record<string, unknown>, as?: Account) => t.post('users', { as, form });

describe('POST /users', () => {
  it('creates a member who can log in', async () => {
    const res = await createUser({ email: 'new@example.com', password: 'A-good-long-passphrase', full_name: ' New Person ' });
    expectSuccess(res, { user_id: expect.any(Number) });
    const user = (await t.get(`users/${res.body.user_id}`)).body.user;
    expect(user).toMatchObject({ email: 'new@example.com', full_name: 'New Person', role: 400, is_active: true, is_bot: false });
    await t.login('new@example.com', 'A-good-long-passphrase');
  });

  it.each([
    [{ email: 'a@example.com', password: 'A-good-long-passphrase', full_name: 'Bad*Name' }, 'Invalid characters in name!'],
    [{ email: 'a@example.com', password: 'A-good-long-passphrase', full_name: 'x'.repeat(101) }, 'Name too long!'],
    [{ email: 'broken', password: 'A-good-long-passphrase', full_name: 'Ok' }, 'Bad name or username'],
    [{ email: 'x@mailinator.com', password: 'A-good-long-passphrase', full_name: 'Ok' }, 'Disposable email addresses are not allowed in this organization'],
    [{ email: 'NEW@example.com', password: 'A-good-long-passphrase', full_name: 'Ok' }, "Email 'NEW@example.com' already in use"],
    [{ email: 'weak@example.com', password: 'password', full_name: 'Ok' }, 'The password is too weak.'],
    [{ email: 'weak@example.com', password: 'a1', full_name: 'Ok' }, 'The password is too weak.'],
  ])('rejects %j: %s', async (form, msg) => {
    expectError(await createUser(form), 400, msg);
  });

  it('lets administrators create users, not members', async () => {
    expectSuccess(await createUser({ email: 'by-admin@example.com', password: 'Another-long-pass-1', full_name: 'A' }, admin));
    expectError(
      await createUser({ email: 'by-member@example.com', password: 'Another-long-pass-1', full_name: 'A' }, member),
      400,
      'Must be an organization administrator',
      'UNAUTHORIZED_PRINCIPAL',
    );
  });

  it('reports the first missing parameter', async () => {
    expectError(await createUser({ email: 'x@example.com' }), 400, "Missing 'password' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'password',
    });
  });
});

describe('GET /users, /users/{id}, /users/me', () => {
  it('lists the organization’s users without the system bots', async () => {
    const res = await t.get('users');
    expectSuccess(res);
    const ids = res.body.members.map((m: { user_id: number }) => m.user_id);
    expect(ids).toContain(t.owner.id);
    expect(ids).toContain(member.id);
    expect(res.body.members.some((m: { email: string }) => m.email.startsWith('notification-bot@'))).toBe(false);
    expect(res.body.members[0].avatar_url).toBeNull();
    const withAvatars = await t.get('users', { query: { client_gravatar: false } });
    expect(withAvatars.body.members[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
  });

  it('shows one user with every field', async () => {
    const res = await t.get(`users/${member.id}`);
    expect(res.body.user).toEqual({
      email: member.email,
      user_id: member.id,
      avatar_version: 1,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      role: 400,
      is_bot: false,
      full_name: 'Member',
      timezone: '',
      is_active: true,
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/),
      delivery_email: member.email,
      is_imported_stub: false,
      avatar_url: null,
    });
  });

  it('answers an unknown id with No such user', async () => {
    expectError(await t.get('users/99999'), 400, 'No such user');
  });

  it('shows the caller with max_message_id', async () => {
    const res = await t.get('users/me', { as: member });
    expectSuccess(res, { user_id: member.id, email: member.email, max_message_id: -1, role: 400 });
    expect(res.body.avatar_url).toMatch(/gravatar/);
  });
});

describe('PATCH /users/{id}', () => {
  it('changes role and name, and the change shows in system groups', async () => {
    const u = await t.createUser();
    expectSuccess(await t.patch(`users/${u.id}`, { as: admin, form: { role: 300, full_name: 'Moderator Now' } }));
    expect((await t.get(`users/${u.id}`)).body.user).toMatchObject({ role: 300, full_name: 'Moderator Now' });
    const groups = (await t.get('user_groups')).body.user_groups;
    const moderators = groups.find((g: { name: string }) => g.name === 'role:moderators');
    const check = (gid: number, direct: boolean) =>
      t.get(`user_groups/${gid}/members/${u.id}`, { query: { direct_member_only: direct } });
    expect((await check(moderators.id, true)).body.is_user_group_member).toBe(true);
    const members = groups.find((g: { name: string }) => g.name === 'role:members');
    expect((await check(members.id, false)).body.is_user_group_member).toBe(true);
    expect((await check(members.id, true)).body.is_user_group_member).toBe(false);
  });

  it('needs an owner for anything touching ownership', async () => {
    const u = await t.createUser();
    expectError(await t.patch(`users/${u.id}`, { as: admin, form: { role: 100 } }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await t.patch(`users/${u.id}`, { form: { role: 100 } }));
    expectError(await t.patch(`users/${u.id}`, { as: admin, form: { role: 400 } }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await t.patch(`users/${u.id}`, { form: { role: 400 } }));
  });

  it('keeps the only owner', async () => {
    expectError(
      await t.patch(`users/${t.owner.id}`, { form: { role: 200 } }),
      400,
      'The owner permission cannot be removed from the only organization owner.',
    );
  });

  it('refuses members and unknown ids, and validates values', async () => {
    expectError(await t.patch(`users/${admin.id}`, { as: member, form: { full_name: 'X' } }), 400, 'Insufficient permission');
    expectError(await t.patch('users/424242', { form: { full_name: 'X' } }), 400, 'No such user');
    expectError(await t.patch(`users/${member.id}`, { form: { role: 500 } }), 400, 'Invalid role');
    expectError(await t.patch(`users/${member.id}`, { form: { full_name: 'a"b' } }), 400, 'Invalid characters in name!');
  });

  it('accepts an unchanged role from an administrator without change', async () => {
    expectSuccess(await t.patch(`users/${member.id}`, { as: admin, form: { role: 400 } }));
  });
});

describe('deactivation and reactivation', () => {
  it('deactivates a user, whose key then stops working, and reactivates them', async () => {
    const u = await t.createUser();
    expectSuccess(await t.delete(`users/${u.id}`, { as: admin }));
    expect((await t.get(`users/${u.id}`)).body.user.is_active).toBe(false);
    expect((await t.get('users/me', { as: u })).status).toBe(401);
    expectError(await t.delete(`users/${u.id}`, { as: admin }), 400, 'User is deactivated');
    expectSuccess(await t.post(`users/${u.id}/reactivate`, { as: admin }));
    expectSuccess(await t.get('users/me', { as: u }));
  });

  it('deactivates the bots a user owns with them', async () => {
    const u = await t.createUser();
    const bot = await t.createBot(u, `owned${u.id}`);
    expectSuccess(await t.delete(`users/${u.id}`));
    expect((await t.get(`users/${bot.id}`)).body.user.is_active).toBe(false);
  });

  it('protects owners and the only owner', async () => {
    expectError(await t.delete(`users/${t.owner.id}`, { as: admin }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.delete(`users/${t.owner.id}`), 400, 'Cannot deactivate the only organization owner');
  });

  it('refuses members, bots and unknown ids', async () => {
    expectError(await t.delete(`users/${admin.id}`, { as: member }), 400, 'Insufficient permission');
    const bot = await t.createBot(member, 'notauser');
    expectError(await t.delete(`users/${bot.id}`), 400, 'No such user');
    expectError(await t.delete('users/777777'), 400, 'No such user');
    expectError(await t.post('users/777777/reactivate'), 400, 'No such user');
  });

  it('lets a user leave unless they are the only owner', async () => {
    expectError(await t.delete('users/me'), 400, 'Cannot deactivate the only organization owner.', 'CANNOT_DEACTIVATE_LAST_USER', {
      is_last_owner: true,
      entity: 'organization owner',
    });
    const leaver = await t.createUser();
    expectSuccess(await t.delete('users/me', { as: leaver }));
    expect((await t.get(`users/${leaver.id}`)).body.user.is_active).toBe(false);
  });
});

describe('POST /bots', () => {
  it('creates a bot owned by the caller, with an API key that works', async () => {
    const res = await t.post('bots', { as: member, form: { full_name: 'Deploy Bot', short_name: 'deploy' } });
    expectSuccess(res);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      user_id: expect.any(Number),
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    const bot = { id: res.body.user_id, email: 'deploy-bot@chat.example.com', apiKey: res.body.api_key };
    expectSuccess(await t.get('users/me', { as: bot }), { is_bot: true, bot_type: 1, bot_owner_id: member.id });
  });

  it.each([
    [{ full_name: 'X Bot', short_name: '  ' }, 'Bad name or username'],
    [{ full_name: '', short_name: 'x' }, 'Name must not be empty!'],
    [{ full_name: 'Other', short_name: 'deploy' }, 'Username already in use'],
    [{ full_name: 'Deploy Bot', short_name: 'deploy2' }, 'Name is already in use.'],
    [{ full_name: 'Embedded', short_name: 'emb', bot_type: 4 }, 'Invalid bot type'],
    [{ full_name: 'Weird', short_name: 'weird', bot_type: 9 }, 'Invalid bot type'],
    [{ full_name: 'Sender', short_name: 'sender', default_sending_stream: 'nope' }, "Invalid channel name 'nope'"],
  ])('rejects %j: %s', async (form, msg) => {
    expectError(await t.post('bots', { as: member, form }), 400, msg);
  });

  it('refuses guests', async () => {
    const guest = await t.createUser({ role: 600 });
    expectError(await t.post('bots', { as: guest, form: { full_name: 'G', short_name: 'g' } }), 400, 'Not allowed for guest users');
  });

  it('lets a bot’s owner reactivate it, not other members', async () => {
    const bot = await t.createBot(member, 'revive');
    const other = await t.createUser();
    expectSuccess(await t.delete(`users/${member.id}`));
    expectSuccess(await t.post(`users/${member.id}/reactivate`));
    expectError(await t.post(`users/${bot.id}/reactivate`, { as: other }), 400, 'Insufficient permission');
    expectSuccess(await t.post(`users/${bot.id}/reactivate`, { as: member }));
    expect((await t.get(`users/${bot.id}`)).body.user.is_active).toBe(true);
  });
});
