import { DataSource } from 'typeorm';
import { EventQueues } from '../../../src/events/application/event-queues.js';
import { LISTENER_APPLICATION_NAME, PgEventListener, reconnectDelayMs } from '../../../src/events/persistence/pg-event-listener.js';
import type { ClientEvent } from '../../../src/shared/application/client-event.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TestApp } from '../../support/test-app.js';

/**
 * PgEventListener's passes over the journal against the real PostgreSQL (spec/30-events.md §9):
 * the rows of ended transactions, in (xid, id) order, once; rows of a transaction that committed
 * after an older one still running wait for it. Killed connections and many processes are the
 * e2e tests' (listener-reconnect, scale-out, journal-order).
 */
let t: TestApp;
let ds: DataSource;
let listener: PgEventListener;
let queues: EventQueues;
let realmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  listener = t.app.get(PgEventListener);
  queues = t.app.get(EventQueues);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
});
afterAll(() => t.close());

const event = (type: string): ClientEvent => ({ realmId, event: { type }, userIds: [t.owner.id] });
const journalOf = (...events: ClientEvent[]) => t.app.get(UnitOfWork).run(async (tx) => tx.afterCommit(events));
const TEST_TYPES = /^test-/;

/** The test events the window holds from `from` on, after a pass (as a poll would run it). */
async function windowFrom(from: number): Promise<{ xid: number; type: string }[]> {
  await listener.ready();
  const read = queues.window.rowsFrom(from);
  if (read === null) throw new Error('the window does not reach back to the start of the test');
  return read.rows.filter((r) => TEST_TYPES.test(r.event.event.type)).map((r) => ({ xid: r.xid, type: r.event.event.type }));
}

describe('PgEventListener', () => {
  it("hands each ended transaction's rows to the window once, in (xid, id) order, whole", async () => {
    await listener.ready();
    const start = queues.window.end!;
    await journalOf(event('test-a1'), event('test-a2'));
    await journalOf(event('test-b1'));
    const xids = ((await ds.query(`SELECT xid::text AS xid FROM events WHERE payload->'event'->>'type' LIKE 'test-%' ORDER BY xid, id`)) as { xid: string }[]).map((r) =>
      Number(r.xid),
    );
    await vi.waitFor(async () => expect((await windowFrom(start)).map((r) => r.type)).toEqual(['test-a1', 'test-a2', 'test-b1']));
    expect(await windowFrom(start)).toEqual([
      { xid: xids[0], type: 'test-a1' },
      { xid: xids[1], type: 'test-a2' },
      { xid: xids[2], type: 'test-b1' },
    ]);
    expect(xids[0]).toBe(xids[1]);
    expect(queues.window.rowsFrom(start)!.rows.find((r) => r.event.event.type === 'test-b1')!.event).toEqual(event('test-b1'));
  });

  it('keeps back the rows of a transaction that ended after an older one still running, until that one ends', async () => {
    await listener.ready();
    const start = queues.window.end!;
    const older = ds.createQueryRunner();
    try {
      await older.startTransaction();
      const [{ xid }]: { xid: string }[] = await older.query(`SELECT pg_current_xact_id()::text AS xid`);
      await journalOf(event('test-late'));
      expect(await windowFrom(start)).toEqual([]);
      expect(queues.window.end).toBeLessThanOrEqual(Number(xid));
      await older.commitTransaction();
    } finally {
      await older.release();
    }
    await vi.waitFor(async () => expect((await windowFrom(start)).map((r) => r.type)).toEqual(['test-late']));
  });

  it(`listens on one connection named ${LISTENER_APPLICATION_NAME}, and listens again after it is killed`, async () => {
    const listening = async () =>
      ((await ds.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`, [LISTENER_APPLICATION_NAME])) as {
        pid: number;
      }[]).map((r) => r.pid);
    const [pid, ...others] = await listening();
    expect(others).toEqual([]);
    await ds.query(`SELECT pg_terminate_backend($1)`, [pid]);
    await vi.waitFor(
      async () => {
        const now = await listening();
        expect(now).toHaveLength(1);
        expect(now[0]).not.toBe(pid);
      },
      { timeout: 10_000, interval: 50 },
    );
    // Reconnected, it reads on from where it stopped.
    await listener.ready();
    const start = queues.window.end!;
    await journalOf(event('test-after'));
    await vi.waitFor(async () => expect((await windowFrom(start)).map((r) => r.type)).toEqual(['test-after']));
  });

  it('waits a jittered, growing delay between reconnection attempts', () => {
    expect([1, 2, 3].map((n) => reconnectDelayMs(n, 0))).toEqual([125, 250, 500]);
    expect(reconnectDelayMs(1, 0.999)).toBe(250);
    expect(reconnectDelayMs(30, 0)).toBe(15_000);
  });
});
