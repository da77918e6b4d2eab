import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';
import { type Account, expectSuccess, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/**
 * Two servers on one database, each with its own credential cache: a key regenerated or a user
 * deactivated through one is refused by the other (the built server, `node dist/src/main.js`)
 * once the change notification arrives, within a bounded wait.
 */
let t: TestApp;
let b: ServerProcess;
beforeAll(async () => {
  t = await TestApp.start();
  b = await startServer(await freePort(), { DATABASE_URL: t.databaseUrl, OWNER_PASSWORD, REMINDER_POLL_INTERVAL_MS: '0' });
}, 120_000);
afterAll(async () => {
  if (b) expect(await stopServer(b)).toBe(0);
  await t?.close();
});

async function meOnB(a: Account): Promise<{ status: number; msg: string }> {
  const res = await fetch(`${b.url}/api/v1/users/me`, { headers: { Authorization: `Basic ${Buffer.from(`${a.email}:${a.apiKey}`).toString('base64')}` } });
  return { status: res.status, msg: ((await res.json()) as { msg: string }).msg };
}
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

it('a key regenerated through one server is refused by the other, and the new one accepted', async () => {
  const user = await t.createUser();
  expect(await meOnB(user)).toEqual({ status: 200, msg: '' });
  expect(await meOnB(user)).toEqual({ status: 200, msg: '' }); // from B's cache
  const res = await t.post('users/me/api_key/regenerate', { as: user });
  expectSuccess(res);
  await eventually(async () => expect(await meOnB(user)).toEqual({ status: 401, msg: 'Invalid API key' }));
  expect(await meOnB({ ...user, apiKey: res.body.api_key })).toEqual({ status: 200, msg: '' });
});

it('a user deactivated through one server is refused by the other', async () => {
  const user = await t.createUser();
  expect(await meOnB(user)).toEqual({ status: 200, msg: '' });
  expectSuccess(await t.delete(`users/${user.id}`));
  await eventually(async () => expect(await meOnB(user)).toEqual({ status: 401, msg: 'Account is deactivated' }));
});
