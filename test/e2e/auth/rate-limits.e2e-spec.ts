import { dropRedisKeys, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/redis.js';
import { expectError, expectSuccess, OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/** The same answers whether the counts live in this process or in Redis (REDIS_URL). */
const prefix = uniqueRedisPrefix();
afterAll(() => dropRedisKeys(prefix));

describe.each([
  ['in process', {}],
  ['in Redis', { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix }],
])('counted %s', (_where, env: Record<string, string>) => {
  let t: TestApp;
  beforeAll(async () => {
    if (env.REDIS_URL) await requireRedis();
    t = await TestApp.start({ RATE_LIMITING: 'true', ...env });
    if (env.REDIS_URL) expect((await t.http.get('/health')).body).toEqual({ status: 'ok', details: { email: 'not configured', redis: 'up' } });
  });
  afterAll(async () => {
    // Every count went to Redis: it never fell back to this process's own.
    if (env.REDIS_URL) expect((await t.http.get('/health')).body).toEqual({ status: 'ok', details: { email: 'not configured', redis: 'up' } });
    await t.close();
  });

  const login = (password: string, username = OWNER_EMAIL) =>
    t.post('fetch_api_key', { as: null, form: { username, password } });

  describe('login attempts per username', () => {
    it('refuses the sixth attempt within 30 minutes, even with the right password', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await login('wrong');
        expect(res.status).toBe(401);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
      }
      const res = await login(OWNER_PASSWORD);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': expect.any(Number),
      });
      expect(res.body['retry-after']).toBeGreaterThan(1790);
      expect(Number(res.headers['retry-after'])).toBe(res.body['retry-after']);
      t.clock.advance(1801);
      expectSuccess(await login(OWNER_PASSWORD));
    });

    it('clears the history on success', async () => {
      const user = 'clear-me@example.com';
      await t.post('users', { form: { email: user, password: 'Clear-me-pass-1234', full_name: 'Clear' } });
      for (let i = 0; i < 4; i++) await login('wrong', user);
      expectSuccess(await login('Clear-me-pass-1234', user));
      for (let i = 0; i < 4; i++) expect((await login('wrong', user)).status).toBe(401);
      expectSuccess(await login('Clear-me-pass-1234', user));
    });
  });

  describe('login attempts per address, however it is spelled', () => {
    it('counts every spelling of one address (case, surrounding spaces) against one limit', async () => {
      t.clock.advance(1801);
      const spellings = ['OWNER@EXAMPLE.COM', ' owner@example.com', 'Owner@Example.com ', '  owner@EXAMPLE.com', OWNER_EMAIL];
      for (const username of spellings) expect((await login('wrong', username)).status).toBe(401);
      const res = await login(OWNER_PASSWORD, 'oWnEr@example.COM');
      expectError(res, 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
      t.clock.advance(1801);
      expectSuccess(await login(OWNER_PASSWORD, ' OWNER@example.com'));
    });

    it('limits an unknown address exactly as a known one', async () => {
      const spellings = ['nobody@example.com', 'NOBODY@example.com', ' nobody@example.com', 'Nobody@Example.Com', 'nobody@EXAMPLE.COM'];
      for (const username of spellings) {
        const res = await login('wrong', username);
        expectError(res, 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
      }
      const res = await login('wrong', 'NoBody@example.com');
      expectError(res, 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
      t.clock.advance(1801);
    });
  });

  describe('API requests per user', () => {
    it('allows 200 requests a minute, then answers 429 with headers', async () => {
      const account = await t.createUser();
      let last = await t.get('users/me', { as: account });
      expect(last.headers['x-ratelimit-limit']).toBe('200');
      for (let i = 1; i < 200; i++) last = await t.get('users/me', { as: account });
      expect(last.status).toBe(200);
      expect(last.headers['x-ratelimit-remaining']).toBe('0');
      const refused = await t.get('users/me', { as: account });
      expectError(refused, 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
      // Other users are not affected; the limit frees up as the window slides.
      expectSuccess(await t.get('users/me'));
      t.clock.advance(61);
      expectSuccess(await t.get('users/me', { as: account }));
    });
  });

  describe('unauthenticated requests per client address', () => {
    it('allows 100 a minute from one address, whatever X-Forwarded-For claims without TRUSTED_PROXIES', async () => {
      t.clock.advance(61);
      for (let i = 0; i < 100; i++) {
        const res = await t
          .post('fetch_api_key', { as: null, form: { username: `unknown${i}@example.com`, password: 'wrong' } })
          .set('X-Forwarded-For', `198.51.100.${i}`);
        expect(res.status).toBe(401);
      }
      const refused = await t
        .post('fetch_api_key', { as: null, form: { username: OWNER_EMAIL, password: OWNER_PASSWORD } })
        .set('X-Forwarded-For', '198.51.100.200');
      expectError(refused, 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
      expect(refused.body['retry-after']).toBeGreaterThan(0);
      expect(refused.body['retry-after']).toBeLessThanOrEqual(60);
      // Authenticated requests count per user, not per address.
      expectSuccess(await t.get('users/me'));
      t.clock.advance(61);
      expectSuccess(await login(OWNER_PASSWORD));
    });
  });
});
