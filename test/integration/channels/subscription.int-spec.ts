import { pairKey, Subscription, type SubscriptionState } from '@app/domain/channels';
import { DataSource } from 'typeorm';
import { TypeOrmSubscriptionRepository } from '../../../src/channels/persistence/typeorm-subscription.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { subscriptionState } from '../../../libs/domain/test/builders.js';
import { createChannels } from '../../support/channels.js';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let channels: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  channels = await createChannels(t, ['sub one', 'sub two', 'sub three']);
});
afterAll(() => t.close());

const state = (userId: number, channelId: number, o: Partial<SubscriptionState> = {}): SubscriptionState => subscriptionState({ userId, channelId, ...o });

describe('TypeOrmSubscriptionRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.subscriptions).toBeInstanceOf(TypeOrmSubscriptionRepository));
  });

  it('inserts new subscriptions and rewrites existing ones in one statement, with the organization', async () => {
    const [a, b] = [await t.createUser(), await t.createUser()];
    const one = channels['sub one'];
    const two = channels['sub two'];
    const first = [state(a.id, one), state(b.id, one, { active: false, color: '#fae589', desktopNotifications: true })];
    await uow.run((tx) => tx.subscriptions.save(realmId, first.map((s) => Subscription.restore(s))));
    const changed = [
      state(a.id, one, { isMuted: true, pinToTop: true, audibleNotifications: false, pushNotifications: true, emailNotifications: false, wildcardMentionsNotify: true }),
      state(a.id, two, { color: '#c2c2c2' }),
    ];
    await uow.run((tx) => tx.subscriptions.save(realmId, changed.map((s) => Subscription.restore(s))));
    const rows = await ds.query(
      `SELECT * FROM subscriptions WHERE user_id = ANY($1::int[]) AND channel_id = ANY($2::int[]) ORDER BY user_id, channel_id`,
      [[a.id, b.id], [one, two]],
    );
    expect(rows.map(({ id: _, ...r }: { id: number }) => r)).toEqual([
      {
        realm_id: realmId,
        user_id: a.id,
        channel_id: one,
        active: true,
        color: '#76ce90',
        is_muted: true,
        pin_to_top: true,
        desktop_notifications: null,
        audible_notifications: false,
        push_notifications: true,
        email_notifications: false,
        wildcard_mentions_notify: true,
      },
      expect.objectContaining({ realm_id: realmId, user_id: a.id, channel_id: two, color: '#c2c2c2', active: true }),
      expect.objectContaining({ realm_id: realmId, user_id: b.id, channel_id: one, color: '#fae589', active: false, desktop_notifications: true }),
    ]);
    await uow.run((tx) => tx.subscriptions.save(realmId, []));
  });

  it('loads the pairs’ subscriptions, active or left, by pair key, as aggregates (locked) or records', async () => {
    const [a, b] = [await t.createUser(), await t.createUser()];
    const one = channels['sub one'];
    const three = channels['sub three'];
    const saved = [state(a.id, one, { pushNotifications: false }), state(b.id, three, { active: false, color: '#e79ab5' })];
    await uow.run((tx) => tx.subscriptions.save(realmId, saved.map((s) => Subscription.restore(s))));
    const expected = new Map(saved.map((s) => [pairKey(s.userId, s.channelId), s]));
    // a in three and b in one were never subscribed: absent.
    const records = await uow.run((tx) => tx.subscriptions.records([a.id, b.id], [one, three]));
    expect(records).toEqual(expected);
    const locked = await uow.run(async (tx) => {
      const m = await tx.subscriptions.getForUpdate([a.id, b.id], [one, three]);
      return new Map([...m].map(([k, s]) => [k, s.snapshot()]));
    });
    expect(locked).toEqual(expected);
    expect(await uow.run((tx) => tx.subscriptions.records([], [one]))).toEqual(new Map());
    expect(await uow.run((tx) => tx.subscriptions.getForUpdate([a.id], []))).toEqual(new Map());
  });

  it('holds the row lock until the transaction ends', async () => {
    const a = await t.createUser();
    const one = channels['sub one'];
    await uow.run((tx) => tx.subscriptions.save(realmId, [Subscription.restore(state(a.id, one))]));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = uow.run(async (tx) => {
      await tx.subscriptions.getForUpdate([a.id], [one]);
      locked();
      await held;
    });
    await isLocked;
    const waiter = t.sql(`SELECT 1 FROM subscriptions WHERE user_id = $1 AND channel_id = $2 FOR UPDATE NOWAIT`, [a.id, one]);
    await expect(waiter).rejects.toThrow(/could not obtain lock/);
    release();
    await holder;
  });

  it('lists every colour each user uses, left subscriptions included', async () => {
    const [a, b] = [await t.createUser(), await t.createUser()];
    await uow.run((tx) =>
      tx.subscriptions.save(realmId, [
        Subscription.restore(state(a.id, channels['sub one'], { color: '#111111' })),
        Subscription.restore(state(a.id, channels['sub two'], { color: '#222222', active: false })),
        Subscription.restore(state(a.id, channels['sub three'], { color: '#111111' })),
      ]),
    );
    const colors = await uow.run((tx) => tx.subscriptions.usedColors([a.id, b.id]));
    // Besides these, the colours of the default channels new users are subscribed to.
    const stored = async (userId: number) =>
      new Set((await ds.query(`SELECT color FROM subscriptions WHERE user_id = $1`, [userId])).map((r: { color: string }) => r.color));
    expect([...colors.keys()]).toEqual([a.id, b.id]);
    expect(colors.get(a.id)).toEqual(await stored(a.id));
    expect([...colors.get(a.id)!]).toEqual(expect.arrayContaining(['#111111', '#222222']));
    expect(colors.get(b.id)).toEqual(await stored(b.id));
    expect(await uow.run((tx) => tx.subscriptions.usedColors([]))).toEqual(new Map());
  });
});
