import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { BotStorageQueries } from '../../../src/users/application/bot-storage.ports.js';
import { TypeOrmBotStorageQueries, TypeOrmBotStorageRepository } from '../../../src/users/persistence/typeorm-bot-storage.repository.js';
import { startAdapterSuite } from '../../support/adapter-suite.js';
import type { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  ({ t, uow, realmId, otherRealmId } = await startAdapterSuite());
});
afterAll(() => t.close());

describe('TypeOrmBotStorageRepository / TypeOrmBotStorageQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(t.app.get(BotStorageQueries)).toBeInstanceOf(TypeOrmBotStorageQueries);
    await uow.run(async (tx) => expect(tx.botStorage).toBeInstanceOf(TypeOrmBotStorageRepository));
  });

  it('puts (replacing), reads, sizes and removes one bot’s entries within the organization', async () => {
    const bot = await t.createBot(t.owner, 'storage');
    const other = await t.createBot(t.owner, 'storage2');
    const queries = t.app.get(BotStorageQueries);
    await uow.run(async (tx) => {
      await tx.botStorage.lock(realmId, bot.id);
      await tx.botStorage.put(realmId, bot.id, [['b', 'two'], ['a', 'one'], ['é', 'ü']]);
      await tx.botStorage.put(realmId, bot.id, [['b', 'TWO!']]);
      await tx.botStorage.put(realmId, bot.id, []);
      await tx.botStorage.put(realmId, other.id, [['a', 'other']]);
    });
    expect(await queries.entries(realmId, bot.id, null)).toEqual([['b', 'TWO!'], ['a', 'one'], ['é', 'ü']]);
    expect(await queries.entries(realmId, bot.id, ['a', 'x'])).toEqual([['a', 'one']]);
    expect(await queries.entries(otherRealmId, bot.id, null)).toEqual([]);
    // Sizes count code points: b+TWO! = 5, a+one = 4, é+ü = 2.
    expect(await uow.run((tx) => tx.botStorage.sizes(realmId, bot.id, ['a', 'é', 'x']))).toEqual({ total: 11, ofWrittenKeys: 6 });
    expect(await uow.run((tx) => tx.botStorage.sizes(realmId, bot.id, []))).toEqual({ total: 11, ofWrittenKeys: 0 });
    expect(await uow.run((tx) => tx.botStorage.sizes(otherRealmId, bot.id, ['a']))).toEqual({ total: 0, ofWrittenKeys: 0 });

    expect(await uow.run((tx) => tx.botStorage.remove(otherRealmId, bot.id, null))).toBe(0);
    expect(await uow.run((tx) => tx.botStorage.remove(realmId, bot.id, ['a', 'x']))).toBe(1);
    expect(await uow.run((tx) => tx.botStorage.remove(realmId, bot.id, null))).toBe(2);
    expect(await queries.entries(realmId, bot.id, null)).toEqual([]);
    expect(await queries.entries(realmId, other.id, null)).toEqual([['a', 'other']]);
  });
});
