import pg from 'pg';
import { inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';

/**
 * The built server (`node dist/src/main.js`, what `npm start` runs) on a test database: a
 * reminder that fell due while the server was down is delivered once after it is back.
 */
const DB_NAME = `${TEST_DB_PREFIX}_restart_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
let databaseUrl: string;
let port: number;

const start = (): Promise<ServerProcess> =>
  startServer(port, { DATABASE_URL: databaseUrl, OWNER_PASSWORD: PASSWORD, REMINDER_POLL_INTERVAL_MS: '100' });
const stop = stopServer;

let apiKey = '';
const auth = () => ({ Authorization: `Basic ${Buffer.from(`owner@example.com:${apiKey}`).toString('base64')}` });
const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/${path}`, { ...init, headers: { ...auth(), ...init.headers } });
  return (await res.json()) as Record<string, unknown>;
};
const post = (path: string, form: Record<string, string>) => api(path, { method: 'POST', body: new URLSearchParams(form) });

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  port = await freePort();
});
afterAll(() => dropDatabase(inject('adminUrl'), DB_NAME));

it('delivers a reminder that fell due while the server was down once it is back, once', async () => {
  const first = await start();
  let reminderId: number;
  let ownerId: number;
  try {
    const key = await post('fetch_api_key', { username: 'owner@example.com', password: PASSWORD });
    apiKey = key.api_key as string;
    ownerId = key.user_id as number;
    const sent = await post('messages', { type: 'direct', to: JSON.stringify([ownerId]), content: 'water the plants' });
    const created = await post('reminders', {
      message_id: String(sent.id),
      scheduled_delivery_timestamp: String(Math.floor(Date.now() / 1000) + 86_400),
    });
    expect(created).toMatchObject({ result: 'success' });
    reminderId = created.reminder_id as number;
  } finally {
    expect(await stop(first)).toBe(0); // the worker stops with the server
  }

  // While the server is down, the reminder falls due (its time moves into the past).
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`UPDATE reminders SET scheduled_at = now() - interval '1 hour' WHERE id = $1`, [reminderId]);
  } finally {
    await db.end();
  }

  const second = await start();
  try {
    await vi.waitFor(async () => expect((await api('reminders')).reminders).toEqual([]), { timeout: 10_000, interval: 100 });
    const fetched = await api(`messages?${new URLSearchParams({ anchor: 'newest', num_before: '10', num_after: '0', apply_markdown: 'false' })}`);
    const fromBot = (fetched.messages as { sender_email: string; content: string }[]).filter((m) => m.sender_email.startsWith('notification-bot@'));
    expect(fromBot).toHaveLength(1);
    expect(fromBot[0].content).toMatch(/^You requested a reminder for the following direct message\.\n\n.*```quote\nwater the plants\n```$/s);
  } finally {
    expect(await stop(second)).toBe(0);
  }
});
