import { type Account, expectError, TestApp } from '../../support/test-app.js';

/**
 * GET /compatibility (issue 25, Zulip's check_global_compatibility): the mobile apps' start-up
 * check, outside /api/v1 and without credentials; decided by the User-Agent alone.
 */
let t: TestApp;
let member: Account;
let otherOwner: Account;

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser();
  otherOwner = await t.createOrganization('compatother');
});
afterAll(() => t.close());

const check = (userAgent: string | null, host?: string) => {
  let req = t.http.get('/compatibility');
  if (host !== undefined) req = req.set('Host', host);
  return userAgent === null ? req : req.set('User-Agent', userAgent);
};

describe('GET /compatibility', () => {
  it.each([
    'ZulipMobile/27.192 (Android 14)',
    'ZulipMobile/16.2.96 (Android 8.0)',
    'ZulipMobile/16.2.95 (iOS 12.0)',
    'ZulipMobile/beta (Android 9)',
    'ZulipElectron/5.11.1',
    'ZulipTerminal/0.7.0',
    'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
    '',
  ])('welcomes %j', async (ua) => {
    const res = await check(ua);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });

  it.each(['ZulipInvalid', 'ZulipInvalid/1.0', 'ZulipMobile/16.2.95 (Android 8.0)', 'ZulipMobile/1.0 (Android 5)'])('tells %j that it is too old', async (ua) => {
    expectError(await check(ua), 400, 'Client is too old');
  });

  it('needs a User-Agent', async () => {
    // supertest sends no User-Agent of its own.
    expectError(await check(null), 400, 'User-Agent header missing from request');
  });

  it('answers the same with credentials of any kind, any organization, and for an oversized User-Agent', async () => {
    const ua = 'ZulipMobile/16.2.95 (Android 8.0)';
    expectError(await check(ua).auth(member.email, member.apiKey), 400, 'Client is too old');
    expectError(await check(ua, otherOwner.host).auth(otherOwner.email, otherOwner.apiKey), 400, 'Client is too old');
    expectError(await check(ua).auth(member.email, 'x'.repeat(32)), 400, 'Client is too old');
    const long = `ZulipMobile/${'99.'.repeat(2000)}9 (Android 8.0)`;
    expect((await check(long)).body).toEqual({ result: 'success', msg: '' });
  });
});
