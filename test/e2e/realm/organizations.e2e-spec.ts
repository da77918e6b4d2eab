import { type Account, expectError, expectSuccess, OWNER_EMAIL, TestApp } from '../../support/test-app.js';

let t: TestApp;
let otherOwner: Account;
beforeAll(async () => {
  t = await TestApp.start();
  // Same owner email in both organizations: accounts are per organization.
  otherOwner = await t.createOrganization('other');
});
afterAll(() => t.close());

describe('organizations are told apart by subdomain', () => {
  it('serves each organization its own settings', async () => {
    expectSuccess(await t.get('server_settings', { as: null, host: 'other.chat.example.com' }), {
      realm_name: 'Org other',
      realm_url: 'http://other.chat.example.com',
    });
    expectSuccess(await t.get('server_settings', { as: null }), { realm_url: 'http://chat.example.com' });
  });

  it('answers an unknown subdomain with NONEXISTENT_SUBDOMAIN', async () => {
    expectError(await t.get('server_settings', { as: null, host: 'nope.chat.example.com' }), 404, 'Invalid subdomain', 'NONEXISTENT_SUBDOMAIN');
    expectError(
      await t.post('fetch_api_key', { as: null, host: 'nope.chat.example.com', form: { username: OWNER_EMAIL, password: 'x' } }),
      404,
      'Invalid subdomain',
      'NONEXISTENT_SUBDOMAIN',
    );
  });

  it('keeps accounts apart: a key works only on its own organization', async () => {
    expect(otherOwner.id).not.toBe(t.owner.id);
    expect(otherOwner.apiKey).not.toBe(t.owner.apiKey);
    expectSuccess(await t.get('users/me', { as: otherOwner }), { user_id: otherOwner.id });
    expectError(await t.get('users/me', { as: { ...otherOwner, host: undefined } }), 401, 'Invalid API key', 'UNAUTHORIZED');
    expectError(await t.get('users/me', { as: { ...t.owner, host: 'other.chat.example.com' } }), 401, 'Invalid API key', 'UNAUTHORIZED');
  });

  it('never shows one organization’s users or groups to another', async () => {
    const member = await t.createUser();
    const users = (await t.get('users', { as: otherOwner })).body.members.map((m: { user_id: number }) => m.user_id);
    expect(users).toEqual([otherOwner.id]);
    expectError(await t.get(`users/${member.id}`, { as: otherOwner }), 400, 'No such user');
    expectError(await t.patch(`users/${member.id}`, { as: otherOwner, form: { full_name: 'Hijacked' } }), 400, 'No such user');
    const mine = (await t.get('user_groups')).body.user_groups.map((g: { id: number }) => g.id);
    const theirs = (await t.get('user_groups', { as: otherOwner })).body.user_groups.map((g: { id: number }) => g.id);
    expect(mine.filter((id: number) => theirs.includes(id))).toEqual([]);
    expectError(await t.get(`user_groups/${mine[0]}/members/${member.id}`, { as: otherOwner }), 400, 'Invalid user group');
    expectError(
      await t.post('user_groups/create', { as: otherOwner, form: { name: 'x', description: '', members: [member.id] } }),
      400,
      `Invalid user ID: ${member.id}`,
    );
  });

  it('names bots after the organization’s host', async () => {
    const res = await t.post('bots', { as: otherOwner, form: { full_name: 'Other Bot', short_name: 'ob' } });
    expectSuccess(res);
    const bot = (await t.get(`users/${res.body.user_id}`, { as: otherOwner })).body.user;
    expect(bot.email).toBe('ob-bot@other.chat.example.com');
  });
});
