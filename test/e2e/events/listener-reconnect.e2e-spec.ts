import type pg from 'pg';
import { DataSource } from 'typeorm';
import { inject } from 'vitest';
import { EventQueues } from '../../../src/events/application/event-queues.js';
import { QueueStore } from '../../../src/events/application/queue-store.js';
import { HELD_BACK_RETRY_MAX_MS, LISTENER_APPLICATION_NAME, reconnectDelayMs } from '../../../src/events/persistence/pg-event-listener.js';
import { type Cancel, Scheduler, SystemScheduler } from '../../../src/shared/application/scheduler.js';
import { SETTINGS_CHANGED_CHANNEL, SettingsInvalidation } from '../../../src/shared/application/settings-invalidation.js';
import { adminClient } from '../../support/databases.js';
import { EventClient } from '../../support/events.js';
import { ManualScheduler } from '../../support/manual-scheduler.js';
import { sendDirect } from '../../support/messages.js';
import { TestApp } from '../../support/test-app.js';

/**
 * Issue 13, finding 3: the event listener's LISTEN connection is killed again and again. There is
 * exactly one listening connection at any time, reconnection waits a jittered, growing delay
 * (timers fire only when this test runs them), and events committed while nobody listened are
 * read from the journal after reconnecting: every event reaches the queue once, in order.
 */
let t: TestApp;
let admin: pg.Client;
let dbName: string;
/**
 * Reconnections wait for this test; the listener's short re-reads of events held back by an
 * older transaction still running (other test databases share the cluster's transaction ids)
 * run on real timers, as they are not what this file is about.
 */
class ReconnectScheduler extends ManualScheduler {
  private readonly real = new SystemScheduler();
  override after(ms: number, fn: () => void): Cancel {
    return ms <= HELD_BACK_RETRY_MAX_MS ? this.real.after(ms, fn) : super.after(ms, fn);
  }
}
const scheduler = new ReconnectScheduler();

/** Records what the listener reports about changed organization settings. */
class RecordingSettings extends SettingsInvalidation {
  readonly calls: string[] = [];
  changed(realmId: number): void {
    this.calls.push(`changed ${realmId}`);
  }
  all(): void {
    this.calls.push('all');
  }
}
const settings = new RecordingSettings();
let settingsCallsAtStart: string[] = [];

beforeAll(async () => {
  t = await TestApp.start({}, undefined, (b) => b.overrideProvider(Scheduler).useValue(scheduler).overrideProvider(SettingsInvalidation).useValue(settings));
  settingsCallsAtStart = [...settings.calls];
  admin = await adminClient(inject('adminUrl'));
  dbName = new URL(t.databaseUrl).pathname.slice(1);
});
afterAll(async () => {
  await admin?.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
  await admin?.end();
  await t?.close();
});

