import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { MutedUserQueries } from '../../../src/users/application/muted-users.ports.js';
import { TypeOrmMutedUserQueries, TypeOrmMutedUserRepository } from '../../../src/users/persistence/typeorm-muted-user.repository.js';
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

describe('TypeOrmMutedUserRepository / TypeOrmMutedUserQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(t.app.get(MutedUserQueries)).toBeInstanceOf(TypeOrmMutedUserQueries);
    await uow.run(async (tx) => expect(tx.mutedUsers).toBeInstanceOf(TypeOrmMutedUserRepository));
  });

  it('mutes once, lists by mute date, and unmutes within the organization', async () => {
    const [u, a, b] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const early = new Date('2025-01-01T00:00:10.900Z');
    const late = new Date('2025-01-02T00:00:00Z');
    expect(await uow.run((tx) => tx.mutedUsers.add(realmId, u.id, a.id, late))).toBe(true);
    expect(await uow.run((tx) => tx.mutedUsers.add(realmId, u.id, b.id, early))).toBe(true);
    expect(await uow.run((tx) => tx.mutedUsers.add(realmId, u.id, a.id, early))).toBe(false);
    const expected = [
      { id: b.id, timestamp: Math.floor(early.getTime() / 1000) },
      { id: a.id, timestamp: late.getTime() / 1000 },
    ];
    expect(await uow.run((tx) => tx.mutedUsers.list(realmId, u.id))).toEqual(expected);
    expect(await t.app.get(MutedUserQueries).list(realmId, u.id)).toEqual(expected);
    expect(await t.app.get(MutedUserQueries).list(otherRealmId, u.id)).toEqual([]);

    expect(await uow.run((tx) => tx.mutedUsers.remove(otherRealmId, u.id, a.id))).toBe(false);
    expect(await uow.run((tx) => tx.mutedUsers.remove(realmId, u.id, a.id))).toBe(true);
    expect(await uow.run((tx) => tx.mutedUsers.remove(realmId, u.id, a.id))).toBe(false);
    expect(await t.app.get(MutedUserQueries).list(realmId, u.id)).toEqual([expected[0]]);
  });
});
