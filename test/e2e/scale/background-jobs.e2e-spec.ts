import pg from 'pg';
import { inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { FakePushRelay } from '../../support/fake-push-relay.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';
import { SmtpTestServer } from '../../support/smtp-test-server.js';

/**
 * Issue 15 §2, "Background jobs with 3 nodes": three built server processes on one database,
 * all polling every 100 ms, while N reminders, N scheduled messages, N outbox emails and N push
 * registration retries fall due at the same moment. Each runs exactly once: counted by what the SMTP server and the
 * push relay received and by what the database holds. (Needs `npm run build`.)
 */
const N = 24;
const DB_NAME = `${TEST_DB_PREFIX}_jobs_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
const PUSH = { PUSH_BOUNCER_SERVER_UUID: '6cde5f7a-1f7e-4978-9716-49f69ebfc9fe', PUSH_BOUNCER_API_KEY: 'relay-api-key', PUSH_BOUNCER_TIMEOUT_MS: '2000' };

let databaseUrl: string;
let db: pg.Client;
let smtp: SmtpTestServer;
let relay: FakePushRelay;
const servers: ServerProcess[] = [];
let apiKey = '';

type Json = Record<string, unknown>;
async function api(server: ServerProcess, method: string, path: string, form?: Record<string, string>): Promise<Json> {
  const headers = { Authorization: `Basic ${Buffer.from(`owner@example.com:${apiKey}`).toString('base64')}` };
  const res = await fetch(`${server.url}/api/v1/${path}`, { method, headers, body: form ? new URLSearchParams(form) : undefined });
  return (await res.json()) as Json;
}
const count = async (sql: string): Promise<number> => (await db.query(sql)).rows[0].n as number;

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  smtp = await SmtpTestServer.start();
  relay = await FakePushRelay.create();
}, 60_000);
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await stopServer(s);
  await db?.end();
  await dropDatabase(inject('adminUrl'), DB_NAME);
  await smtp?.stop();
  await relay?.stop();
});

/** With one process and no background work: N reminders, scheduled messages, invitations and waiting registrations, none due yet. */
async function prepare(): Promise<void> {
  // The relay refuses registrations (503) for now, so each waits for a retry.
  relay.answer('register', { status: 503, raw: 'Service Unavailable' });
  const setup = await startServer(await freePort(), {
    DATABASE_URL: databaseUrl,
    OWNER_PASSWORD: PASSWORD,
    REMINDER_POLL_INTERVAL_MS: '0',
    PUSH_REGISTRATION_RETRY_INTERVAL_MS: '0',
    PUSH_BOUNCER_URL: relay.url,
    ...PUSH,
  });
  servers.push(setup);
  expect(setup.output()).toContain('Email: not configured (SMTP_URL unset)');
  const key = await api(setup, 'POST', 'fetch_api_key', { username: 'owner@example.com', password: PASSWORD });
  apiKey = key.api_key as string;
  const sent = await api(setup, 'POST', 'messages', { type: 'direct', to: JSON.stringify([key.user_id]), content: 'remind me' });
  const later = String(Math.floor(Date.now() / 1000) + 3600);
  for (let i = 0; i < N; i++) {
    expect(await api(setup, 'POST', 'reminders', { message_id: String(sent.id), scheduled_delivery_timestamp: later, note: `note ${i}` })).toMatchObject({ result: 'success' });
  }
  for (let i = 0; i < N; i++) {
    const form = { type: 'direct', to: JSON.stringify([key.user_id]), content: `scheduled ${i}`, scheduled_delivery_timestamp: later };
    expect(await api(setup, 'POST', 'scheduled_messages', form)).toMatchObject({ result: 'success' });
  }
  const invitees = Array.from({ length: N }, (_, i) => `invitee${i}@example.com`);
  expect(await api(setup, 'POST', 'invites', { invitee_emails: invitees.join(','), stream_ids: '[]' })).toMatchObject({ result: 'success' });
  for (let i = 0; i < N; i++) {
    const device = await api(setup, 'POST', 'register_client_device');
    const reg = await api(setup, 'POST', 'mobile_push/register', {
      device_id: String(device.device_id),
      token_kind: 'fcm',
      push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, i)]).toString('base64'),
      push_key_id: String(1000 + i),
      bouncer_public_key: 'bouncer-public-key-1',
      encrypted_push_registration: `sealed-${i}`,
      token_id: Buffer.from(`tokenid${i}`.padEnd(8, '-').slice(0, 8)).toString('base64'),
    });
    expect(reg).toMatchObject({ result: 'success' });
  }
  expect(await stopServer(setup)).toBe(0);
  expect(relay.requestsTo('register')).toHaveLength(N); // each tried once at once, refused
  relay.reset(); // from now on the relay accepts, and counts afresh
  expect(await count(`SELECT count(*)::int AS n FROM email_outbox WHERE status = 'pending'`)).toBe(N);
  expect(await count(`SELECT count(*)::int AS n FROM push_registration_jobs WHERE attempts = 1`)).toBe(N);
  // Nothing is due while the three processes start.
  await db.query(`UPDATE email_outbox SET next_attempt_at = now() + interval '1 hour'`);
}

it('runs each due reminder, scheduled message, outbox email and push registration retry exactly once with three processes', async () => {
  await prepare();
  const messagesBefore = await count(`SELECT count(*)::int AS n FROM messages`);
  const env = {
    DATABASE_URL: databaseUrl,
    REMINDER_POLL_INTERVAL_MS: '100',
    EMAIL_POLL_INTERVAL_MS: '100',
    PUSH_REGISTRATION_RETRY_INTERVAL_MS: '100',
    SMTP_URL: smtp.url(),
    EMAIL_FROM: 'noreply@example.com',
    PUSH_BOUNCER_URL: relay.url,
    ...PUSH,
  };
  const nodes = await Promise.all([1, 2, 3].map(async () => startServer(await freePort(), env)));
  servers.push(...nodes);
  for (const node of nodes) expect(node.output()).toContain('Email: delivered over SMTP from noreply@example.com');

  // Everything falls due at once, in front of three polling processes.
  await db.query('BEGIN');
  await db.query(`UPDATE reminders SET scheduled_at = now()`);
  await db.query(`UPDATE scheduled_messages SET scheduled_at = now()`);
  await db.query(`UPDATE email_outbox SET next_attempt_at = now()`);
  await db.query(`UPDATE push_registration_jobs SET next_attempt_at = now()`);
  await db.query('COMMIT');

  await vi.waitFor(
    async () => {
      expect(await count(`SELECT count(*)::int AS n FROM reminders WHERE NOT delivered AND NOT failed`)).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM scheduled_messages WHERE NOT delivered AND NOT failed`)).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM email_outbox WHERE status <> 'sent'`)).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM push_registration_jobs`)).toBe(0);
    },
    { timeout: 60_000, interval: 100 },
  );
  for (const node of nodes) expect(await stopServer(node)).toBe(0);

  // Reminders: each delivered once, as one Notification Bot message each.
  expect(await count(`SELECT count(*)::int AS n FROM reminders WHERE delivered AND NOT failed`)).toBe(N);
  expect(await count(`SELECT count(DISTINCT delivered_message_id)::int AS n FROM reminders`)).toBe(N);
  // Scheduled messages: each sent once, as its owner.
  expect(await count(`SELECT count(*)::int AS n FROM scheduled_messages WHERE delivered AND NOT failed`)).toBe(N);
  expect(await count(`SELECT count(DISTINCT delivered_message_id)::int AS n FROM scheduled_messages`)).toBe(N);
  expect(await count(`SELECT count(DISTINCT content)::int AS n FROM messages WHERE content LIKE 'scheduled %'`)).toBe(N);
  expect((await count(`SELECT count(*)::int AS n FROM messages`)) - messagesBefore).toBe(2 * N); // and nothing else was sent
  // Emails: the SMTP server received each invitation once.
  expect(smtp.received).toHaveLength(N);
  expect(new Set(smtp.received.flatMap((m) => m.to)).size).toBe(N);
  expect(await count(`SELECT count(*)::int AS n FROM email_outbox WHERE status = 'sent' AND attempts = 1`)).toBe(N);
  // Push: the relay got each registration once more, and every device is active.
  const bodies = relay.requestsTo('register').map((r) => r.body);
  expect(bodies).toHaveLength(N);
  expect(new Set(bodies).size).toBe(N);
  expect(await count(`SELECT count(*)::int AS n FROM devices WHERE push_token_id IS NOT NULL AND push_registration_error_code IS NULL`)).toBe(N);
}, 240_000);
