import { DataSource } from 'typeorm';
import type { ClientEvent } from '../../../src/shared/application/client-event.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import type { QueueOptions, QueueRecord } from '../../../src/events/application/queue-record.js';
import { QueueStore } from '../../../src/events/application/queue-store.js';
import { PgQueueStore } from '../../../src/events/persistence/pg-queue-store.js';
import { TestApp } from '../../support/test-app.js';

/** Event queues and the journal as PgQueueStore reads and writes them (spec/30-events.md §9). */
let t: TestApp;
let store: PgQueueStore;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
let otherOwnerId: number;
beforeAll(async () => {
  t = await TestApp.start();
  store = t.app.get(QueueStore) as PgQueueStore;
  ds = t.app.get(DataSource);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  const other = await t.createOrganization('other');
  otherOwnerId = other.id;
  otherRealmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [other.id]))[0].realm_id;
});
afterAll(() => t.close());

const options = (lifespanSecs = 0): QueueOptions => ({
  eventTypes: ['message'],
  narrow: [['stream', 'general']],
  applyMarkdown: true,
  clientGravatar: false,
  allPublicStreams: false,
  slimPresence: true,
  readsPublicChannels: true,
  capabilities: {
    bulkMessageDeletion: true,
    linkifierUrlTemplate: true,
    emptyTopicName: false,
    archivedChannels: false,
    streamTypingNotifications: true,
    simplifiedPresenceEvents: false,
  },
  lifespanSecs,
});

const T0 = Date.parse('2030-01-01T00:00:00Z');
let queueNumber = 0;
const newId = () => `q-${(queueNumber += 1)}`;
const lastPolled = async (id: string) => (await ds.query(`SELECT last_polled FROM event_queues WHERE id = $1`, [id]))[0]?.last_polled as Date | undefined;
const queueIds = async (userId: number) =>
  ((await ds.query(`SELECT id FROM event_queues WHERE user_id = $1 ORDER BY id`, [userId])) as { id: string }[]).map((r) => r.id);

