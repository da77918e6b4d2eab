import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TypeOrmBotRepository } from '../../../src/users/persistence/typeorm-bot.repository.js';
import { startAdapterSuite } from '../../support/adapter-suite.js';
import type { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId } = await startAdapterSuite());
});
afterAll(() => t.close());

describe('TypeOrmBotRepository', () => {
  it('is the adapter of its port', async () => {
    await uow.run(async (tx) => expect(tx.bots).toBeInstanceOf(TypeOrmBotRepository));
  });

  it('maps a bot row whole with its owner’s address, and lists bots by owner and activity', async () => {
    const member = await t.createUser();
    const first = await t.createBot(member, 'first');
    const second = await t.createBot(t.owner, 'second', 2);
    const [row] = await ds.query(`SELECT email, api_key FROM users WHERE id = $1`, [first.id]);
    const [owner] = await ds.query(`SELECT email FROM users WHERE id = $1`, [member.id]);
    const expected = {
      id: first.id,
      email: row.email,
      fullName: 'first bot',
      botType: 1,
      isActive: true,
      apiKey: row.api_key,
      ownerId: member.id,
      ownerEmail: owner.email,
      avatarVersion: 1,
      avatarPath: null,
      defaultSendingStreamId: null,
      defaultEventsRegisterStreamId: null,
      defaultAllPublicStreams: false,
    };
    expect(await uow.run((tx) => tx.bots.find(realmId, first.id))).toEqual(expected);
    expect(await uow.run((tx) => tx.bots.find(otherRealmId, first.id))).toBeNull();
    expect(await uow.run((tx) => tx.bots.find(realmId, member.id))).toBeNull();
    expect(await uow.run((tx) => tx.bots.list(realmId, { ownerId: member.id }))).toEqual([expected]);
    expect((await uow.run((tx) => tx.bots.list(realmId, {}))).map((b) => b.id)).toEqual([first.id, second.id]);
    expect(await uow.run((tx) => tx.bots.list(otherRealmId, {}))).toEqual([]);

    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [first.id]);
    expect((await uow.run((tx) => tx.bots.list(realmId, { activeOnly: true }))).map((b) => b.id)).toEqual([second.id]);
    expect((await uow.run((tx) => tx.bots.list(realmId, { activeOnly: false }))).map((b) => b.id)).toEqual([first.id, second.id]);
  });

  it('updates only the given columns of a bot of the organization', async () => {
    const bot = await t.createBot(t.owner, 'changing');
    const [{ id: channelId }] = await ds.query(`SELECT id FROM channels WHERE realm_id = $1 ORDER BY id LIMIT 1`, [realmId]);
    const before = (await uow.run((tx) => tx.bots.find(realmId, bot.id)))!;
    await uow.run((tx) => tx.bots.update(otherRealmId, bot.id, { defaultAllPublicStreams: true }));
    await uow.run((tx) => tx.bots.update(realmId, bot.id, {}));
    expect(await uow.run((tx) => tx.bots.find(realmId, bot.id))).toEqual(before);
    await uow.run((tx) =>
      tx.bots.update(realmId, bot.id, { defaultSendingStreamId: channelId, defaultEventsRegisterStreamId: channelId, defaultAllPublicStreams: true, apiKey: 'n'.repeat(32) }),
    );
    expect(await uow.run((tx) => tx.bots.find(realmId, bot.id))).toEqual({
      ...before,
      defaultSendingStreamId: channelId,
      defaultEventsRegisterStreamId: channelId,
      defaultAllPublicStreams: true,
      apiKey: 'n'.repeat(32),
    });
    await uow.run((tx) => tx.bots.update(realmId, bot.id, { defaultSendingStreamId: null }));
    expect(await uow.run((tx) => tx.bots.find(realmId, bot.id))).toMatchObject({ defaultSendingStreamId: null, defaultEventsRegisterStreamId: channelId });
    // Not a bot: nothing changes.
    await uow.run((tx) => tx.bots.update(realmId, t.owner.id, { apiKey: 'z'.repeat(32) }));
    expect((await ds.query(`SELECT api_key FROM users WHERE id = $1`, [t.owner.id]))[0].api_key).toBe(t.owner.apiKey);
  });

  it('lists the active human administrators and owners by id', async () => {
    const admin = await t.createUser({ role: 200 });
    await t.createUser({ role: 300 });
    const ids = await uow.run((tx) => tx.bots.humanAdminIds(realmId));
    expect(ids).toEqual([t.owner.id, admin.id]);
    expect(await uow.run((tx) => tx.bots.humanAdminIds(otherRealmId))).not.toContain(t.owner.id);
  });
});
