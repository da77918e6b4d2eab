import { spawn } from 'node:child_process';
import pg from 'pg';
import { inject } from 'vitest';
import zulip from 'zulip-js';
import { LISTENER_APPLICATION_NAME } from '../../../src/events/persistence/pg-event-listener.js';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';

/**
 * Spec 30 §9.4: two server processes on one database. A queue is registered through one process; events
 * caused through the other reach it through the journal and LISTEN/NOTIFY, in order, also
 * across a lost listener connection. And zulip-js, a real client, drives the whole cycle.
 */
const DB_NAME = `${TEST_DB_PREFIX}_procs_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;
let apiKey = '';
let ownerId = 0;

type Json = Record<string, unknown>;
const auth = () => ({ Authorization: `Basic ${Buffer.from(`owner@example.com:${apiKey}`).toString('base64')}` });
async function api(server: ServerProcess, method: string, path: string, form?: Record<string, string>): Promise<Json> {
  const res = await fetch(`${server.url}/api/v1/${path}`, { method, headers: auth(), body: form ? new URLSearchParams(form) : undefined });
  return (await res.json()) as Json;
}
const sendVia = (server: ServerProcess, content: string) =>
  api(server, 'POST', 'messages', { type: 'direct', to: JSON.stringify([ownerId]), content });

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  const env = { DATABASE_URL: databaseUrl, OWNER_PASSWORD: PASSWORD, REMINDER_POLL_INTERVAL_MS: '0', EVENT_HEARTBEAT_SECONDS: '2' };
  a = await startServer(await freePort(), env);
  b = await startServer(await freePort(), env); // after A: A ran the migrations
  const key = await api(a, 'POST', 'fetch_api_key', { username: 'owner@example.com', password: PASSWORD });
  apiKey = key.api_key as string;
  ownerId = key.user_id as number;
}, 120_000);
afterAll(async () => {
  if (a) expect(await stopServer(a)).toBe(0);
  if (b) expect(await stopServer(b)).toBe(0);
  await dropDatabase(inject('adminUrl'), DB_NAME);
});

/** Long-polls `server` until `count` message events arrived (heartbeats skipped). */
async function receive(server: ServerProcess, queueId: string, count: number): Promise<Json[]> {
  const got: Json[] = [];
  let last = -1;
  for (let i = 0; i < 20 && got.length < count; i++) {
    const res = await api(server, 'GET', `events?${new URLSearchParams({ queue_id: queueId, last_event_id: String(last) })}`);
    expect(res.result).toBe('success');
    for (const e of res.events as Json[]) {
      last = e.id as number;
      if (e.type === 'message') got.push(e);
    }
  }
  return got;
}

it('delivers a message sent through one process to a queue registered on the other', async () => {
  const reg = await api(b, 'POST', 'register', { event_types: JSON.stringify(['message']) });
  const sent = await sendVia(a, 'across processes');
  const [event] = await receive(b, reg.queue_id as string, 1);
  expect(event.message).toMatchObject({ id: sent.id, content: 'across processes', sender_id: ownerId });
  // The queue is stored in the database: A answers it too, with the same event under the same id.
  expect(await api(a, 'GET', `events?${new URLSearchParams({ queue_id: reg.queue_id as string, last_event_id: '-1', dont_block: 'true' })}`)).toMatchObject({
    result: 'success',
    events: [{ id: event.id, type: 'message', message: { id: sent.id } }],
  });
});

it('loses and reorders nothing when the listener connections drop', async () => {
  const reg = await api(b, 'POST', 'register', { event_types: JSON.stringify(['message']) });
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = $2`, [
      LISTENER_APPLICATION_NAME,
      DB_NAME,
    ]);
    expect(killed.rowCount).toBe(2); // one listener per process
  } finally {
    await admin.end();
  }
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push((await sendVia(a, `while reconnecting ${i}`)).id as number);
  const events = await receive(b, reg.queue_id as string, 5);
  expect(events.map((e) => (e.message as Json).id)).toEqual(ids);
}, 60_000);

it('works with zulip-js: register, send with local_id, long-poll, deregister, and its callOnEachEvent loop', async () => {
  const client = await zulip({ username: 'owner@example.com', apiKey, realm: a.url });
  const reg = await client.queues.register({ event_types: ['message'] });
  expect(reg).toMatchObject({ result: 'success', last_event_id: -1 });
  const sent = await client.messages.send({ type: 'direct', to: JSON.stringify([ownerId]), content: 'from zulip-js', queue_id: reg.queue_id, local_id: '7.01' });
  expect(sent).toMatchObject({ result: 'success', id: expect.any(Number) });
  const polled = await client.events.retrieve({ queue_id: reg.queue_id, last_event_id: -1, dont_block: false });
  expect(polled.result).toBe('success');
  expect(polled.events[0]).toMatchObject({ type: 'message', local_message_id: '7.01', message: { id: sent.id, content: 'from zulip-js' } });
  expect(await client.queues.deregister({ queue_id: reg.queue_id })).toMatchObject({ result: 'success' });
  expect(await client.events.retrieve({ queue_id: reg.queue_id, last_event_id: -1, dont_block: true })).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });

  // zulip-js's own loop, on process B, hears a message sent through process A.
  const loop = spawn(process.execPath, ['test/support/zulip-js-listener.cjs'], {
    env: { ...process.env, ZULIP_USERNAME: 'owner@example.com', ZULIP_API_KEY: apiKey, ZULIP_REALM: b.url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const received = new Promise<Json>((resolve) => {
      let buffer = '';
      loop.stdout!.on('data', (chunk) => {
        buffer += chunk;
        for (const line of buffer.split('\n').slice(0, -1)) {
          const event = JSON.parse(line) as Json;
          if (event.type === 'message') resolve(event);
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      });
    });
    // The loop registers its queue on its own schedule: send until it hears one.
    const sentIds: number[] = [];
    let event: Json | undefined;
    for (let i = 0; i < 40 && event === undefined; i++) {
      sentIds.push((await sendVia(a, `to the loop ${i}`)).id as number);
      event = await Promise.race([received, new Promise<undefined>((r) => setTimeout(() => r(undefined), 250))]);
    }
    expect(event?.type).toBe('message');
    expect(sentIds).toContain((event!.message as Json).id);
  } finally {
    loop.kill();
  }
}, 60_000);
