import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Endpoints of services this server does not run (issue 25): the video call providers and JWT
 * login answer as Zulip does where they are not configured; BigBlueButton's create hands out
 * Zulip's signed link to its join page, which is where an unconfigured server says so.
 */
let t: TestApp;
let admin: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200 });
  member = await t.createUser();
  guest = await t.createUser({ role: 600 });
  bot = await t.createBot(member, 'caller');
  otherOwner = await t.createOrganization('callsother');
});
afterAll(() => t.close());

const NOT_LOGGED_IN = ['Not logged in: API authentication or user session required', 'UNAUTHORIZED'] as const;

describe('video calls', () => {
  it.each([
    ['calls/zoom/create', {}, 'Zoom credentials have not been configured'],
    ['calls/zoom/create', { is_video_call: false }, 'Zoom credentials have not been configured'],
    ['calls/constructorgroups/create', { is_video_call: true }, 'Constructor Groups is not configured.'],
    ['calls/nextcloud_talk/create', { room_name: '#general > standup' }, 'Nextcloud Talk is not configured.'],
  ])('POST %s %j: not configured, for every kind of user and organization', async (path, form, msg) => {
    for (const as of [t.owner, admin, member, guest, bot, otherOwner]) expectError(await t.post(path, { as, form }), 400, msg);
    expectError(await t.post(path, { as: null, form }), 401, ...NOT_LOGGED_IN);
  });

  it.each([
    ['calls/zoom/create', { is_video_call: 'yes' }, 'is_video_call is not valid JSON'],
    ['calls/zoom/create', { is_video_call: 1 }, 'is_video_call is not a boolean'],
    ['calls/constructorgroups/create', { is_video_call: '"x"' }, 'is_video_call is not a boolean'],
    ['calls/nextcloud_talk/create', {}, "Missing 'room_name' argument"],
  ])('POST %s %j: the parameters are checked first (%s)', async (path, form, msg) => {
    const res = await t.post(path, { as: member, form });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg });
  });

  it('BigBlueButton: a signed link to the join page, which says the server is not configured', async () => {
    const res = await t.get('calls/bigbluebutton/create', { as: member, query: { meeting_name: 'Standup', voice_only: true } });
    expectSuccess(res);
    expect(Object.keys(res.body).sort()).toEqual(['msg', 'result', 'url']);
    expect(res.body.url).toMatch(/^\/calls\/bigbluebutton\/join\?bigbluebutton=[\w%-]+$/);
    const signed = decodeURIComponent(res.body.url.split('=')[1]);
    const [payload, signature] = signed.split(':');
    expect(signature).toMatch(/^[\w-]{43}$/);
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ name: 'Standup', lock_settings_disable_cam: true, moderator: member.id });
    // Every caller gets a link of their own.
    for (const as of [guest, bot, otherOwner]) expectSuccess(await t.get('calls/bigbluebutton/create', { as, query: { meeting_name: 'Call' } }));

    const join = await t.http.get(res.body.url);
    expectError(join, 400, 'BigBlueButton is not configured.');
    expectError(await t.http.get('/calls/bigbluebutton/join?bigbluebutton=forged'), 400, 'BigBlueButton is not configured.');
  });

  it('BigBlueButton: parameters checked, an oversized name is only a longer link, no credentials refused', async () => {
    expectError(await t.get('calls/bigbluebutton/create', { as: member }), 400, "Missing 'meeting_name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'meeting_name' });
    expectError(await t.get('calls/bigbluebutton/create', { as: member, query: { meeting_name: 'x', voice_only: 'maybe' } }), 400, 'voice_only is not valid JSON');
    const long = await t.get('calls/bigbluebutton/create', { as: member, query: { meeting_name: 'n'.repeat(5000) } });
    expectSuccess(long);
    expectError(await t.get('calls/bigbluebutton/create', { as: null, query: { meeting_name: 'x' } }), 401, ...NOT_LOGGED_IN);
    expectError(await t.http.get('/calls/bigbluebutton/join'), 400, "Missing 'bigbluebutton' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'bigbluebutton' });
  });
});

describe('POST /jwt/fetch_api_key', () => {
  it('JWT authentication is not enabled, in any organization, before the token is looked at', async () => {
    for (const host of [undefined, otherOwner.host]) {
      for (const form of [{}, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6Im93bmVyQGV4YW1wbGUuY29tIn0.c2ln' }, { token: 'x'.repeat(20_000), include_profile: true }]) {
        expectError(await t.post('jwt/fetch_api_key', { as: null, host, form }), 400, 'JWT authentication is not enabled for this organization');
      }
    }
    // Credentials change nothing: it is a login endpoint.
    expectError(await t.post('jwt/fetch_api_key', { as: member, form: {} }), 400, 'JWT authentication is not enabled for this organization');
  });

  it('checks its parameters first, and knows no unknown organization', async () => {
    expectError(await t.post('jwt/fetch_api_key', { as: null, form: { include_profile: 'yes' } }), 400, 'include_profile is not valid JSON');
    expectError(await t.post('jwt/fetch_api_key', { as: null, host: 'nowhere.chat.example.com', form: {} }), 404, 'Invalid subdomain', 'NONEXISTENT_SUBDOMAIN');
  });

  it('is not served to browser sessions (/json answers as an unknown route)', async () => {
    const res = await t.http.post('/json/jwt/fetch_api_key').type('form').send({ token: 'x' });
    expect(res.status).toBe(404);
  });
});
