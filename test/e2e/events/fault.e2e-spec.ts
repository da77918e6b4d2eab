import type pg from 'pg';
import { pino } from 'pino';
import { inject } from 'vitest';
import { adminClient } from '../../support/databases.js';
import { EventClient } from '../../support/events.js';
import { TestApp } from '../../support/test-app.js';

/**
 * Issue 13, the fault test: every backend of the server's database is terminated, and new
 * connections are refused for a while, as 20 clients keep sending. Every acknowledged message is
 * stored and reaches a listening queue exactly once (and so does every stored one: the journal is
 * written in the message's transaction); failed sends get an error envelope, never a 500 or a
 * crash; /health says 503 while the database is away; the same server serves again afterwards.
 */
const SENDERS = 20;
let t: TestApp;
let admin: pg.Client;
let dbName: string;
/** The server's log, one JSON object a line. */
const log: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await TestApp.start({}, pino({ level: 'info' }, { write: (line: string) => void log.push(JSON.parse(line) as Record<string, unknown>) }));
  admin = await adminClient(inject('adminUrl'));
  dbName = new URL(t.databaseUrl).pathname.slice(1);
});
afterAll(async () => {
  await admin?.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
  await admin?.end();
  await t?.close();
});

interface Outcome {
  sender: number;
  phase: Phase;
  status: number;
  body: Record<string, unknown>;
}
type Phase = 'before' | 'outage' | 'after';

it('keeps every acknowledged message, delivers each once, answers 503 meanwhile and recovers', async () => {
  const listener = await EventClient.register(t, t.owner, { event_types: ['message'] });
  const outcomes: Outcome[] = [];
  let phase: Phase = 'before';
  let stop = false;
  const count = (sender: number, p: Phase, ok: boolean) =>
    outcomes.filter((o) => o.sender === sender && o.phase === p && (o.status === 200) === ok).length;
  const everySender = (p: Phase, ok: boolean) => Array.from({ length: SENDERS }, (_, i) => i).every((i) => count(i, p, ok) > 0);

  const sender = async (i: number) => {
    for (let n = 0; !stop; n++) {
      const at = phase;
      const res = await t.post('messages', { form: { type: 'direct', to: [t.owner.id], content: `fault s${i} n${n}` } });
      outcomes.push({ sender: i, phase: at, status: res.status, body: res.body as Record<string, unknown> });
    }
  };
  const senders = Array.from({ length: SENDERS }, (_, i) => sender(i));
  const conditions = { timeout: 60_000, interval: 20 };
  try {
    await vi.waitFor(() => expect(everySender('before', true)).toBe(true), conditions);

    // The outage: no new connections, and every open one (the pool's, the listener's) killed.
    phase = 'outage';
    await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
    const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]);
    expect(killed.rowCount).toBeGreaterThan(0);
    const down = await t.get('/health', { as: null });
    expect({ status: down.status, body: down.body }).toEqual({ status: 503, body: { status: 'unavailable', details: { email: 'not configured' } } });
    await vi.waitFor(() => expect(everySender('outage', false)).toBe(true), conditions);

    await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
    phase = 'after';
    await vi.waitFor(async () => expect((await t.get('/health', { as: null })).status).toBe(200), conditions);
    await vi.waitFor(() => expect(everySender('after', true)).toBe(true), conditions);
  } finally {
    stop = true;
    await Promise.all(senders);
  }

  // Failed sends got an error envelope: the database is unavailable (503), nothing else.
  const failures = outcomes.filter((o) => o.status !== 200);
  expect(failures.length).toBeGreaterThan(0);
  for (const f of failures) {
    expect({ status: f.status, body: f.body }).toEqual({
      status: 503,
      body: { result: 'error', msg: 'Service temporarily unavailable; try again later.', code: 'SERVICE_UNAVAILABLE' },
    });
  }

  // Handled, not crashed: the outage is logged as warnings, with no error-level line.
  expect(log.filter((l) => (l.level as number) >= 50).map((l) => l.msg)).toEqual([]);
  expect(log.some((l) => l.msg === 'database unavailable')).toBe(true);

  // Every acknowledged message is stored.
  const acked = outcomes.filter((o) => o.status === 200).map((o) => o.body.id as number);
  const stored = await storedMessageIds();
  expect(acked.filter((id) => !stored.includes(id))).toEqual([]);

  // A message sent after everything else: once it arrives, everything before it has.
  const sentinel = await t.post('messages', { form: { type: 'direct', to: [t.owner.id], content: 'fault sentinel' } });
  expect(sentinel.status).toBe(200);
  const delivered: number[] = [];
  for (let i = 0; i < 50 && !delivered.includes(sentinel.body.id); i++) {
    delivered.push(...(await listener.next()).filter((e) => e.type === 'message').map((e) => (e.message as { id: number }).id));
  }
  expect(delivered).toContain(sentinel.body.id);
  expect(await listener.drain()).toEqual([]);
  // Exactly once each: the acknowledged ones, and any whose answer was lost but which committed.
  expect(new Set(delivered).size).toBe(delivered.length);
  expect([...delivered].sort((a, b) => a - b)).toEqual([...stored, sentinel.body.id].sort((a, b) => a - b));
}, 240_000);

/** Ids of the messages this test's senders stored, read through the server's own database. */
async function storedMessageIds(): Promise<number[]> {
  const c = await adminClient(t.databaseUrl);
  try {
    const { rows } = await c.query<{ id: number }>(`SELECT id FROM messages WHERE content LIKE 'fault s%' ORDER BY id`);
    return rows.map((r) => r.id);
  } finally {
    await c.end();
  }
}
