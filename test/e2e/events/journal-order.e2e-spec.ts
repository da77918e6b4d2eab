import pg from 'pg';
import { DataSource } from 'typeorm';
import { EventQueues } from '../../../src/events/application/event-queues.js';
import { HELD_BACK_RETRY_FIRST_MS, HELD_BACK_RETRY_MAX_MS, PgEventListener } from '../../../src/events/persistence/pg-event-listener.js';
import type { ClientEvent } from '../../../src/shared/application/client-event.js';
import { type Cancel, Scheduler, SystemScheduler } from '../../../src/shared/application/scheduler.js';
import { appendEvents } from '../../../src/shared/persistence/event-journal.js';
import { createChannels } from '../../support/channels.js';
import { EventClient, registerAll } from '../../support/events.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';

/**
 * Issue 14, item 3: the event journal is ordered by the writing transaction's id, read only
 * below the oldest transaction still running, with no organization-wide lock. Concurrent
 * senders do not wait for each other; every queue sees every event once, in the same order
 * (the journal's); an event held back by an older open transaction is delivered once that
 * transaction ends, even if it never notifies; and a queue drops exactly the events its
 * registration snapshot saw as committed.
 */

/** Real one-shot timers (recorded); the periodic catch-up and prune never run, so only NOTIFY and the held-back retry deliver. */
class RetryOnlyScheduler extends Scheduler {
  readonly delays: number[] = [];
  private readonly real = new SystemScheduler();
  after(ms: number, fn: () => void): Cancel {
    this.delays.push(ms);
    return this.real.after(ms, fn);
  }
  every(): Cancel {
    return () => undefined;
  }
  random(): number {
    return 0.5;
  }
}

let t: TestApp;
let users: Account[];
let realmId: number;
const scheduler = new RetryOnlyScheduler();
const open: pg.Client[] = [];

beforeAll(async () => {
  t = await TestApp.start({}, undefined, (b) => b.overrideProvider(Scheduler).useValue(scheduler));
  users = [t.owner, await t.createUser(), await t.createUser(), await t.createUser()];
  await createChannels(t, ['race'], { form: { principals: users.map((u) => u.id) } });
  [{ realm_id: realmId }] = await t.sql(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]);
}, 60_000);
afterAll(async () => {
  for (const c of open) await c.end().catch(() => undefined);
  await t?.close();
});

/** A connection of its own with a transaction begun and holding a transaction id. */
async function openTransaction(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  open.push(c);
  await c.query('BEGIN');
  await c.query('SELECT pg_current_xact_id()');
  return c;
}

/** A journal row written directly (as appendEvents does), on the given connection's transaction. */
async function journalDirectly(c: pg.Client, ce: ClientEvent): Promise<void> {
  await c.query(`INSERT INTO events (realm_id, payload) VALUES ($1, $2)`, [ce.realmId, JSON.stringify(ce)]);
  await c.query(`SELECT pg_notify('svc_events', '')`);
}

/** Every event (of any type) up to and including the first message event, then whatever else is queued. */
async function untilMessage(client: EventClient): Promise<Record<string, unknown>[]> {
  const got: Record<string, unknown>[] = [];
  for (let i = 0; i < 20 && !got.some((e) => e.type === 'message'); i++) got.push(...(await client.next()));
  return [...got, ...(await client.drain())];
}

const alertWords = (words: string[]): ClientEvent => ({ realmId, event: { type: 'alert_words', alert_words: words }, userIds: [t.owner.id] });
const messageIds = (events: Record<string, unknown>[]) => events.filter((e) => e.type === 'message').map((e) => (e.message as { id: number }).id);

it('delivers 30 concurrent sends of four users to every queue once, all in the same order: the journal (xid, id) order', async () => {
  const clients = [...(await registerAll(t, users, { event_types: ['message'] })), await EventClient.register(t, users[1], { event_types: ['message'] })];
  const other = await t.createOrganization('elsewhere', 'boss@example.com');
  const outsider = await EventClient.register(t, other, { event_types: ['message'] });

  const sent = await Promise.all(Array.from({ length: 30 }, (_, i) => sendToChannel(t, users[i % users.length], 'race', 'concurrent', `m${i}`)));

  const journal: { id: number }[] = await t.sql(
    `SELECT (payload->'event'->'message'->>'id')::int AS id FROM events
     WHERE payload->'event'->>'type' = 'message' AND (payload->'event'->'message'->>'id')::int = ANY($1) ORDER BY xid, id`,
    [sent],
  );
  const order = journal.map((r) => r.id);
  expect([...order].sort((a, b) => a - b)).toEqual([...sent].sort((a, b) => a - b));
  for (const c of clients) {
    expect(await c.ofType('message', 30).then(messageIds)).toEqual(order);
    expect(await c.drain()).toEqual([]);
  }
  expect(await outsider.drain()).toEqual([]);
}, 60_000);

