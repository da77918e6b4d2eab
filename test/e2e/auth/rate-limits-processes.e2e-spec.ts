import { inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { dropRedisKeys, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/redis.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';

/**
 * Two built server processes (`node dist/src/main.js`) on one database and one Redis: a rate
 * limit hit through one is seen on the other. (Run `npm run build` first; `npm test` does.)
 */
const DB_NAME = `${TEST_DB_PREFIX}_rl_procs_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
const prefix = uniqueRedisPrefix();
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  await requireRedis();
  const databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  const env = {
    DATABASE_URL: databaseUrl,
    OWNER_PASSWORD: PASSWORD,
    REMINDER_POLL_INTERVAL_MS: '0',
    RATE_LIMITING: 'true',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
  };
  a = await startServer(await freePort(), env);
  b = await startServer(await freePort(), env); // after A: A bootstrapped the organization
}, 120_000);
afterAll(async () => {
  if (a) expect(await stopServer(a)).toBe(0);
  if (b) expect(await stopServer(b)).toBe(0);
  await dropDatabase(inject('adminUrl'), DB_NAME);
  await dropRedisKeys(prefix);
});

const basic = (email: string, key: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });
const fetchApiKey = (s: ServerProcess, username: string, password: string) =>
  fetch(`${s.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username, password }) });

it('both report the shared store in /health', async () => {
  for (const s of [a, b]) expect(await (await fetch(`${s.url}/health`)).json()).toEqual({ status: 'ok', details: { email: 'not configured', redis: 'up' } });
});

it('refuses on B the login attempt that A’s failures used up', async () => {
  for (let i = 0; i < 5; i++) {
    const res = await fetchApiKey(i % 2 === 0 ? a : b, 'nobody@example.com', 'wrong');
    expect(res.status).toBe(401);
    expect(res.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
  }
  for (const s of [b, a]) {
    const res = await fetchApiKey(s, 'nobody@example.com', 'wrong');
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', 'retry-after': expect.any(Number) });
  }
});

it('counts one user’s API requests through both against one limit of 200 a minute', async () => {
  const key = (await (await fetchApiKey(a, 'owner@example.com', PASSWORD)).json()) as { api_key: string };
  const get = (s: ServerProcess) => fetch(`${s.url}/api/v1/users/me`, { headers: basic('owner@example.com', key.api_key) });
  let last: Response | null = null;
  for (let i = 0; i < 200; i++) {
    last = await get(i % 2 === 0 ? a : b);
    expect(last.status).toBe(200);
    await last.arrayBuffer();
  }
  expect(last!.headers.get('x-ratelimit-limit')).toBe('200');
  expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
  for (const s of [a, b]) {
    const refused = await get(s);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMIT_HIT' });
  }
});