describe('PgQueueStore', () => {
  beforeEach(() => ds.query(`DELETE FROM event_queues`));

  it('creates a queue at the oldest running transaction, with its snapshot, and reads it back whole', async () => {
    const id = newId();
    const before: string = (await ds.query(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x`))[0].x;
    const { record, evicted } = await store.create(id, t.owner.id, realmId, options(), T0, 5);
    expect(evicted).toEqual([]);
    const expected: QueueRecord = {
      id,
      userId: t.owner.id,
      realmId,
      options: options(),
      snapshot: expect.stringMatching(/^\d+:\d+:[\d,]*$/),
      boundary: expect.any(Number),
      nextEventId: 0,
      newestDiscarded: -1,
      pending: [],
      version: 0,
    };
    expect(record).toEqual(expected);
    expect(record.boundary).toBeGreaterThanOrEqual(Number(before));
    const [row] = await ds.query(`SELECT timeout_secs, last_polled, boundary::text AS boundary FROM event_queues WHERE id = $1`, [id]);
    expect(row).toEqual({ timeout_secs: 600, last_polled: new Date(T0), boundary: String(record.boundary) });
  });

  it("drops the user's least recently polled queues beyond the cap, and no other user's", async () => {
    const u = await t.createUser();
    const [a, b, c] = [newId(), newId(), newId()];
    const mine = await store.create(newId(), t.owner.id, realmId, options(), T0, 1);
    await store.create(a, u.id, realmId, options(), T0, 2);
    await store.create(b, u.id, realmId, options(), T0 + 1000, 2);
    await store.poll(a, u.id, T0 + 2000); // a is now the most recently polled
    const created = await store.create(c, u.id, realmId, options(), T0 + 3000, 2);
    expect(created.evicted).toEqual([b]);
    expect(await queueIds(u.id)).toEqual([a, c].sort());
    expect(await queueIds(t.owner.id)).toEqual([mine.record.id]);
  });

  it("marks a poll and answers the queue, only to its user (null otherwise)", async () => {
    const id = newId();
    const { record } = await store.create(id, t.owner.id, realmId, options(60), T0, 5);
    expect(await store.poll(id, otherOwnerId, T0 + 5000)).toBeNull();
    expect(await lastPolled(id)).toEqual(new Date(T0));
    expect(await store.poll(id, t.owner.id, T0 + 5000)).toEqual(record);
    expect(await lastPolled(id)).toEqual(new Date(T0 + 5000));
    expect(await store.poll('missing', t.owner.id, T0)).toBeNull();
  });

  it('saves the events part only over the version it read, then bumps it', async () => {
    const id = newId();
    const { record } = await store.create(id, t.owner.id, realmId, options(), T0, 5);
    const stale = structuredClone(record);
    Object.assign(record, { snapshot: null, boundary: record.boundary + 3, nextEventId: 2, newestDiscarded: 0, pending: [{ id: 1, type: 'heartbeat' }] });
    expect(await store.save(record)).toBe(true);
    expect(record.version).toBe(1);
    expect(await store.poll(id, t.owner.id, T0)).toEqual(record);
    expect(await store.save(stale)).toBe(false); // version 0 was overwritten meanwhile
    expect(stale.version).toBe(0);
    expect(await store.poll(id, t.owner.id, T0)).toEqual(record);
  });

  it('checkpoints several queues in one statement, each only over its version, never moving last_polled back', async () => {
    const [a, b] = [newId(), newId()];
    const qa = (await store.create(a, t.owner.id, realmId, options(), T0 + 10_000, 5)).record;
    const qb = (await store.create(b, t.owner.id, realmId, options(), T0, 5)).record;
    const written = await store.checkpoint([
      { id: a, version: 0, snapshot: null, boundary: qa.boundary + 1, nextEventId: 1, newestDiscarded: -1, pending: [{ id: 0, type: 'x' }], polledAtMs: T0 },
      { id: b, version: 7, snapshot: null, boundary: qb.boundary + 1, nextEventId: 9, newestDiscarded: 8, pending: [], polledAtMs: T0 + 20_000 },
    ]);
    expect(written).toEqual(new Set([a]));
    expect(await store.poll(a, t.owner.id, T0)).toEqual({ ...qa, snapshot: null, boundary: qa.boundary + 1, nextEventId: 1, pending: [{ id: 0, type: 'x' }], version: 1 });
    expect(await store.poll(b, t.owner.id, T0)).toEqual(qb);
    expect(await store.checkpoint([])).toEqual(new Set());
  });

  it("checkpoint keeps the newer of the stored and the given poll time", async () => {
    const id = newId();
    await store.create(id, t.owner.id, realmId, options(), T0 + 10_000, 5);
    await store.checkpoint([{ id, version: 0, snapshot: null, boundary: 0, nextEventId: 0, newestDiscarded: -1, pending: [], polledAtMs: T0 }]);
    expect(await lastPolled(id)).toEqual(new Date(T0 + 10_000));
    await store.checkpoint([{ id, version: 1, snapshot: null, boundary: 0, nextEventId: 0, newestDiscarded: -1, pending: [], polledAtMs: T0 + 20_000 }]);
    expect(await lastPolled(id)).toEqual(new Date(T0 + 20_000));
  });

  it("deletes only the user's own queue", async () => {
    const id = newId();
    await store.create(id, t.owner.id, realmId, options(), T0, 5);
    expect(await store.delete(id, otherOwnerId)).toBe(false);
    expect(await store.delete(id, t.owner.id)).toBe(true);
    expect(await store.delete(id, t.owner.id)).toBe(false);
  });

  it('expires the queues idle past their timeout, except those with a poll waiting (marked polled now)', async () => {
    const [short, long, waiting] = [newId(), newId(), newId()];
    await store.create(short, t.owner.id, realmId, options(60), T0, 5);
    await store.create(long, t.owner.id, realmId, options(3600), T0, 5);
    await store.create(waiting, t.owner.id, realmId, options(60), T0, 5);
    expect(await store.expire([waiting], T0 + 59_000)).toEqual([]);
    expect(await lastPolled(waiting)).toEqual(new Date(T0 + 59_000));
    expect(await store.expire([], T0 + 60_000)).toEqual([short]);
    expect((await store.expire([], T0 + 3_600_000)).sort()).toEqual([long, waiting].sort());
    expect(await queueIds(t.owner.id)).toEqual([]);
  });
});

describe('PgQueueStore journal', () => {
  const event = (realm: number, type: string): ClientEvent => ({ realmId: realm, event: { type }, userIds: [1] });
  const journalOf = (...events: ClientEvent[]) => t.app.get(UnitOfWork).run(async (tx) => tx.afterCommit(events));
  const xids = async () => ((await ds.query(`SELECT DISTINCT xid::text AS xid FROM events ORDER BY 1`)) as { xid: string }[]).map((r) => Number(r.xid));

  it("reads one organization's rows of the transactions in [from, to), in (xid, id) order", async () => {
    await ds.query(`DELETE FROM events`);
    await journalOf(event(realmId, 'a1'), event(otherRealmId, 'other'), event(realmId, 'a2'));
    await journalOf(event(realmId, 'b1'));
    const [first, second] = await xids();
    expect(await store.journal(realmId, first, second + 1)).toEqual([
      { xid: first, event: event(realmId, 'a1') },
      { xid: first, event: event(realmId, 'a2') },
      { xid: second, event: event(realmId, 'b1') },
    ]);
    expect(await store.journal(realmId, first + 1, second)).toEqual([]);
    expect(await store.journal(realmId, second, second + 1)).toEqual([{ xid: second, event: event(realmId, 'b1') }]);
    expect(await store.journal(otherRealmId, first, second + 1)).toEqual([{ xid: first, event: event(otherRealmId, 'other') }]);
  });

  it("prunes the rows below every queue's boundary, and all of them once no queue needs them", async () => {
    await ds.query(`DELETE FROM events`);
    await ds.query(`DELETE FROM event_queues`);
    await journalOf(event(realmId, 'old'));
    await journalOf(event(realmId, 'new'));
    const [, newer] = await xids();
    const id = newId();
    await store.create(id, t.owner.id, realmId, options(), T0, 5);
    await ds.query(`UPDATE event_queues SET boundary = $2::xid8 WHERE id = $1`, [id, String(newer)]);
    const left = async () => ((await ds.query(`SELECT payload FROM events ORDER BY xid, id`)) as { payload: ClientEvent }[]).map((r) => r.payload.event.type);
    // Also below the oldest transaction running in the cluster: other tests' transactions may hold it back a moment.
    await vi.waitFor(async () => {
      await store.pruneJournal();
      expect(await left()).toEqual(['new']);
    });
    await ds.query(`DELETE FROM event_queues`);
    await vi.waitFor(async () => {
      await store.pruneJournal();
      expect(await left()).toEqual([]);
    });
  });

  it('prunes on one process at a time: a prune finding the lock taken deletes nothing', async () => {
    await journalOf(event(realmId, 'kept'));
    await ds.query(`DELETE FROM event_queues`);
    const runner = ds.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query(`SELECT pg_advisory_xact_lock($1, 0)`, [0x5eb2]);
      expect(await store.pruneJournal()).toBe(0);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
    await vi.waitFor(async () => expect(await store.pruneJournal()).toBeGreaterThan(0));
  });
});
