import { createHash } from 'node:crypto';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { configureBrowserSessions, ensureCsrfCookie } from '../../../src/shared/auth/browser-cookies.js';
import { ServerConfig } from '../../../src/shared/config/server-config.js';
import { WriteCounter, changedTables } from '../../support/api-fuzz.js';
import { type BrowserSession, cookieHeader, json, logIn, postLogin, setCookies, someToken } from '../../support/sessions.js';
import { type Account, expectError, expectSuccess, OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/**
 * Browser sessions (issue 23, the contract in the web app's brief): the login form, the
 * `sessionid` and `csrftoken` cookies, /json as /api/v1 with session authentication and CSRF,
 * logout, expiry and idle timeout, the sessions a password change or a deactivation ends, and
 * uploads loaded with the cookie. This app runs with a two-hour lifetime and a 30-minute idle
 * timeout, so TestClock can cross both.
 */
const LIFETIME = 7200;
const IDLE = 1800;
const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

let t: TestApp;
let member: Account;
const MEMBER_PASSWORD = 'Member-session-pass-77';
const logLines: string[] = [];

beforeAll(async () => {
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  t = await TestApp.start({ SESSION_LIFETIME_SECONDS: String(LIFETIME), SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE) }, log);
  expectSuccess(await t.post('users', { form: { email: 'member@example.com', password: MEMBER_PASSWORD, full_name: 'Member' } }));
  member = await t.login('member@example.com', MEMBER_PASSWORD);
});
afterAll(() => t.close());

