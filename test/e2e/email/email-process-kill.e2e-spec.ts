import pg from 'pg';
import { inject } from 'vitest';
import { INTERRUPTED_ERROR } from '../../../src/email/index.js';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';
import { SmtpTestServer } from '../../support/smtp-test-server.js';

/**
 * A server process killed (SIGKILL) while the SMTP server holds its message without answering:
 * whether that message was delivered is unknown, so no process sends it again; another process
 * marks it failed once its claim is stale and goes on with the rest. (Needs `npm run build`.)
 */
const DB_NAME = `${TEST_DB_PREFIX}_mailkill_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
let databaseUrl: string;
let db: pg.Client;
let smtp: SmtpTestServer;
const servers: ServerProcess[] = [];
let apiKey = '';

async function invite(server: ServerProcess, to: string): Promise<void> {
  const headers = { Authorization: `Basic ${Buffer.from(`owner@example.com:${apiKey}`).toString('base64')}` };
  const res = await fetch(`${server.url}/api/v1/invites`, { method: 'POST', headers, body: new URLSearchParams({ invitee_emails: to, stream_ids: '[]' }) });
  expect(await res.json()).toMatchObject({ result: 'success' });
}
const row = async (to: string) => (await db.query(`SELECT status, attempts, last_error FROM email_outbox WHERE to_address = $1`, [to])).rows[0];

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  smtp = await SmtpTestServer.start();
}, 60_000);
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) await stopServer(s);
  await db?.end();
  await dropDatabase(inject('adminUrl'), DB_NAME);
  await smtp?.stop();
});

it('never resends an email whose sender died mid-send; it is marked failed and the others go out', async () => {
  const env = { DATABASE_URL: databaseUrl, OWNER_PASSWORD: PASSWORD, REMINDER_POLL_INTERVAL_MS: '0', SMTP_URL: smtp.url(), EMAIL_POLL_INTERVAL_MS: '100' };
  // The victim waits long for the SMTP server, so it is still waiting when it is killed.
  const victim = await startServer(await freePort(), { ...env, EMAIL_SEND_TIMEOUT_MS: '60000' });
  servers.push(victim);
  const res = await fetch(`${victim.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: PASSWORD }) });
  apiKey = ((await res.json()) as { api_key: string }).api_key;

  smtp.replies.push('hang'); // takes the whole message, never answers
  await invite(victim, 'lost@example.com');
  await vi.waitFor(() => expect(smtp.attempts.map((a) => a.to)).toEqual([['lost@example.com']]), { timeout: 20_000, interval: 50 });
  expect(await row('lost@example.com')).toMatchObject({ status: 'sending', attempts: 1 });
  victim.proc.kill('SIGKILL');
  await victim.exited;

  // Another process: its claims go stale after 4 × 1 s.
  const survivor = await startServer(await freePort(), { ...env, EMAIL_SEND_TIMEOUT_MS: '1000' });
  servers.push(survivor);
  await invite(survivor, 'next@example.com');
  await vi.waitFor(
    async () => {
      expect(await row('lost@example.com')).toMatchObject({ status: 'failed', attempts: 1, last_error: INTERRUPTED_ERROR });
      expect(await row('next@example.com')).toMatchObject({ status: 'sent', attempts: 1 });
    },
    { timeout: 30_000, interval: 100 },
  );
  expect(await stopServer(survivor)).toBe(0);
  // The SMTP server saw the lost one once (never answered) and the next one once.
  expect(smtp.attempts).toEqual([
    { to: ['lost@example.com'], code: 0 },
    { to: ['next@example.com'], code: 250 },
  ]);
}, 120_000);
