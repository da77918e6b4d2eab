import { inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';

/**
 * Issue 15: event queues live in PostgreSQL, so several server processes on one database serve
 * any queue. A client registers on one process and polls on another; a process killed with
 * SIGKILL loses nothing its clients were told (they continue on the other one with the same
 * `queue_id` and `last_event_id`); a restart of every process keeps the queues and their events.
 */
const DB_NAME = `${TEST_DB_PREFIX}_scale_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
const CLIENTS = 20;
let databaseUrl: string;
let env: Record<string, string>;
let ports: [number, number];
let nodes: ServerProcess[] = [];

type Json = Record<string, unknown>;
interface Account {
  email: string;
  apiKey: string;
  id: number;
}
let owner: Account;

async function call(server: ServerProcess, as: Account, method: string, path: string, form?: Record<string, string>): Promise<Json> {
  const headers = { Authorization: `Basic ${Buffer.from(`${as.email}:${as.apiKey}`).toString('base64')}` };
  const res = await fetch(`${server.url}/api/v1/${path}`, { method, headers, body: form ? new URLSearchParams(form) : undefined });
  return (await res.json()) as Json;
}
const poll = (server: ServerProcess, as: Account, queueId: string, lastEventId: number, dontBlock = false) =>
  call(server, as, 'GET', `events?${new URLSearchParams({ queue_id: queueId, last_event_id: String(lastEventId), dont_block: String(dontBlock) })}`);
const sendTo = (server: ServerProcess, as: Account, content: string) =>
  call(server, as, 'POST', 'messages', { type: 'stream', to: 'scale', topic: 'out', content });

async function startNodes(): Promise<void> {
  nodes = [await startServer(ports[0], env), await startServer(ports[1], env)];
}

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  env = { DATABASE_URL: databaseUrl, OWNER_PASSWORD: PASSWORD, REMINDER_POLL_INTERVAL_MS: '0', EVENT_HEARTBEAT_SECONDS: '2', RATE_LIMITING: 'false' };
  ports = [await freePort(), await freePort()];
  nodes = [await startServer(ports[0], env)];
  nodes.push(await startServer(ports[1], env)); // after the first: it ran the migrations
  const key = await fetch(`${nodes[0].url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: PASSWORD }) });
  const k = (await key.json()) as Json;
  owner = { email: 'owner@example.com', apiKey: k.api_key as string, id: k.user_id as number };
  expect(await call(nodes[0], owner, 'POST', 'users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'scale' }]) })).toMatchObject({ result: 'success' });
}, 120_000);
afterAll(async () => {
  for (const n of nodes) if (n.proc.exitCode === null && n.proc.signalCode === null) expect(await stopServer(n)).toBe(0);
  await dropDatabase(inject('adminUrl'), DB_NAME);
});

/** Long-polls (alternating between the nodes given) until `count` message events arrived; returns them and the last event id. */
async function receive(through: ServerProcess[], as: Account, queueId: string, from: number, count: number): Promise<{ events: Json[]; last: number }> {
  const events: Json[] = [];
  let last = from;
  for (let i = 0; events.length < count; i++) {
    expect(i).toBeLessThan(40);
    const res = await poll(through[i % through.length], as, queueId, last);
    expect(res.result).toBe('success');
    for (const e of res.events as Json[]) {
      expect(e.id).toBe(last + 1); // every event once, numbered without a gap, whichever node answers
      last = e.id as number;
      if (e.type === 'message') events.push(e);
    }
  }
  return { events, last };
}

const messageIds = (events: Json[]) => events.map((e) => (e.message as Json).id as number);

it('serves a queue registered on node A from node B, every event once and in order', async () => {
  const [a, b] = nodes;
  const reg = await call(a, owner, 'POST', 'register', { event_types: JSON.stringify(['message']) });
  expect(reg.result).toBe('success');
  const queueId = reg.queue_id as string;
  const sent: number[] = [];
  for (let i = 0; i < 6; i++) sent.push((await sendTo(i % 2 === 0 ? a : b, owner, `m${i}`)).id as number);
  const { events, last } = await receive([b, a], owner, queueId, -1, 6);
  expect(messageIds(events)).toEqual(sent);
  // Acknowledged everywhere: neither node hands them out again.
  for (const n of [a, b]) expect(await poll(n, owner, queueId, last, true)).toMatchObject({ result: 'success', events: [] });
  // A waiting poll on B is woken by a message sent through A.
  const waiting = poll(b, owner, queueId, last);
  const more = (await sendTo(a, owner, 'wake B')).id as number;
  const woken = await waiting;
  expect((woken.events as Json[]).filter((e) => e.type === 'message').map((e) => (e.message as Json).id)).toEqual([more]);
  // DELETE through B: A no longer knows it either.
  expect(await call(b, owner, 'DELETE', `events?${new URLSearchParams({ queue_id: queueId })}`)).toMatchObject({ result: 'success' });
  expect(await poll(a, owner, queueId, -1, true)).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
}, 60_000);

