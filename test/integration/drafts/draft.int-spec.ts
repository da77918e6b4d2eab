import { Draft, type DraftState, ScheduledMessage } from '@app/domain/drafts';
import type { DataSource } from 'typeorm';
import { DraftQueries } from '../../../src/drafts/application/draft.ports.js';
import { TypeOrmDraftQueries, TypeOrmDraftRepository, TypeOrmSavedSnippetRepository } from '../../../src/drafts/persistence/typeorm-draft.repository.js';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import type { Account, TestApp } from '../../support/test-app.js';
import { startAdapterSuite } from '../../support/adapter-suite.js';

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
  channelId = (await createChannels(t, ['drafted'])).drafted;
});
afterAll(() => t.close());

const draft = (ownerId: number, o: Partial<DraftState> = {}): Draft =>
  Draft.restore({ id: 0, ownerId, type: 'stream', to: [channelId], topic: 'topic', content: 'text', timestamp: 1_700_000_000.123456, ...o });

async function sentMessage(as: Account): Promise<number> {
  const res = await t.post('messages', { as, form: { type: 'private', to: JSON.stringify([as.id]), content: 'target' } });
  return res.body.id;
}

describe('TypeOrmDraftRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => {
      expect(tx.drafts).toBeInstanceOf(TypeOrmDraftRepository);
      expect(tx.savedSnippets).toBeInstanceOf(TypeOrmSavedSnippetRepository);
    });
    expect(queries).toBeInstanceOf(TypeOrmDraftQueries);
  });

  it('inserts drafts of each type in one statement, returning ascending ids, and reads them back by edit time', async () => {
    const u = await t.createUser();
    const [a, b, c] = await uow.run((tx) =>
      tx.drafts.insert(realmId, [
        draft(u.id, { timestamp: 1_700_000_002.5 }),
        draft(u.id, { type: 'private', to: [u.id, t.owner.id], topic: '', timestamp: 1_700_000_001.25 }),
        draft(u.id, { type: '', to: [], topic: '', content: 'nowhere', timestamp: 1_700_000_003 }),
      ]),
    );
    expect(a < b && b < c).toBe(true);
    expect(await queries.drafts(realmId, u.id)).toEqual([
      { id: b, ownerId: u.id, type: 'private', to: [u.id, t.owner.id], topic: '', content: 'text', timestamp: 1_700_000_001.25 },
      { id: a, ownerId: u.id, type: 'stream', to: [channelId], topic: 'topic', content: 'text', timestamp: 1_700_000_002.5 },
      { id: c, ownerId: u.id, type: '', to: [], topic: '', content: 'nowhere', timestamp: 1_700_000_003 },
    ]);
    const [row] = await ds.query(`SELECT realm_id, channel_id, direct_user_ids FROM drafts WHERE id = $1`, [a]);
    expect(row).toEqual({ realm_id: realmId, channel_id: channelId, direct_user_ids: [] });
    expect(await queries.drafts(otherRealmId, u.id)).toEqual([]);
    expect(await uow.run((tx) => tx.drafts.insert(realmId, []))).toEqual([]);
  });

  it('keeps the timestamp to the microsecond', async () => {
    const u = await t.createUser();
    const [id] = await uow.run((tx) => tx.drafts.insert(realmId, [draft(u.id)]));
    const found = await uow.run((tx) => tx.drafts.findOwned(realmId, u.id, id));
    expect(found?.snapshot()).toEqual({ id, ownerId: u.id, type: 'stream', to: [channelId], topic: 'topic', content: 'text', timestamp: 1_700_000_000.123456 });
  });

  it('finds (locked), saves and deletes only the owner’s draft of the organization', async () => {
    const [u, someone] = [await t.createUser(), await t.createUser()];
    const [id] = await uow.run((tx) => tx.drafts.insert(realmId, [draft(u.id)]));
    await uow.run(async (tx) => {
      expect(await tx.drafts.findOwned(realmId, someone.id, id)).toBeNull();
      expect(await tx.drafts.findOwned(otherRealmId, u.id, id)).toBeNull();
      const d = (await tx.drafts.findOwned(realmId, u.id, id))!;
      await expect(t.sql(`SELECT 1 FROM drafts WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      d.replaceWith({ type: 'private', to: [someone.id], topic: '', content: 'edited', timestamp: 1_700_000_100.5 });
      await tx.drafts.save(realmId, d);
      await tx.drafts.save(otherRealmId, Draft.restore({ ...d.snapshot(), content: 'hijacked' }));
    });
    expect(await queries.drafts(realmId, u.id)).toEqual([
      { id, ownerId: u.id, type: 'private', to: [someone.id], topic: '', content: 'edited', timestamp: 1_700_000_100.5 },
    ]);
    expect((await ds.query(`SELECT channel_id FROM drafts WHERE id = $1`, [id]))[0].channel_id).toBeNull();
    await uow.run((tx) => tx.drafts.delete(otherRealmId, id));
    expect(await queries.drafts(realmId, u.id)).toHaveLength(1);
    await uow.run((tx) => tx.drafts.delete(realmId, id));
    expect(await queries.drafts(realmId, u.id)).toEqual([]);
  });
});

describe('TypeOrmSavedSnippetRepository', () => {
  const now = new Date('2025-01-02T03:04:05.678Z');

  it('inserts, locks, updates the fields given and deletes the owner’s snippet of the organization', async () => {
    const [u, someone] = [await t.createUser(), await t.createUser()];
    const id = await uow.run((tx) => tx.savedSnippets.insert({ realmId, userId: u.id, title: 'T', content: 'C', now }));
    const second = await uow.run((tx) => tx.savedSnippets.insert({ realmId, userId: u.id, title: 'T2', content: 'C2', now }));
    expect(await queries.savedSnippets(realmId, u.id)).toEqual([
      { id, title: 'T', content: 'C', dateCreated: now },
      { id: second, title: 'T2', content: 'C2', dateCreated: now },
    ]);
    await uow.run(async (tx) => {
      expect(await tx.savedSnippets.lockOwned(realmId, someone.id, id)).toBe(false);
      expect(await tx.savedSnippets.lockOwned(otherRealmId, u.id, id)).toBe(false);
      expect(await tx.savedSnippets.lockOwned(realmId, u.id, id)).toBe(true);
      await expect(t.sql(`SELECT 1 FROM saved_snippets WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
    });
    expect(await uow.run((tx) => tx.savedSnippets.update(realmId, id, { title: 'New' }))).toEqual({ id, title: 'New', content: 'C', dateCreated: now });
    expect(await uow.run((tx) => tx.savedSnippets.update(realmId, id, { content: 'D' }))).toEqual({ id, title: 'New', content: 'D', dateCreated: now });
    await uow.run((tx) => tx.savedSnippets.delete(otherRealmId, id));
    await uow.run((tx) => tx.savedSnippets.delete(realmId, second));
    expect(await queries.savedSnippets(realmId, u.id)).toEqual([{ id, title: 'New', content: 'D', dateCreated: now }]);
    expect(await queries.savedSnippets(otherRealmId, u.id)).toEqual([]);
  });
});

