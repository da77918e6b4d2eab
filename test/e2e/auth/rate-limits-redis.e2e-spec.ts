import { pino } from 'pino';
import { dropRedisKeys, redisKeys, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/redis.js';
import { freePort } from '../../support/server-process.js';
import { expectError, expectSuccess, OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/** REDIS_URL: servers on one database and one Redis count against one limit; an unreachable Redis fails no request. */
const prefix = uniqueRedisPrefix();
beforeAll(requireRedis);
afterAll(() => dropRedisKeys(prefix));

const login = (t: TestApp, password: string, username = OWNER_EMAIL) => t.post('fetch_api_key', { as: null, form: { username, password } });

describe('two servers on one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  const env = { RATE_LIMITING: 'true', REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `${prefix}pair:` };
  beforeAll(async () => {
    a = await TestApp.start(env);
    b = await a.startPeer(env);
    b.clock.current = a.clock.current;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('count login attempts against one limit, and a success on one clears them for both', async () => {
    const user = { email: 'shared-limit@example.com' };
    const password = 'Shared-limit-pass-1234';
    expectSuccess(await a.post('users', { form: { ...user, password, full_name: 'Shared' } }));
    for (let i = 0; i < 4; i++) expect((await login(i % 2 === 0 ? a : b, 'wrong', user.email)).status).toBe(401);
    expectSuccess(await login(b, password, user.email));
    for (let i = 0; i < 5; i++) {
      const res = await login(i % 2 === 0 ? b : a, 'wrong', user.email);
      expect(res.status).toBe(401);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    expectError(await login(a, password, user.email), 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
    expectError(await login(b, password, user.email), 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
    expect(await redisKeys(`${prefix}pair:authenticate_by_username:`)).toEqual([`${prefix}pair:authenticate_by_username:${user.email}`]);
  });
});

describe('Redis unreachable', () => {
  let t: TestApp;
  const warnings: string[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    t = await TestApp.start({ RATE_LIMITING: 'true', REDIS_URL: `redis://127.0.0.1:${await freePort()}/0`, REDIS_PREFIX: `${prefix}down:` }, logger);
  });
  afterAll(() => t?.close());

  it('fails no request: this server counts alone, says so once in its log and in /health', async () => {
    for (let i = 0; i < 5; i++) expect((await login(t, 'wrong')).status).toBe(401);
    expectError(await login(t, OWNER_PASSWORD), 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
    expectSuccess(await t.get('users/me'));
    expect(warnings).toEqual(['Redis is unreachable: rate limits are counted in this server process alone until it is back']);
    const health = await t.http.get('/health');
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { status: 'ok', details: { email: 'not configured', redis: 'down' } } });
  });
});
