import { ScheduledMessage, type ScheduledMessageState } from '@app/domain/drafts';
import type { DataSource } from 'typeorm';
import { DraftQueries } from '../../../src/drafts/application/draft.ports.js';
import { TypeOrmScheduledMessageRepository } from '../../../src/drafts/persistence/typeorm-scheduled-message.repository.js';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import type { TestApp } from '../../support/test-app.js';
import { startAdapterSuite, whileRowLocked } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: DraftQueries;
let realmId: number;
let otherRealmId: number;
let channelId: number;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId } = await startAdapterSuite());
  queries = t.app.get(DraftQueries);
  channelId = (await createChannels(t, ['scheduled'])).scheduled;
});
afterAll(() => t.close());

/** Due messages of earlier tests would be claimed first: every test starts with none pending. */
beforeEach(() => ds.query(`UPDATE scheduled_messages SET delivered = true WHERE NOT delivered`));

const base = new Date('2025-01-01T00:00:00.123Z');
const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);

const state = (ownerId: number, o: Partial<ScheduledMessageState> = {}): ScheduledMessageState => ({
  id: 0,
  ownerId,
  target: { kind: 'channel', channelId, topic: 'plans' },
  content: 'later',
  renderedContent: '<p>later</p>',
  sendingClient: 'test client',
  readBySender: false,
  scheduledAt: at(10),
  delivered: false,
  deliveredMessageId: null,
  failed: false,
  failureMessage: null,
  ...o,
});
const insert = (s: ScheduledMessageState, realm = realmId) => uow.run((tx) => tx.scheduledMessages.insert(realm, ScheduledMessage.restore(s)));

describe('TypeOrmScheduledMessageRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.scheduledMessages).toBeInstanceOf(TypeOrmScheduledMessageRepository));
  });

  it('stores channel and direct messages and restores every field (participants ascending)', async () => {
    const u = await t.createUser();
    const channel = await insert(state(u.id, { readBySender: true }));
    const direct = await insert(state(u.id, { target: { kind: 'direct', participantIds: [u.id, t.owner.id].sort((a, b) => b - a) }, scheduledAt: at(5) }));
    const found = await uow.run(async (tx) => [
      (await tx.scheduledMessages.findOwned(realmId, u.id, channel))?.snapshot(),
      (await tx.scheduledMessages.findOwned(realmId, u.id, direct))?.snapshot(),
    ]);
    expect(found).toEqual([
      state(u.id, { id: channel, readBySender: true }),
      state(u.id, { id: direct, target: { kind: 'direct', participantIds: [t.owner.id, u.id].sort((a, b) => a - b) }, scheduledAt: at(5) }),
    ]);
    expect(await ds.query(`SELECT realm_id, channel_id, topic, direct_user_ids FROM scheduled_messages WHERE id = ANY($1::int[]) ORDER BY id`, [[channel, direct]])).toEqual([
      { realm_id: realmId, channel_id: channelId, topic: 'plans', direct_user_ids: [] },
      { realm_id: realmId, channel_id: null, topic: '', direct_user_ids: [u.id, t.owner.id].sort((a, b) => b - a) },
    ]);
    expect((await queries.scheduledMessages(realmId, u.id)).map((m) => m.id)).toEqual([direct, channel]);
  });

  it('finds (locked), saves and deletes only the owner’s message of the organization', async () => {
    const [u, someone] = [await t.createUser(), await t.createUser()];
    const id = await insert(state(u.id));
    await uow.run(async (tx) => {
      expect(await tx.scheduledMessages.findOwned(realmId, someone.id, id)).toBeNull();
      expect(await tx.scheduledMessages.findOwned(otherRealmId, u.id, id)).toBeNull();
      const m = (await tx.scheduledMessages.findOwned(realmId, u.id, id))!;
      await expect(t.sql(`SELECT 1 FROM scheduled_messages WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      const changed = { ...m.snapshot(), content: 'edited', failed: true, failureMessage: 'nope', target: { kind: 'direct' as const, participantIds: [someone.id] } };
      await tx.scheduledMessages.save(realmId, ScheduledMessage.restore(changed));
      await tx.scheduledMessages.save(otherRealmId, ScheduledMessage.restore({ ...changed, content: 'hijacked' }));
    });
    const expected = state(u.id, { id, content: 'edited', failed: true, failureMessage: 'nope', target: { kind: 'direct', participantIds: [someone.id] } });
    expect(await queries.scheduledMessages(realmId, u.id)).toEqual([expected]);
    expect(await queries.scheduledMessages(otherRealmId, u.id)).toEqual([]);
    await uow.run((tx) => tx.scheduledMessages.delete(otherRealmId, id));
    expect(await queries.scheduledMessages(realmId, u.id)).toHaveLength(1);
    await uow.run((tx) => tx.scheduledMessages.delete(realmId, id));
    expect(await queries.scheduledMessages(realmId, u.id)).toEqual([]);
  });

  it('claims the oldest due pending message of any organization, passing over skipped and locked ones', async () => {
    const u = await t.createUser();
    const first = await insert(state(u.id, { scheduledAt: at(1) }));
    const second = await insert(state(t.owner.id, { scheduledAt: at(2) }), otherRealmId);
    const third = await insert(state(u.id, { scheduledAt: at(3) }));
    await insert(state(u.id, { scheduledAt: at(0), failed: true }));
    await insert(state(u.id, { scheduledAt: at(60) }));
    const claim = (skip: number[] = []) =>
      uow.run(async (tx) => {
        const due = await tx.scheduledMessages.claimDue(at(30), skip);
        return due && { realmId: due.realmId, state: due.message.snapshot() };
      });
    expect(await claim()).toEqual({ realmId, state: state(u.id, { id: first, scheduledAt: at(1) }) });
    expect(await claim([first])).toEqual({ realmId: otherRealmId, state: state(t.owner.id, { id: second, scheduledAt: at(2) }) });
    expect((await whileRowLocked(t, 'scheduled_messages', first, () => claim([second])))?.state.id).toBe(third);
    await ds.query(`UPDATE scheduled_messages SET delivered = true WHERE id = ANY($1::int[])`, [[first, second, third]]);
    expect(await claim()).toBeNull();
  });

  it('undoes the writes of a failed attempt while keeping the row locked', async () => {
    const u = await t.createUser();
    const id = await insert(state(u.id, { scheduledAt: at(1) }));
    await uow.run(async (tx) => {
      const due = (await tx.scheduledMessages.claimDue(at(30), []))!;
      await tx.scheduledMessages.beginAttempt();
      await tx.scheduledMessages.save(due.realmId, ScheduledMessage.restore({ ...due.message.snapshot(), content: 'attempted', delivered: true }));
      await tx.scheduledMessages.undoAttempt();
      await expect(t.sql(`SELECT 1 FROM scheduled_messages WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      await tx.scheduledMessages.save(due.realmId, ScheduledMessage.restore({ ...due.message.snapshot(), failed: true, failureMessage: 'failed' }));
    });
    expect(await queries.scheduledMessages(realmId, u.id)).toEqual([state(u.id, { id, scheduledAt: at(1), failed: true, failureMessage: 'failed' })]);
  });
});