it('lets a send commit while another transaction that journaled events is still open, and delivers both in transaction order', async () => {
  const client = await EventClient.register(t, t.owner, { event_types: ['message', 'alert_words'] });
  const ds = t.app.get(DataSource);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let journaled!: () => void;
  const inside = new Promise<void>((resolve) => (journaled = resolve));
  // An older transaction of the same organization appends its events and stays open.
  const older = ds.transaction(async (em) => {
    await em.query('SELECT pg_current_xact_id()');
    await appendEvents(em, [alertWords(['older'])]);
    journaled();
    await gate;
  });
  await inside;

  // Under the former per-organization lock this send waited for `older` to commit (here: forever).
  const later = await sendToChannel(t, users[2], 'race', 'not serialized', 'sent while an older writer is open');
  await t.app.get(PgEventListener).catchUp();
  expect(await client.drain()).toEqual([]); // held back behind the older transaction

  release();
  await older;
  const all = await untilMessage(client);
  expect(all.map((e) => e.type)).toEqual(['alert_words', 'message']);
  expect(all[0]).toMatchObject({ alert_words: ['older'] });
  expect(messageIds(all)).toEqual([later]);
}, 60_000);

it.each(['COMMIT', 'ROLLBACK'])(
  'holds a committed send back behind an older open transaction that writes no event, and delivers it after its %s without any NOTIFY',
  async (end) => {
    const client = await EventClient.register(t, users[1], { event_types: ['message'] });
    const older = await openTransaction();
    const mark = scheduler.delays.length;
    const later = await sendToChannel(t, users[3], 'race', 'held back', `behind a transaction that will ${end}`);

    await t.app.get(PgEventListener).catchUp();
    expect(await client.drain()).toEqual([]);

    await older.query(end); // writes no journal row: no notification follows
    expect(messageIds(await client.ofType('message', 1))).toEqual([later]);
    expect(await client.drain()).toEqual([]);
    // It came through the listener's re-reads (nothing else runs: no periodic catch-up here).
    const retries = scheduler.delays.slice(mark);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((ms) => ms >= HELD_BACK_RETRY_FIRST_MS && ms <= HELD_BACK_RETRY_MAX_MS)).toBe(true);
  },
  60_000,
);

it('leaves out of a new queue exactly the events its registration snapshot saw committed', async () => {
  const before = await sendToChannel(t, t.owner, 'race', 'snapshot', 'committed before register');
  // Running during the registration: its event is not in the initial state, so it belongs in the queue.
  const running = await openTransaction();
  await journalDirectly(running, alertWords(['running at register']));
  // Newer than `running` but committed before the registration: in the initial state, not in the queue.
  const newerCommitted = await openTransaction();
  await journalDirectly(newerCommitted, alertWords(['committed before register']));
  await newerCommitted.query('COMMIT');

  const client = await EventClient.register(t, t.owner, { event_types: ['message', 'alert_words'] });
  await running.query('COMMIT');
  const after = await sendToChannel(t, t.owner, 'race', 'snapshot', 'committed after register');

  const all = await untilMessage(client);
  expect(all.map((e) => e.type)).toEqual(['alert_words', 'message']);
  expect(all[0]).toMatchObject({ alert_words: ['running at register'] });
  expect(messageIds(all)).toEqual([after]);
  expect(messageIds(all)).not.toContain(before);
}, 60_000);

it('reads the journal at each commit only while a poll waits on the process; a poll first reads what was left', async () => {
  const queues = t.app.get(EventQueues);
  const client = await EventClient.register(t, users[1], { event_types: ['message'] });
  expect(await client.drain()).toEqual([]);
  const before = queues.window.end;
  // No poll waits: the commit (and an explicit request) leave the journal unread.
  const first = await sendToChannel(t, users[2], 'race', 'lazy', 'read by the next poll');
  await t.app.get(PgEventListener).catchUp();
  expect(queues.window.end).toBe(before);
  expect(messageIds(await client.ofType('message', 1))).toEqual([first]);
  expect(queues.window.end).toBeGreaterThan(before!);
  // A poll waits: the next commit's pass wakes it.
  const waiting = t.get('events', { as: users[1], query: { queue_id: client.queueId, last_event_id: client.lastEventId } });
  const answered = waiting.then((r) => r);
  await vi.waitFor(() => expect(queues.hasWaiters).toBe(true), { timeout: 10_000, interval: 10 });
  const second = await sendToChannel(t, users[2], 'race', 'lazy', 'wakes the waiting poll');
  const res = await answered;
  expect(messageIds(res.body.events)).toEqual([second]);
}, 60_000);