async function listenerPids(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 ORDER BY pid`,
    [dbName, LISTENER_APPLICATION_NAME],
  );
  return rows.map((r) => r.pid);
}

/** Waits until exactly one listener connection exists and returns its backend's pid. */
async function theListener(): Promise<number> {
  return vi.waitFor(
    async () => {
      const pids = await listenerPids();
      expect(pids).toHaveLength(1);
      return pids[0];
    },
    { timeout: 30_000, interval: 25 },
  );
}

/** Reads message events until `count` arrived; returns their message ids. */
async function receivedIds(client: EventClient, count: number): Promise<number[]> {
  const events = await client.ofType('message', count);
  return events.map((e) => (e.message as { id: number }).id);
}

it('keeps one listening connection across five kills and delivers every event once, in order', async () => {
  scheduler.randomValues = [0, 0.99, 0.5, 0.25, 0.75];
  scheduler.delays.length = 0;
  const client = await EventClient.register(t, t.owner, { event_types: ['message'] });
  const sent: number[] = [];
  const send = async (content: string) => sent.push(await sendDirect(t, undefined, [t.owner.id], content));

  await send('before the first kill');
  for (let kill = 1; kill <= 5; kill++) {
    const pid = await theListener();
    await send(`between kills ${kill}`);
    await admin.query(`SELECT pg_terminate_backend($1)`, [pid]);
    // The drop is noticed and exactly one reconnection is scheduled (its timer waits for us).
    await vi.waitFor(() => expect(scheduler.pending).toBe(1), { timeout: 30_000, interval: 10 });
    await vi.waitFor(async () => expect(await listenerPids()).toEqual([]), { timeout: 30_000, interval: 10 });
    // Committed while nobody listens: only the journal can bring these.
    await send(`during outage ${kill} (a)`);
    await send(`during outage ${kill} (b)`);
    expect(scheduler.runPending()).toBe(1);
  }
  await theListener();
  await send('after the last kill');

  expect(await receivedIds(client, sent.length)).toEqual(sent);
  expect(await client.drain()).toEqual([]);
  expect(await listenerPids()).toHaveLength(1);
  expect(scheduler.pending).toBe(0);
  // Each reconnection (the first attempt after a drop) waited its jittered delay.
  expect(scheduler.delays).toEqual([0, 0.99, 0.5, 0.25, 0.75].map((r) => reconnectDelayMs(1, r)));
}, 120_000);

it('backs off with growing delays while the database refuses connections, and catches up once back', async () => {
  scheduler.randomValues = [0.5];
  scheduler.delays.length = 0;
  const client = await EventClient.register(t, t.owner, { event_types: ['message'] });
  const pid = await theListener();
  await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
  await admin.query(`SELECT pg_terminate_backend($1)`, [pid]);
  for (let attempt = 1; attempt <= 4; attempt++) {
    await vi.waitFor(() => expect(scheduler.pending).toBe(1), { timeout: 30_000, interval: 10 });
    expect(scheduler.delays).toHaveLength(attempt);
    scheduler.runPending(); // this attempt is refused
  }
  await vi.waitFor(() => expect(scheduler.pending).toBe(1), { timeout: 30_000, interval: 10 });
  await vi.waitFor(async () => expect(await listenerPids()).toEqual([]), { timeout: 30_000, interval: 10 });
  await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
  const id = await sendDirect(t, undefined, [t.owner.id], 'sent before the listener is back');
  scheduler.runPending();
  await theListener();

  expect(await receivedIds(client, 1)).toEqual([id]);
  expect(scheduler.delays).toEqual([1, 2, 3, 4, 5].map((n) => reconnectDelayMs(n, 0.5)));
  expect(scheduler.delays[4]).toBeGreaterThan(scheduler.delays[0]);
  expect(scheduler.pending).toBe(0);
}, 60_000);

it('prunes the journal rows no queue needs any more, and later events still arrive', async () => {
  // The queues of the tests above expire first (their timeout passes without a poll).
  t.clock.advance(700);
  await t.app.get(EventQueues).collectNow();
  const count = async () => (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM events`))[0].n as number;
  const client = await EventClient.register(t, t.owner, { event_types: ['message'] });
  const idle = await EventClient.register(t, t.owner, { event_types: ['message'] });
  const first = await sendDirect(t, undefined, [t.owner.id], 'before the prune');
  expect(await receivedIds(client, 1)).toEqual([first]);
  const rowsOf = async (id: number) =>
    (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM events WHERE (payload->'event'->'message'->>'id')::int = $1`, [id]))[0].n as number;
  // The idle queue has not read it yet: its row stays.
  await t.app.get(QueueStore).pruneJournal();
  expect(await rowsOf(first)).toBe(1);
  expect(await receivedIds(idle, 1)).toEqual([first]);
  // Now every queue has read past it: the periodic prune removes it and everything older.
  await vi.waitFor(
    async () => {
      scheduler.runRepeating();
      expect(await count()).toBe(0);
    },
    { timeout: 30_000, interval: 100 },
  );

  const later = await sendDirect(t, undefined, [t.owner.id], 'after the prune');
  expect(await receivedIds(client, 1)).toEqual([later]);
  expect(await receivedIds(idle, 1)).toEqual([later]);
}, 60_000);

it('reports changed organization settings from the same connection, and drops them all after a reconnection', async () => {
  // Nothing to drop on the first connection (changes made while it starts are reported one by one).
  expect(settingsCallsAtStart).not.toContain('all');
  scheduler.randomValues = [0.5];
  const pid = await theListener();
  settings.calls.length = 0;
  await admin.query(`SELECT pg_terminate_backend($1)`, [pid]);
  await vi.waitFor(() => expect(scheduler.pending).toBe(1), { timeout: 30_000, interval: 10 });
  scheduler.runPending();
  await theListener();
  await vi.waitFor(() => expect(settings.calls).toEqual(['all']), { timeout: 30_000, interval: 10 });

  await t.app.get(DataSource).query(`SELECT pg_notify($1, '7'), pg_notify($1, '9')`, [SETTINGS_CHANGED_CHANNEL]);
  await vi.waitFor(() => expect(settings.calls).toEqual(['all', 'changed 7', 'changed 9']), { timeout: 30_000, interval: 10 });
  expect(await listenerPids()).toHaveLength(1);
}, 60_000);

it('spreads and caps the reconnection delay', () => {
  expect(reconnectDelayMs(1, 0)).toBeLessThan(reconnectDelayMs(1, 0.99));
  expect(reconnectDelayMs(3, 0)).toBeGreaterThanOrEqual(reconnectDelayMs(2, 0.99));
  expect(reconnectDelayMs(50, 0.99)).toBe(reconnectDelayMs(60, 0.99));
  expect(reconnectDelayMs(50, 0.99)).toBeLessThanOrEqual(30_000);
});
