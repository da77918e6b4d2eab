import { DataSource } from 'typeorm';
import type { TopicVisibilityRepository } from '../../../src/messages/application/message.ports.js';
import { TypeOrmTopicVisibilityRepository } from '../../../src/messages/persistence/typeorm-topic-visibility.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

/*
 * TypeOrmTopicVisibilityRepository against PostgreSQL: users' topic policies (user_topics rows,
 * one per user, channel and case-insensitive topic) as sending and moving change them.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = await realmOf(ds, t.owner.id);
});
afterAll(() => t.close());

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;
const repo = <T>(work: (r: TopicVisibilityRepository) => Promise<T>) => uow.run((tx) => work(tx.topicVisibility));
const ascending = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
const rows = (channelId: number): Promise<{ realm_id: number; user_id: number; topic_name: string; visibility_policy: number; last_updated: Date }[]> =>
  ds.query(`SELECT realm_id, user_id, topic_name, visibility_policy, last_updated FROM user_topics WHERE channel_id = $1 ORDER BY user_id, topic_name`, [
    channelId,
  ]);

describe('TypeOrmTopicVisibilityRepository', () => {
  it('sets policies, everywhere or only where users inherit, and reads them case-insensitively', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmTopicVisibilityRepository);
    const a = await t.createUser();
    const b = await t.createUser();
    const channelId = await channelWith(t, 'policies', [a, b]);
    const t1 = new Date('2026-01-01T00:00:00Z');
    const t2 = new Date('2026-01-02T00:00:00Z');
    expect(ascending(await repo((r) => r.set(realmId, [a.id], channelId, 'Topic', MUTED, t1, false)))).toEqual([a.id]);
    expect(ascending(await repo((r) => r.set(realmId, [a.id, b.id], channelId, 'TOPIC', FOLLOWED, t2, true)))).toEqual([b.id]);
    expect(await rows(channelId)).toEqual([
      { realm_id: realmId, user_id: a.id, topic_name: 'Topic', visibility_policy: MUTED, last_updated: t1 },
      { realm_id: realmId, user_id: b.id, topic_name: 'TOPIC', visibility_policy: FOLLOWED, last_updated: t2 },
    ]);
    expect(ascending(await repo((r) => r.set(realmId, [a.id, b.id], channelId, 'topic', UNMUTED, t2, false)))).toEqual(ascending([a.id, b.id]));
    expect(await repo((r) => r.policy(a.id, channelId, 'tOpIc'))).toBe(UNMUTED);
    expect(await repo((r) => r.policy(a.id, channelId, 'other'))).toBe(0);
    expect(await repo((r) => r.set(realmId, [], channelId, 'topic', MUTED, t2, false))).toEqual([]);
    expect(ascending(await repo((r) => r.usersWithPolicy(channelId, 'TOPIC')))).toEqual(ascending([a.id, b.id]));
    expect(await repo((r) => r.usersWithPolicy(channelId, 'other'))).toEqual([]);
  });

  it('changes policies only where they differ, and removes them for inherit', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const c = await t.createUser();
    const channelId = await channelWith(t, 'changes', [a, b, c]);
    const t1 = new Date('2026-01-01T00:00:00Z');
    const t2 = new Date('2026-01-03T00:00:00Z');
    await repo((r) => r.set(realmId, [a.id, b.id], channelId, 'x', MUTED, t1, false));
    await repo((r) => r.set(realmId, [c.id], channelId, 'x', FOLLOWED, t1, false));
    expect(await repo((r) => r.change(realmId, [c.id, b.id, a.id], channelId, 'X', FOLLOWED, t2))).toEqual(ascending([a.id, b.id]));
    expect((await rows(channelId)).find((r) => r.user_id === c.id)?.last_updated).toEqual(t1);
    expect((await rows(channelId)).find((r) => r.user_id === a.id)).toMatchObject({ visibility_policy: FOLLOWED, last_updated: t2 });
    expect(await repo((r) => r.change(realmId, [b.id, a.id], channelId, 'x', 0, t2))).toEqual(ascending([a.id, b.id]));
    expect(await repo((r) => r.change(realmId, [b.id], channelId, 'x', 0, t2))).toEqual([]);
    expect((await rows(channelId)).map((r) => r.user_id)).toEqual([c.id]);
    expect(await repo((r) => r.change(realmId, [], channelId, 'x', MUTED, t2))).toEqual([]);
  });

  it('moves policies with a whole topic, the more visible one winning', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const c = await t.createUser();
    const from = await channelWith(t, 'movesrc', [a, b, c]);
    const to = await channelWith(t, 'movedst', [a, b, c]);
    const t1 = new Date('2026-01-01T00:00:00Z');
    const t2 = new Date('2026-01-02T00:00:00Z');
    await repo((r) => r.set(realmId, [a.id], from, 'Old', FOLLOWED, t1, false));
    await repo((r) => r.set(realmId, [b.id], from, 'old', MUTED, t1, false));
    await repo((r) => r.set(realmId, [b.id], to, 'New', UNMUTED, t2, false));
    await repo((r) => r.set(realmId, [c.id], from, 'other', MUTED, t1, false));
    const result = await repo((r) => r.moveWithTopic({ channelId: from, topic: 'OLD' }, { channelId: to, topic: 'new' }));
    expect({ removed: ascending(result.removed), set: [...result.set].sort((x, y) => x.userId - y.userId) }).toEqual({
      removed: ascending([a.id, b.id]),
      set: [
        { userId: a.id, policy: FOLLOWED, lastUpdated: t1 },
        { userId: b.id, policy: UNMUTED, lastUpdated: t2 },
      ].sort((x, y) => x.userId - y.userId),
    });
    expect((await rows(from)).map((r) => [r.user_id, r.topic_name])).toEqual([[c.id, 'other']]);
    expect((await rows(to)).map((r) => [r.user_id, r.topic_name, r.visibility_policy])).toEqual(
      [
        [a.id, 'new', FOLLOWED],
        [b.id, 'New', UNMUTED],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)),
    );
  });

  it('keeps the policies of a topic renamed to itself in another case', async () => {
    const a = await t.createUser();
    const channelId = await channelWith(t, 'recase', [a]);
    await repo((r) => r.set(realmId, [a.id], channelId, 'case', MUTED, new Date('2026-01-01T00:00:00Z'), false));
    const result = await repo((r) => r.moveWithTopic({ channelId, topic: 'case' }, { channelId, topic: 'CASE' }));
    expect(result.removed).toEqual([]);
    expect(result.set.map((s) => [s.userId, s.policy])).toEqual([[a.id, MUTED]]);
    expect((await rows(channelId)).map((r) => [r.user_id, r.visibility_policy])).toEqual([[a.id, MUTED]]);
  });
});