describe('TypeOrmDraftQueries', () => {
  it('reads the asked lists in one statement exactly as the single lists', async () => {
    const u = await t.createUser();
    const now = new Date('2025-05-06T07:08:09.123Z');
    const target = await sentMessage(u);
    await uow.run(async (tx) => {
      await tx.drafts.insert(realmId, [draft(u.id, { timestamp: 1_700_000_005.000001 }), draft(u.id, { type: 'private', to: [u.id] })]);
      await tx.savedSnippets.insert({ realmId, userId: u.id, title: 'S', content: 'snippet', now });
      for (const at of [new Date('2031-01-01T00:00:00.5Z'), new Date('2030-01-01T00:00:00Z')]) {
        await tx.reminders.insert({ realmId, userId: u.id, targetMessageId: target, note: 'n', content: 'c', renderedContent: '<p>c</p>', scheduledAt: at, now });
      }
      const m = ScheduledMessage.restore({
        id: 0,
        ownerId: u.id,
        target: { kind: 'direct', participantIds: [u.id, t.owner.id] },
        content: 'later',
        renderedContent: '<p>later</p>',
        sendingClient: 'test',
        readBySender: true,
        scheduledAt: new Date('2032-02-02T02:02:02.002Z'),
        delivered: false,
        deliveredMessageId: null,
        failed: false,
        failureMessage: null,
      });
      await tx.scheduledMessages.insert(realmId, m);
    });
    const separate = {
      drafts: await queries.drafts(realmId, u.id),
      savedSnippets: await queries.savedSnippets(realmId, u.id),
      reminders: await queries.reminders(realmId, u.id),
      scheduledMessages: await queries.scheduledMessages(realmId, u.id),
    };
    expect(separate.drafts).toHaveLength(2);
    expect(separate.reminders.map((r) => r.scheduledAt)).toEqual([new Date('2030-01-01T00:00:00Z'), new Date('2031-01-01T00:00:00.5Z')]);
    expect(separate.scheduledMessages).toHaveLength(1);
    const all = { drafts: true, savedSnippets: true, reminders: true, scheduledMessages: true };
    expect(await queries.userLists(realmId, u.id, all)).toEqual(separate);
    expect(await queries.userLists(realmId, u.id, { ...all, drafts: false, reminders: false })).toEqual({
      ...separate,
      drafts: [],
      reminders: [],
    });
    expect(await queries.userLists(realmId, u.id, { drafts: false, savedSnippets: false, reminders: false, scheduledMessages: false })).toEqual({
      drafts: [],
      savedSnippets: [],
      reminders: [],
      scheduledMessages: [],
    });
    expect(await queries.userLists(otherRealmId, u.id, all)).toEqual({ drafts: [], savedSnippets: [], reminders: [], scheduledMessages: [] });
  });
});
