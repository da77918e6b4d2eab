import pg from 'pg';
import { type Account, expectError, expectSuccess, OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

let t: TestApp;
let member: Account;
beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser();
});
afterAll(() => t.close());

const me = (auth: string | undefined) => {
  const req = t.http.get('/api/v1/users/me');
  return auth === undefined ? req : req.set('Authorization', auth);
};
const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

async function sql(query: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    return await c.query(query, params);
  } finally {
    await c.end();
    await t.settled();
  }
}

describe('HTTP Basic authentication', () => {
  it('accepts the email (any case, surrounding spaces) with the API key', async () => {
    expectSuccess(await me(basic(`${t.owner.email}:${t.owner.apiKey}`)), { user_id: t.owner.id });
    expectSuccess(await me(basic(` OWNER@Example.com :${t.owner.apiKey} `)), { user_id: t.owner.id });
  });

  it('asks for credentials when there are none', async () => {
    const res = await me(undefined);
    expectError(res, 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Basic realm="zulip"');
  });

  it('refuses other schemes with a 400 and no challenge', async () => {
    const res = await me('Bearer abc');
    expectError(res, 400, 'This endpoint requires HTTP basic authentication.');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it.each([
    ['Basic', 'no credentials'],
    ['Basic a b', 'three parts'],
    ['Basic %%%%', 'not base64'],
    [basic('no-colon-here'), 'no colon'],
    [basic('a:b:c'), 'two colons'],
  ])('refuses a malformed header (%s: %s)', async (header) => {
    const res = await me(header);
    expectError(res, 401, 'Invalid authorization header for basic auth', 'UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Basic realm="zulip"');
  });

  it('checks the key format before any lookup', async () => {
    expectError(await me(basic(`${t.owner.email}:short`)), 401, 'Malformed API key', 'UNAUTHORIZED');
    expectError(await me(basic(`${t.owner.email}:${'x'.repeat(31)}!`)), 401, 'Malformed API key', 'UNAUTHORIZED');
    expectError(await me(basic(`${t.owner.email}:`)), 401, 'Malformed API key', 'UNAUTHORIZED');
  });

  it('answers unknown keys, other users’ keys and unknown emails alike', async () => {
    const invalid = (res: Awaited<ReturnType<typeof me>>) => expectError(res, 401, 'Invalid API key', 'UNAUTHORIZED');
    invalid(await me(basic(`${t.owner.email}:${'a'.repeat(32)}`)));
    invalid(await me(basic(`${t.owner.email}:${member.apiKey}`)));
    invalid(await me(basic(`nobody@example.com:${member.apiKey}`)));
    invalid(await me(basic(`:${member.apiKey}`)));
  });

  it('refuses incoming-webhook bots on normal endpoints', async () => {
    const hook = await t.createBot(t.owner, 'hook', 2);
    expectError(
      await t.get('users/me', { as: hook }),
      401,
      'This API is not available to incoming webhook bots.',
      'UNAUTHORIZED',
    );
  });

  it('refuses deactivated users and deactivated organizations', async () => {
    const gone = await t.createUser();
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await t.get('users/me', { as: gone }), 401, 'Account is deactivated', 'UNAUTHORIZED');
    await sql('UPDATE realms SET deactivated = true');
    try {
      // Written behind the server's back: its cached credentials go when the notification arrives.
      await vi.waitFor(async () => expectError(await t.get('users/me'), 401, 'This organization has been deactivated', 'UNAUTHORIZED'), { timeout: 10_000, interval: 20 });
    } finally {
      await sql('UPDATE realms SET deactivated = false');
    }
  });
});

describe('role requirements run before parameters', () => {
  it('gives a member with no parameters the permission error', async () => {
    expectError(await t.post('users', { as: member }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
  });
  it('keeps guests and bots out of member-only endpoints', async () => {
    const guest = await t.createUser({ role: 600 });
    expectError(await t.get('user_groups', { as: guest }), 400, 'Not allowed for guest users');
    const bot = await t.createBot(member, 'helper');
    expectError(await t.post('bots', { as: bot }), 400, 'This endpoint does not accept bot requests.');
  });
});

describe('POST /fetch_api_key', () => {
  it('exchanges the password for the API key', async () => {
    const res = await t.post('fetch_api_key', { as: null, form: { username: 'Owner@Example.com', password: OWNER_PASSWORD } });
    expectSuccess(res);
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: t.owner.apiKey, email: OWNER_EMAIL, user_id: t.owner.id });
  });

  it('works with multipart bodies, as zulip-js sends them', async () => {
    const res = await t.post('fetch_api_key', { as: null, multipart: { username: OWNER_EMAIL, password: OWNER_PASSWORD } });
    expectSuccess(res, { api_key: t.owner.apiKey });
  });

  it('needs both parameters, username first', async () => {
    expectError(await t.post('fetch_api_key', { as: null, form: {} }), 400, "Missing 'username' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'username',
    });
    expectError(
      await t.post('fetch_api_key', { as: null, form: { username: OWNER_EMAIL } }),
      400,
      "Missing 'password' argument",
      'REQUEST_VARIABLE_MISSING',
      { var_name: 'password' },
    );
  });

  it('requires an email address as username', async () => {
    expectError(await t.post('fetch_api_key', { as: null, form: { username: 'owner', password: 'x' } }), 400, 'Enter a valid email address.');
  });

  it.each([
    ['a wrong password', OWNER_EMAIL, 'wrong'],
    ['an unknown user', 'ghost@example.com', OWNER_PASSWORD],
    ['an empty password', OWNER_EMAIL, ''],
  ])('refuses %s with AUTHENTICATION_FAILED and no challenge', async (_, username, password) => {
    const res = await t.post('fetch_api_key', { as: null, form: { username, password } });
    expectError(res, 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('refuses bots, which have no password', async () => {
    await t.createBot(t.owner, 'pwless');
    expectError(
      await t.post('fetch_api_key', { as: null, form: { username: 'pwless-bot@chat.example.com', password: 'x' } }),
      401,
      'Your username or password is incorrect',
      'AUTHENTICATION_FAILED',
    );
  });

  it('reports deactivated accounts and organizations, even with a wrong password', async () => {
    const res = await t.post('users', { form: { email: 'leaver@example.com', password: 'Leaver-pass-9876', full_name: 'Leaver' } });
    expectSuccess(await t.delete(`users/${res.body.user_id}`));
    const attempt = (password: string) => t.post('fetch_api_key', { as: null, form: { username: 'leaver@example.com', password } });
    expectError(await attempt('wrong'), 401, 'Account is deactivated', 'USER_DEACTIVATED');
    expectError(await attempt('Leaver-pass-9876'), 401, 'Account is deactivated', 'USER_DEACTIVATED');
    await sql('UPDATE realms SET deactivated = true');
    try {
      expectError(
        await t.post('fetch_api_key', { as: null, form: { username: OWNER_EMAIL, password: OWNER_PASSWORD } }),
        401,
        'This organization has been deactivated',
        'REALM_DEACTIVATED',
      );
    } finally {
      await sql('UPDATE realms SET deactivated = false');
    }
  });

  it('says when password authentication is off', async () => {
    await sql('UPDATE realms SET password_auth_enabled = false');
    try {
      expectError(
        await t.post('fetch_api_key', { as: null, form: { username: OWNER_EMAIL, password: OWNER_PASSWORD } }),
        401,
        'Password authentication is disabled in this organization',
        'PASSWORD_AUTH_DISABLED',
      );
    } finally {
      await sql('UPDATE realms SET password_auth_enabled = true');
    }
  });
});
