import { DomainError } from '@app/domain/shared';
import { DataSource } from 'typeorm';
import { TypeOrmDefaultChannelGroupRepository } from '../../../src/channels/persistence/typeorm-default-channel-group.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
let other: Account;
let ch: Record<string, number>;
let theirChannel: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;
  realmId = await realmOf(t.owner.id);
  other = await t.createOrganization('dcgother');
  otherRealmId = await realmOf(other.id);
  // Created in this order so that ids and names sort differently.
  ch = await createChannels(t, ['zulu', 'alpha', 'mike']);
  await t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'theirs' }] } }).expect(200);
  [{ id: theirChannel }] = await ds.query(`SELECT id FROM channels WHERE realm_id = $1 AND name = 'theirs'`, [otherRealmId]);
});
afterAll(() => t.close());

const groups = () => uow.run((tx) => tx.defaultChannelGroups.list(realmId));

describe('TypeOrmDefaultChannelGroupRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.defaultChannelGroups).toBeInstanceOf(TypeOrmDefaultChannelGroupRepository));
  });

  it('inserts a group with the organization’s channels among those given, listing them by channel name', async () => {
    const id = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Group one', 'first', [ch.zulu, ch.alpha, theirChannel]));
    expect((await groups()).find((g) => g.id === id)).toEqual({ id, name: 'Group one', description: 'first', channelIds: [ch.alpha, ch.zulu] });
    expect(await uow.run((tx) => tx.defaultChannelGroups.lock(realmId, id))).toEqual({ id, name: 'Group one', description: 'first', channelIds: [ch.alpha, ch.zulu] });
    expect(await uow.run((tx) => tx.defaultChannelGroups.lock(otherRealmId, id))).toBeNull();
    expect(await uow.run((tx) => tx.defaultChannelGroups.list(otherRealmId))).toEqual([]);
  });

  it('lists groups by id', async () => {
    const a = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Order b', '', []));
    const b = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Order a', '', []));
    const ids = (await groups()).map((g) => g.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
  });

  it('tells whether a name is taken (exactly) in the organization, and reports a duplicate lost to a race as the rule', async () => {
    await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Taken', '', []));
    await uow.run(async (tx) => {
      expect(await tx.defaultChannelGroups.nameTaken(realmId, 'Taken')).toBe(true);
      expect(await tx.defaultChannelGroups.nameTaken(realmId, 'taken')).toBe(false);
      expect(await tx.defaultChannelGroups.nameTaken(otherRealmId, 'Taken')).toBe(false);
    });
    const e = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Taken', '', [])).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DomainError);
    expect([(e as DomainError).msg, (e as DomainError).code]).toEqual(["Default channel group 'Taken' already exists", 'BAD_REQUEST']);
  });

  it('updates the name and description given, within the organization', async () => {
    const id = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Before', 'desc', []));
    await uow.run((tx) => tx.defaultChannelGroups.update(realmId, id, { name: 'After' }));
    await uow.run((tx) => tx.defaultChannelGroups.update(realmId, id, { description: 'new desc' }));
    await uow.run((tx) => tx.defaultChannelGroups.update(otherRealmId, id, { name: 'Hijacked', description: 'x' }));
    expect(await uow.run((tx) => tx.defaultChannelGroups.lock(realmId, id))).toEqual({ id, name: 'After', description: 'new desc', channelIds: [] });
  });

  it('adds (idempotently) and removes channels of the organization only', async () => {
    const id = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Members', '', [ch.mike]));
    await uow.run(async (tx) => {
      await tx.defaultChannelGroups.addChannels(realmId, id, [ch.zulu, ch.mike, theirChannel]);
      await tx.defaultChannelGroups.addChannels(otherRealmId, id, [theirChannel]);
    });
    const channelIds = async () => (await uow.run((tx) => tx.defaultChannelGroups.lock(realmId, id)))?.channelIds;
    expect(await channelIds()).toEqual([ch.mike, ch.zulu]);
    await uow.run((tx) => tx.defaultChannelGroups.removeChannels(otherRealmId, id, [ch.mike]));
    expect(await channelIds()).toEqual([ch.mike, ch.zulu]);
    await uow.run((tx) => tx.defaultChannelGroups.removeChannels(realmId, id, [ch.mike, ch.alpha]));
    expect(await channelIds()).toEqual([ch.zulu]);
  });

  it('takes a channel out of every group of the organization, telling whether any had it', async () => {
    const a = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Everywhere a', '', [ch.alpha, ch.mike]));
    const b = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Everywhere b', '', [ch.alpha]));
    expect(await uow.run((tx) => tx.defaultChannelGroups.removeChannelEverywhere(otherRealmId, ch.alpha))).toBe(false);
    expect(await uow.run((tx) => tx.defaultChannelGroups.removeChannelEverywhere(realmId, ch.alpha))).toBe(true);
    expect(await uow.run((tx) => tx.defaultChannelGroups.removeChannelEverywhere(realmId, ch.alpha))).toBe(false);
    const byId = new Map((await groups()).map((g) => [g.id, g.channelIds]));
    expect([byId.get(a), byId.get(b)]).toEqual([[ch.mike], []]);
  });

  it('removes a group of the organization only', async () => {
    const id = await uow.run((tx) => tx.defaultChannelGroups.insert(realmId, 'Removed', '', [ch.alpha]));
    await uow.run((tx) => tx.defaultChannelGroups.remove(otherRealmId, id));
    expect(await uow.run((tx) => tx.defaultChannelGroups.lock(realmId, id))).not.toBeNull();
    await uow.run((tx) => tx.defaultChannelGroups.remove(realmId, id));
    expect(await uow.run((tx) => tx.defaultChannelGroups.lock(realmId, id))).toBeNull();
    expect(await ds.query(`SELECT 1 FROM default_channel_group_channels WHERE group_id = $1`, [id])).toEqual([]);
  });
});
