import type { DataSource } from 'typeorm';
import { DraftQueries, type NewReminder } from '../../../src/drafts/application/draft.ports.js';
import { TypeOrmReminderRepository } from '../../../src/drafts/persistence/typeorm-reminder.repository.js';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import type { Account, TestApp } from '../../support/test-app.js';
import { startAdapterSuite, whileRowLocked } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: DraftQueries;
let realmId: number;
let otherRealmId: number;
let target: number;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId } = await startAdapterSuite());
  queries = t.app.get(DraftQueries);
  const res = await t.post('messages', { form: { type: 'private', to: JSON.stringify([t.owner.id]), content: 'target' } });
  target = res.body.id;
});
afterAll(() => t.close());

/** Due reminders of earlier tests would be claimed first: every test starts with none pending. */
beforeEach(() => ds.query(`UPDATE reminders SET delivered = true WHERE NOT delivered`));

const now = new Date('2025-01-01T00:00:00Z');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

const reminder = (u: Account, scheduledAt: Date, o: Partial<NewReminder> = {}): NewReminder => ({
  realmId,
  userId: u.id,
  targetMessageId: target,
  note: 'the note',
  content: 'content',
  renderedContent: '<p>content</p>',
  scheduledAt,
  now,
  ...o,
});
const insert = (r: NewReminder) => uow.run((tx) => tx.reminders.insert(r));

describe('TypeOrmReminderRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.reminders).toBeInstanceOf(TypeOrmReminderRepository));
  });

  it('inserts reminders and lists the owner’s undelivered ones (failed too) by delivery time', async () => {
    const u = await t.createUser();
    const later = await insert(reminder(u, at(20)));
    const sooner = await insert(reminder(u, at(10), { content: 'sooner', renderedContent: '<p>sooner</p>' }));
    const delivered = await insert(reminder(u, at(5)));
    await uow.run((tx) => tx.reminders.markDelivered(delivered, null));
    await uow.run((tx) => tx.reminders.markFailed(later, 'gone'));
    expect(await queries.reminders(realmId, u.id)).toEqual([
      { id: sooner, ownerId: u.id, targetMessageId: target, content: 'sooner', renderedContent: '<p>sooner</p>', scheduledAt: at(10), failed: false },
      { id: later, ownerId: u.id, targetMessageId: target, content: 'content', renderedContent: '<p>content</p>', scheduledAt: at(20), failed: true },
    ]);
    expect(await queries.reminders(otherRealmId, u.id)).toEqual([]);
    const [row] = await ds.query(`SELECT note, date_created, failure_message FROM reminders WHERE id = $1`, [later]);
    expect(row).toEqual({ note: 'the note', date_created: now, failure_message: 'gone' });
  });

  it('locks and deletes only the owner’s reminder of the organization', async () => {
    const [u, someone] = [await t.createUser(), await t.createUser()];
    const id = await insert(reminder(u, at(1)));
    await uow.run(async (tx) => {
      expect(await tx.reminders.lockOwned(realmId, someone.id, id)).toBe(false);
      expect(await tx.reminders.lockOwned(otherRealmId, u.id, id)).toBe(false);
      expect(await tx.reminders.lockOwned(realmId, u.id, id)).toBe(true);
      await expect(t.sql(`SELECT 1 FROM reminders WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
    });
    await uow.run((tx) => tx.reminders.delete(otherRealmId, id));
    expect(await queries.reminders(realmId, u.id)).toHaveLength(1);
    await uow.run((tx) => tx.reminders.delete(realmId, id));
    expect(await queries.reminders(realmId, u.id)).toEqual([]);
  });

  it('claims the oldest due reminder that is pending and not locked by another transaction', async () => {
    const u = await t.createUser();
    const first = await insert(reminder(u, at(1), { note: 'first' }));
    const second = await insert(reminder(u, at(2), { note: 'second' }));
    const failed = await insert(reminder(u, at(0)));
    await uow.run((tx) => tx.reminders.markFailed(failed, 'x'));
    await insert(reminder(u, at(60)));
    expect(await uow.run((tx) => tx.reminders.claimDue(at(30)))).toEqual({
      id: first,
      realmId,
      userId: u.id,
      targetMessageId: target,
      note: 'first',
      content: 'content',
      renderedContent: '<p>content</p>',
      scheduledAt: at(1),
    });
    expect((await whileRowLocked(t, 'reminders', first, () => uow.run((tx) => tx.reminders.claimDue(at(30)))))?.id).toBe(second);
    await uow.run(async (tx) => {
      await tx.reminders.markDelivered(first, target);
      await tx.reminders.markDelivered(second, null);
    });
    expect(await uow.run((tx) => tx.reminders.claimDue(at(30)))).toBeNull();
    expect(await ds.query(`SELECT delivered, delivered_message_id FROM reminders WHERE id = ANY($1::int[]) ORDER BY id`, [[first, second]])).toEqual([
      { delivered: true, delivered_message_id: target },
      { delivered: true, delivered_message_id: null },
    ]);
  });

  it('refuses to deliver twice, and does not fail a delivered reminder', async () => {
    const u = await t.createUser();
    const id = await insert(reminder(u, at(1)));
    await uow.run((tx) => tx.reminders.markDelivered(id, null));
    await expect(uow.run((tx) => tx.reminders.markDelivered(id, null))).rejects.toThrow(`reminder ${id} was not pending delivery`);
    expect(await uow.run((tx) => tx.reminders.markFailed(id, 'late'))).toBe(false);
    const pending = await insert(reminder(u, at(2)));
    expect(await uow.run((tx) => tx.reminders.markFailed(pending, 'broken'))).toBe(true);
    expect(await ds.query(`SELECT failed, failure_message FROM reminders WHERE id = ANY($1::int[]) ORDER BY id`, [[id, pending]])).toEqual([
      { failed: false, failure_message: null },
      { failed: true, failure_message: 'broken' },
    ]);
  });
});