it('keeps the queues and their unacknowledged events when every node restarts', async () => {
  const [a, b] = nodes;
  const read = (await call(a, owner, 'POST', 'register', { event_types: JSON.stringify(['message']) })).queue_id as string;
  const unread = (await call(b, owner, 'POST', 'register', { event_types: JSON.stringify(['message']) })).queue_id as string;
  const before: number[] = [];
  for (let i = 0; i < 3; i++) before.push((await sendTo(a, owner, `before restart ${i}`)).id as number);
  // `read` was given events 0..2 and acknowledged only 0; `unread` was never polled.
  const first = await receive([a], owner, read, -1, 3);
  expect(first.last).toBe(2);
  expect(await stopServer(a)).toBe(0);
  expect(await stopServer(b)).toBe(0);
  await startNodes();
  const [a2, b2] = nodes;
  const again = await poll(b2, owner, read, 0, true);
  expect(again.events).toMatchObject([
    { id: 1, message: { id: before[1] } },
    { id: 2, message: { id: before[2] } },
  ]);
  const pending = await receive([a2], owner, unread, -1, 3);
  expect(messageIds(pending.events)).toEqual(before);
  const after = (await sendTo(b2, owner, 'after restart')).id as number;
  const next = await receive([a2], owner, read, 2, 1);
  expect(next.events).toMatchObject([{ id: 3, message: { id: after } }]);
}, 120_000);

it('loses nothing acknowledged and repeats nothing when a node is killed while 20 clients send and poll through both', async () => {
  // 20 users, each with a queue registered on one of the nodes, all in one channel.
  const clients: (Account & { node: number; queueId: string; last: number; seen: number[]; gone: boolean })[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const email = `client${i}@example.com`;
    const password = `client-${i}-Secret-Passphrase`;
    const made = await call(nodes[0], owner, 'POST', 'users', { email, password, full_name: `Client ${i}` });
    expect(made.result).toBe('success');
    const key = await fetch(`${nodes[0].url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password }) });
    const account = { email, apiKey: ((await key.json()) as Json).api_key as string, id: made.user_id as number };
    clients.push({ ...account, node: i % 2, queueId: '', last: -1, seen: [], gone: false });
  }
  const principals = JSON.stringify(clients.map((c) => c.id));
  expect(await call(nodes[0], owner, 'POST', 'users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'scale' }]), principals })).toMatchObject({ result: 'success' });
  for (const c of clients) {
    const reg = await call(nodes[c.node], c, 'POST', 'register', { event_types: JSON.stringify(['message']) });
    expect(reg.result).toBe('success');
    c.queueId = reg.queue_id as string;
  }

  const acknowledged: number[] = [];
  let sending = true;
  /** Set once every send has been answered: only then is `acknowledged` complete. */
  let sent = false;
  const victim = nodes[0];
  /** A request through the client's node; when that node is dead, the client moves to the other one. */
  async function through<T>(c: (typeof clients)[number], fn: (n: ServerProcess) => Promise<T>): Promise<T | null> {
    try {
      return await fn(nodes[c.node]);
    } catch {
      c.node = 1; // the connection failed: the other node, same queue_id and last_event_id
      return null;
    }
  }
  const pollers = clients.map(async (c) => {
    for (;;) {
      const res = await through(c, (n) => poll(n, c, c.queueId, c.last));
      if (res === null) continue;
      expect(res.result).toBe('success');
      for (const e of res.events as Json[]) {
        expect(e.id).toBe(c.last + 1);
        c.last = e.id as number;
        if (e.type === 'message') c.seen.push((e.message as Json).id as number);
      }
      if (sent && acknowledged.every((id) => c.seen.includes(id))) return;
    }
  });
  const senders = clients.map(async (c, i) => {
    for (let k = 0; sending; k++) {
      const res = await through(c, (n) => sendTo(n, c, `client ${i} message ${k}`));
      if (res?.result === 'success') acknowledged.push(res.id as number);
    }
  });
  // Let traffic flow through both nodes, kill A in the middle of it, let it flow on through B.
  await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(40), { timeout: 60_000, interval: 20 });
  victim.proc.kill('SIGKILL');
  await victim.exited;
  const atKill = acknowledged.length;
  await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(atKill + 40), { timeout: 60_000, interval: 20 });
  sending = false;
  await Promise.all(senders);
  sent = true;
  await Promise.all(pollers);

  // Every client saw every acknowledged message exactly once, and all in the same order.
  const order = clients[0].seen;
  for (const c of clients) {
    expect(new Set(c.seen).size).toBe(c.seen.length);
    for (const id of acknowledged) expect(c.seen).toContain(id);
    expect(c.seen).toEqual(order);
    expect(c.node).toBe(1);
  }
  // Restart the killed node for the tests after this one.
  nodes[0] = await startServer(ports[0], env);
}, 180_000);
