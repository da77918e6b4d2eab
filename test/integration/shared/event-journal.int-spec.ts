import { DataSource } from 'typeorm';
import type { ClientEvent } from '../../../src/shared/application/client-event.js';
import { appendEvents } from '../../../src/shared/persistence/event-journal.js';
import { TestApp } from '../../support/test-app.js';

/** appendEvents: a transaction's events as journal rows, in one statement, stamped with the writing transaction's id. */
let t: TestApp;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  const other = await t.createOrganization('other');
  otherRealmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [other.id]))[0].realm_id;
});
afterAll(() => t.close());

const journal = (): Promise<{ id: string; realm_id: number; xid: string; payload: ClientEvent; created: Date }[]> =>
  ds.query(`SELECT id, realm_id, xid::text AS xid, payload, created FROM events WHERE payload->'event'->>'type' LIKE 'test-%' ORDER BY xid, id`);

describe('appendEvents', () => {
  it('writes the events in order, each in its organization, with the id of the writing transaction', async () => {
    const events: ClientEvent[] = [
      { realmId, event: { type: 'test-1' }, userIds: [1, 2] },
      { realmId: otherRealmId, event: { type: 'test-2', n: 2 }, userIds: [], everyone: true },
      { realmId, event: { type: 'test-3' }, userIds: [3], perUser: { 3: { flags: ['read'] } } },
    ];
    const xid = await ds.transaction(async (em) => {
      await appendEvents(em, events);
      return ((await em.query(`SELECT pg_current_xact_id()::text AS xid`)) as { xid: string }[])[0].xid;
    });
    const rows = await journal();
    expect(rows).toEqual(events.map((payload) => ({ id: expect.any(String), realm_id: payload.realmId, xid, payload, created: expect.any(Date) })));
    const ids = rows.map((r) => BigInt(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('writes nothing for a transaction that rolls back', async () => {
    const before = (await journal()).length;
    await expect(
      ds.transaction(async (em) => {
        await appendEvents(em, [{ realmId, event: { type: 'test-rolled-back' }, userIds: [1] }]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await journal()).toHaveLength(before);
  });

  it('lets concurrent writers append without waiting for each other', async () => {
    const a = ds.createQueryRunner();
    const b = ds.createQueryRunner();
    try {
      await a.startTransaction();
      await b.startTransaction();
      await appendEvents(a.manager, [{ realmId, event: { type: 'test-a' }, userIds: [1] }]);
      await appendEvents(b.manager, [{ realmId, event: { type: 'test-b' }, userIds: [1] }]); // would hang under a lock held by a
      await b.commitTransaction();
      await a.commitTransaction();
    } finally {
      await a.release();
      await b.release();
    }
    // Ordered by the writers' transaction ids, not by commit order.
    expect((await journal()).slice(-2).map((r) => r.payload.event.type)).toEqual(['test-a', 'test-b']);
  });
});