const me = (s: Partial<BrowserSession> | null) => json(t, 'get', 'users/me', s);
const sessionRows = (userId: number) => t.sql(`SELECT * FROM sessions WHERE user_id = $1 ORDER BY created_at`, [userId]);
const expectLoggedOut = async (s: Partial<BrowserSession> | null) => {
  const res = await me(s);
  expectError(res, 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
  expect(res.headers['www-authenticate']).toBe('Session realm="zulip"');
};

describe('POST /accounts/login/', () => {
  it('starts a session: HttpOnly SameSite=Lax cookie, a new CSRF token, the user but never the API key', async () => {
    const sent = someToken('a');
    const res = await postLogin(t, ' Member@Example.com ', MEMBER_PASSWORD, { csrftoken: sent });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { result: 'success', msg: '', user_id: member.id, email: 'member@example.com' } });
    expect(res.text).not.toContain(member.apiKey);
    const { sessionid, csrftoken } = setCookies(res);
    expect(sessionid.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessionid.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax', 'max-age': String(LIFETIME) });
    expect(sessionid.attributes).not.toHaveProperty('secure');
    expect(csrftoken.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrftoken.value).not.toBe(sent); // rotated
    expect(csrftoken.attributes).toMatchObject({ path: '/', samesite: 'Lax' });
    expect(csrftoken.attributes).not.toHaveProperty('httponly');
    // Only the token's SHA-256 is stored.
    const rows = await t.sql(`SELECT * FROM sessions WHERE token_sha256 = $1`, [sha256(sessionid.value)]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: member.id, expires_at: new Date(t.clock.now().getTime() + LIFETIME * 1000) });
    expect(JSON.stringify(await t.sql(`SELECT * FROM sessions`))).not.toContain(sessionid.value);
    expectSuccess(await me({ sessionid: sessionid.value, csrftoken: csrftoken.value }), { user_id: member.id });
  });

  it('takes form-encoded, multipart and JSON bodies', async () => {
    const csrftoken = someToken('b');
    const send = () => t.http.post('/accounts/login/').set('Cookie', `csrftoken=${csrftoken}`).set('X-CSRFToken', csrftoken);
    expectSuccess(await send().field('username', 'member@example.com').field('password', MEMBER_PASSWORD), { user_id: member.id });
    expectSuccess(await send().send({ username: 'member@example.com', password: MEMBER_PASSWORD }), { user_id: member.id });
    expectSuccess(await send().type('form').send({ username: 'member@example.com', password: MEMBER_PASSWORD }), { user_id: member.id });
  });

  it('answers as fetch_api_key does, and sets no session, on every failure', async () => {
    const before = (await t.sql(`SELECT count(*)::int AS n FROM sessions`))[0].n;
    const refused = async (username: string, password: string, status: number, msg: string, code: string) => {
      const res = await postLogin(t, username, password);
      expectError(res, status, msg, code);
      expect(setCookies(res)).not.toHaveProperty('sessionid');
    };
    await refused('member@example.com', 'wrong', 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    await refused('ghost@example.com', MEMBER_PASSWORD, 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    await refused('member@example.com', '', 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    await refused('member', 'x', 400, 'Enter a valid email address.', 'BAD_REQUEST');
    await t.createBot(t.owner, 'nopass');
    await refused('nopass-bot@chat.example.com', 'x', 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    const gone = await t.post('users', { form: { email: 'gone@example.com', password: 'Gone-pass-98765', full_name: 'Gone' } });
    expectSuccess(await t.delete(`users/${gone.body.user_id}`));
    await refused('gone@example.com', 'Gone-pass-98765', 401, 'Account is deactivated', 'USER_DEACTIVATED');
    await t.sql('UPDATE realms SET deactivated = true');
    try {
      await refused(OWNER_EMAIL, OWNER_PASSWORD, 401, 'This organization has been deactivated', 'REALM_DEACTIVATED');
    } finally {
      await t.sql('UPDATE realms SET deactivated = false');
    }
    await t.sql('UPDATE realms SET password_auth_enabled = false');
    try {
      await refused(OWNER_EMAIL, OWNER_PASSWORD, 401, 'Password authentication is disabled in this organization', 'PASSWORD_AUTH_DISABLED');
    } finally {
      await t.sql('UPDATE realms SET password_auth_enabled = true');
    }
    const missing = await t.http.post('/accounts/login/').set('Cookie', `csrftoken=${someToken()}`).set('X-CSRFToken', someToken()).type('form').send({});
    expectError(missing, 400, "Missing 'username' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'username' });
    expect((await t.sql(`SELECT count(*)::int AS n FROM sessions`))[0].n).toBe(before);
  });

  it('needs the CSRF token like every browser form', async () => {
    const res = await t.http.post('/accounts/login/').type('form').send({ username: 'member@example.com', password: MEMBER_PASSWORD });
    expectError(res, 403, 'CSRF error: CSRF cookie not set.', 'CSRF_FAILED', { reason: 'CSRF cookie not set.' });
    expect(setCookies(res)).toEqual({});
  });

  it('ends the browser’s previous session, and emails the user about the new login', async () => {
    t.clock.advance(61); // no login email in an account's first minute
    const first = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    await t.sql(`DELETE FROM email_outbox`);
    const res = await postLogin(t, 'member@example.com', MEMBER_PASSWORD, { sessionid: first.sessionid });
    expectSuccess(res);
    await expectLoggedOut(first);
    expectSuccess(await me({ sessionid: setCookies(res).sessionid.value }));
    expect(await t.sql(`SELECT kind, to_address FROM email_outbox`)).toEqual([{ kind: 'new_login', to_address: 'member@example.com' }]);
  });
});

describe('/json', () => {
  let s: BrowserSession;
  beforeAll(async () => {
    s = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
  });

  it('serves the API with the session cookie; without one: 401 with a Session challenge (no browser dialog)', async () => {
    const res = await me(s);
    expectSuccess(res, { user_id: member.id, email: 'member@example.com' });
    expect(res.text).not.toContain(member.apiKey);
    await expectLoggedOut(null);
    await expectLoggedOut({ csrftoken: s.csrftoken });
    // Public operations need no session.
    expectSuccess(await json(t, 'get', 'server_settings', null), { realm_name: expect.any(String) });
    expectSuccess(await me(s));
    // The request log names the /json route, never the URL.
    const routes = logLines.map((l) => JSON.parse(l) as { msg: string; route?: string; userId?: number }).filter((l) => l.msg === 'request');
    expect(routes).toContainEqual(expect.objectContaining({ route: '/json/server_settings' }));
    expect(routes).toContainEqual(expect.objectContaining({ route: '/json/users/me', userId: member.id }));
  });

  it('ignores the Authorization header', async () => {
    const basic = `Basic ${Buffer.from(`${t.owner.email}:${t.owner.apiKey}`).toString('base64')}`;
    expectSuccess(await me(s).set('Authorization', basic), { user_id: member.id });
    expectSuccess(await me(s).set('Authorization', 'Bearer nonsense'), { user_id: member.id });
    const res = await me(null).set('Authorization', basic);
    expectError(res, 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
  });

  it('needs X-CSRFToken equal to the csrftoken cookie on unsafe methods, and a present Origin to be its own', async () => {
    const status = (o: Parameters<typeof json>[4], session: Partial<BrowserSession> = s) =>
      json(t, 'post', 'users/me/status', session, { form: { status_text: 'here' }, ...o });
    const csrf = (reason: string) => ({ status: 403, body: { result: 'error', msg: `CSRF error: ${reason}`, reason, code: 'CSRF_FAILED' } });
    const answer = async (r: request.Test) => {
      const res = await r;
      return { status: res.status, body: res.body };
    };
    expect(await answer(status({ csrf: null }))).toEqual(csrf('CSRF token missing.'));
    expect(await answer(status({ csrf: someToken('z') }))).toEqual(csrf('CSRF token incorrect.'));
    expect(await answer(status({ csrf: s.csrftoken.slice(1) }))).toEqual(csrf('CSRF token incorrect.'));
    expect(await answer(status({}, { sessionid: s.sessionid }))).toEqual(csrf('CSRF cookie not set.'));
    expect(await answer(status({ origin: 'https://evil.example' }))).toEqual(csrf('Origin checking failed - https://evil.example does not match any trusted origins.'));
    expect(await answer(status({ origin: 'null' }))).toEqual(csrf('Origin checking failed - null does not match any trusted origins.'));
    // Two csrftoken cookies: ambiguous, refused.
    const twice = json(t, 'post', 'users/me/status', null, { form: { status_text: 'x' }, csrf: s.csrftoken }).set('Cookie', `sessionid=${s.sessionid}; csrftoken=${s.csrftoken}; csrftoken=${someToken('q')}`);
    expect(await answer(twice)).toEqual(csrf('CSRF token incorrect.'));
    // Without a session the CSRF check still comes first (Django's middleware runs before the view).
    expect(await answer(json(t, 'post', 'users/me/status', { csrftoken: s.csrftoken }, { form: { status_text: 'x' }, csrf: null }))).toEqual(csrf('CSRF token missing.'));
    expectSuccess(await status({}));
    expectSuccess(await status({ origin: 'http://chat.example.com', host: 'chat.example.com' }));
    expect(await answer(status({ origin: 'http://chat.example.com:8080', host: 'chat.example.com' }))).toEqual(
      csrf('Origin checking failed - http://chat.example.com:8080 does not match any trusted origins.'),
    );
    // Safe methods need no token.
    expectSuccess(await json(t, 'get', 'users/me', s, { csrf: null }));
  });

  it('refuses a cross-site form post carrying the cookie, and writes nothing', async () => {
    const counter = await WriteCounter.install(t.databaseUrl);
    try {
      const before = await counter.take();
      const body = 'type=stream&to=general&topic=x&content=forged';
      for (const origin of [undefined, 'https://evil.example']) {
        let req = t.http.post('/json/messages').set('Cookie', cookieHeader(s)).type('form');
        if (origin) req = req.set('Origin', origin);
        const res = await req.send(body);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('CSRF_FAILED');
      }
      expect(changedTables(before, await counter.take())).toEqual([]);
    } finally {
      await counter.query(`DROP FUNCTION fuzz_count_write() CASCADE; DROP TABLE fuzz_writes`);
      await counter.close();
    }
  });

  it('never answers the user’s own API key: the key routes are unknown there', async () => {
    const notFound = { status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } };
    for (const path of ['fetch_api_key', 'users/me/api_key/regenerate', 'Fetch_Api_Key', 'fetch_api_key/', 'users//me/api_key/regenerate', 'fetch%5Fapi%5Fkey', 'users/me/API_KEY/regenerate/']) {
      const res = await json(t, 'post', path, s, { form: { username: 'member@example.com', password: MEMBER_PASSWORD } });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, ...notFound });
    }
    const register = await json(t, 'post', 'register', s, {});
    expectSuccess(register);
    expect(register.text).not.toContain(member.apiKey);
    expect((await t.sql(`SELECT api_key FROM users WHERE id = $1`, [member.id]))[0].api_key).toBe(member.apiKey);
  });

  it('answers malformed, huge and duplicate cookies with 401, never a 500', async () => {
    const cookies = [
      'sessionid=%%%garbage',
      `sessionid=${'A'.repeat(8000)}`,
      `sessionid=${s.sessionid}; sessionid=${someToken('d')}`,
      `sessionid=${s.sessionid}; sessionid=${s.sessionid}`,
      `sessionid="${s.sessionid}"`,
      ';;;==; =sessionid; sessionid',
      `sessionid=${s.sessionid.slice(0, 42)}`,
      `sessionid=${someToken('e')}`,
      'sessionid=',
    ];
    for (const cookie of cookies) {
      const res = await t.http.get('/json/users/me').set('Cookie', cookie);
      expect({ cookie: cookie.slice(0, 60), status: res.status, code: res.body.code }).toEqual({ cookie: cookie.slice(0, 60), status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it("does not accept another organization's session on this organization's address", async () => {
    const otherOwner = await t.createOrganization('elsewhere');
    const theirs = await logIn(t, OWNER_EMAIL, OWNER_PASSWORD, otherOwner.host);
    expectSuccess(await me(theirs), { user_id: otherOwner.id });
    await expectLoggedOut({ ...theirs, host: undefined });
  });
});

describe('POST /accounts/logout/', () => {
  it('ends the session on the server and clears the cookie; the old cookie is refused afterwards', async () => {
    const s = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    const refused = await t.http.post('/accounts/logout/').set('Cookie', cookieHeader(s));
    expectError(refused, 403, 'CSRF error: CSRF token missing.', 'CSRF_FAILED', { reason: 'CSRF token missing.' });
    expectSuccess(await me(s));
    const res = await t.http.post('/accounts/logout/').set('Cookie', cookieHeader(s)).set('X-CSRFToken', s.csrftoken);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const cleared = setCookies(res).sessionid;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.attributes.expires as string).getTime()).toBeLessThanOrEqual(0);
    expect(await t.sql(`SELECT 1 FROM sessions WHERE token_sha256 = $1`, [sha256(s.sessionid)])).toEqual([]);
    await expectLoggedOut(s);
    // Without a session (or with an ended one) it succeeds all the same.
    expectSuccess(await t.http.post('/accounts/logout/').set('Cookie', cookieHeader(s)).set('X-CSRFToken', s.csrftoken));
    expectSuccess(await t.http.post('/accounts/logout/').set('Cookie', `csrftoken=${s.csrftoken}`).set('X-CSRFToken', s.csrftoken));
  });
});

describe('time', () => {
  it('ends a session idle for SESSION_IDLE_TIMEOUT_SECONDS; requests keep it alive, written at most once a minute', async () => {
    const s = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    const lastSeen = async () => (await t.sql(`SELECT last_seen_at FROM sessions WHERE token_sha256 = $1`, [sha256(s.sessionid)]))[0].last_seen_at.getTime();
    const loginAt = t.clock.now().getTime();
    t.clock.advance(30);
    expectSuccess(await me(s));
    expect(await lastSeen()).toBe(loginAt);
    t.clock.advance(31);
    expectSuccess(await me(s));
    expect(await lastSeen()).toBe(t.clock.now().getTime());
    t.clock.advance(IDLE - 1);
    expectSuccess(await me(s));
    t.clock.advance(IDLE);
    await expectLoggedOut(s);
  });

  it('ends a session SESSION_LIFETIME_SECONDS after its login, however busy', async () => {
    const s = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    for (let elapsed = 0; elapsed + IDLE - 100 < LIFETIME; elapsed += IDLE - 100) {
      expectSuccess(await me(s));
      t.clock.advance(IDLE - 100);
    }
    expectSuccess(await me(s));
    t.clock.advance(LIFETIME - 4 * (IDLE - 100));
    await expectLoggedOut(s);
  });

  it('clears away a user’s ended sessions at their next login', async () => {
    t.clock.advance(LIFETIME + 1);
    await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    expect(await sessionRows(member.id)).toHaveLength(1);
  });
});

describe('sessions end where Zulip ends them', () => {
  let user: Account;
  let n = 0;
  const password = () => `Pw-session-${n}-correct-horse`;
  beforeEach(async () => {
    n += 1;
    const email = `ender${n}@example.com`;
    expectSuccess(await t.post('users', { form: { email, password: password(), full_name: `Ender ${n}` } }));
    user = await t.login(email, password());
  });
  const two = async () => [await logIn(t, user.email, password()), await logIn(t, user.email, password())];

  it('a password change ends every other session of the user and keeps the one that made it', async () => {
    const [a, b] = await two();
    const other = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    expectSuccess(await json(t, 'patch', 'settings', a, { form: { old_password: password(), new_password: 'Brand-new-Passphrase-31' } }));
    expectSuccess(await me(a), { user_id: user.id });
    await expectLoggedOut(b);
    expectSuccess(await me(other));
    expect((await sessionRows(user.id)).map((r) => r.token_sha256)).toEqual([sha256(a.sessionid)]);
    // Through the API (no session of its own to keep): all of them.
    expectSuccess(await t.patch('settings', { as: user, form: { old_password: 'Brand-new-Passphrase-31', new_password: 'Another-new-Passphrase-32' } }));
    await expectLoggedOut(a);
    expect(await sessionRows(user.id)).toEqual([]);
  });

  it('a password changed any other way (a reset link, the admin CLI, SQL) invalidates the sessions by their stamp', async () => {
    const [a] = await two();
    await t.sql(`UPDATE users SET password_hash = password_hash || 'x' WHERE id = $1`, [user.id]);
    await expectLoggedOut(a);
  });

  it('a password reset through the emailed link ends them all', async () => {
    const [a] = await two();
    expect((await t.http.post('/accounts/password/reset/').type('form').send({ email: user.email })).status).toBe(200);
    const [{ body }] = await t.sql(`SELECT body FROM email_outbox WHERE to_address = $1 AND kind = 'password_reset'`, [user.email]);
    const token = /\/accounts\/password\/reset\/([0-9a-f]{64})\//.exec(body)![1];
    const reset = await t.http.post(`/accounts/password/reset/${token}/`).type('form').send({ new_password1: 'Reset-Passphrase-4711', new_password2: 'Reset-Passphrase-4711' });
    expect(reset.status).toBe(200);
    expect(await sessionRows(user.id)).toEqual([]);
    await expectLoggedOut(a);
  });

  it('regenerating the API key does not (Zulip’s do_regenerate_api_key leaves sessions alone)', async () => {
    const [a] = await two();
    expectSuccess(await t.post('users/me/api_key/regenerate', { as: user }));
    expectSuccess(await me(a), { user_id: user.id });
  });

  it('deactivation by an administrator ends them all (and reactivation does not bring them back)', async () => {
    const [a, b] = await two();
    expectSuccess(await t.delete(`users/${user.id}`));
    expect(await sessionRows(user.id)).toEqual([]);
    await expectLoggedOut(a);
    await expectLoggedOut(b);
    expectSuccess(await t.post(`users/${user.id}/reactivate`));
    await expectLoggedOut(a);
  });

  it('deactivating oneself through /json ends them all', async () => {
    const [a, b] = await two();
    expectSuccess(await json(t, 'delete', 'users/me', a));
    await expectLoggedOut(a);
    await expectLoggedOut(b);
    expect(await sessionRows(user.id)).toEqual([]);
  });

  it('a deactivated user or organization never authenticates by a session row left behind', async () => {
    const [a] = await two();
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [user.id]);
    await expectLoggedOut(a);
    await t.sql(`UPDATE users SET is_active = true WHERE id = $1`, [user.id]);
    expectSuccess(await me(a));
    await t.sql('UPDATE realms SET deactivated = true WHERE string_id = $1', ['']);
    try {
      await expectLoggedOut(a);
    } finally {
      await t.sql('UPDATE realms SET deactivated = false');
    }
    expectSuccess(await me(a));
  });
});

describe('uploads and custom emoji in the browser', () => {
  it('load with the session cookie alone (no CSRF token for GET); without it, not', async () => {
    const s = await logIn(t, 'member@example.com', MEMBER_PASSWORD);
    const up = await t.http.post('/json/user_uploads').set('Cookie', cookieHeader(s)).set('X-CSRFToken', s.csrftoken).attach('file', Buffer.from('hello from the browser'), 'hello.txt');
    expectSuccess(up);
    const url = up.body.url as string;
    const file = await t.http.get(url).set('Cookie', `sessionid=${s.sessionid}`);
    expect(file.status).toBe(200);
    expect(file.text).toBe('hello from the browser');
    const anonymous = await t.http.get(url);
    expect(anonymous.status).toBe(401);
    const ended = await t.http.get(url).set('Cookie', `sessionid=${someToken('gone')}`);
    expectError(ended, 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    expect(ended.headers['www-authenticate']).toBe('Session realm="zulip"');
    // HTTP Basic still works, and wins over a cookie.
    expect((await t.http.get(url).auth(member.email, member.apiKey).set('Cookie', `sessionid=${someToken('gone')}`)).status).toBe(200);

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const emoji = await t.http.post('/json/realm/emoji/browser_emoji').set('Cookie', cookieHeader(s)).set('X-CSRFToken', s.csrftoken).attach('f1', png, 'e.png');
    expectSuccess(emoji);
    const list = await json(t, 'get', 'realm/emoji', s);
    const source = Object.values(list.body.emoji as Record<string, { name: string; source_url: string }>).find((e) => e.name === 'browser_emoji')!.source_url;
    const image = await t.http.get(source).set('Cookie', `sessionid=${s.sessionid}`);
    expect({ status: image.status, type: image.headers['content-type'] }).toEqual({ status: 200, type: 'image/png' });
  });
});

describe('with an https EXTERNAL_URL and the default settings', () => {
  let https: TestApp;
  beforeAll(async () => {
    https = await t.startPeer({ EXTERNAL_URL: 'https://chat.example.com', RATE_LIMITING: 'true' });
  });
  afterAll(() => https.close());

  it('marks both cookies Secure, lasts two weeks, and takes the https origin behind a TLS proxy', async () => {
    expect(ServerConfig.fromEnv({})).toMatchObject({ sessionLifetimeSeconds: 1_209_600, sessionIdleTimeoutSeconds: 604_800 });
    expect(() => ServerConfig.fromEnv({ SESSION_IDLE_TIMEOUT_SECONDS: '59' })).toThrow('SESSION_IDLE_TIMEOUT_SECONDS must be at least 60');
    const res = await postLogin(https, OWNER_EMAIL, OWNER_PASSWORD);
    expectSuccess(res);
    const { sessionid, csrftoken } = setCookies(res);
    expect(sessionid.attributes).toMatchObject({ secure: true, httponly: true, samesite: 'Lax', path: '/', 'max-age': '1209600' });
    expect(csrftoken.attributes).toMatchObject({ secure: true, samesite: 'Lax', path: '/' });
    const s = { sessionid: sessionid.value, csrftoken: csrftoken.value };
    const host = 'chat.example.com';
    expectSuccess(await json(https, 'post', 'users/me/status', s, { form: { status_text: 'tls' }, origin: 'https://chat.example.com', host }));
    const http = await json(https, 'post', 'users/me/status', s, { form: { status_text: 'tls' }, origin: 'http://chat.example.com', host });
    expect(http.status).toBe(403);
  });

  it('ensureCsrfCookie gives the page a Secure csrftoken once, and keeps a well-formed one', async () => {
    const page = (secure: boolean) => {
      const app = express();
      configureBrowserSessions(app, ServerConfig.fromEnv({ EXTERNAL_URL: secure ? 'https://chat.example.com' : 'http://chat.example.com' }));
      app.get('/', (req, res) => res.send(ensureCsrfCookie(req, res)));
      return app;
    };
    const first = await request(page(true)).get('/');
    const cookie = setCookies(first).csrftoken;
    expect(cookie.value).toBe(first.text);
    expect(cookie.attributes).toMatchObject({ secure: true, samesite: 'Lax', path: '/' });
    expect(cookie.attributes).not.toHaveProperty('httponly');
    const again = await request(page(true)).get('/').set('Cookie', `csrftoken=${cookie.value}`);
    expect(again.text).toBe(cookie.value);
    expect(again.headers['set-cookie']).toBeUndefined();
    const broken = await request(page(false)).get('/').set('Cookie', 'csrftoken=short');
    expect(setCookies(broken).csrftoken.attributes).not.toHaveProperty('secure');
  });

  it('counts browser logins against the login limits, shared with fetch_api_key, and the per-address limit', async () => {
    for (let i = 0; i < 3; i++) expect((await https.post('fetch_api_key', { as: null, form: { username: 'member@example.com', password: 'wrong' } })).status).toBe(401);
    for (let i = 0; i < 2; i++) {
      const res = await postLogin(https, 'member@example.com', 'wrong');
      expect(res.status).toBe(401);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
    }
    const limited = await postLogin(https, 'member@example.com', MEMBER_PASSWORD);
    expectError(limited, 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
    expect(Number(limited.headers['retry-after'])).toBe(limited.body['retry-after']);
    expect(setCookies(limited)).not.toHaveProperty('sessionid');
    https.clock.advance(1801);
    expectSuccess(await postLogin(https, 'member@example.com', MEMBER_PASSWORD));
    // The address: 100 unauthenticated requests a minute, logins among them.
    https.clock.advance(61);
    for (let i = 0; i < 99; i++) expect((await https.get('server_settings', { as: null })).status).toBe(200);
    expect((await postLogin(https, 'nobody@example.com', 'wrong')).status).toBe(401);
    expectError(await postLogin(https, OWNER_EMAIL, OWNER_PASSWORD), 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
  });
});
