import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { SessionQueries } from '../../../src/users/application/session.ports.js';
import { TypeOrmSessionQueries, TypeOrmSessionRepository } from '../../../src/users/persistence/typeorm-session.repository.js';
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

const now = new Date('2025-06-01T00:00:00Z');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const sid = (n: number) => String(n).padStart(64, '0');

describe('TypeOrmSessionRepository / TypeOrmSessionQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(t.app.get(SessionQueries)).toBeInstanceOf(TypeOrmSessionQueries);
    await uow.run(async (tx) => expect(tx.sessions).toBeInstanceOf(TypeOrmSessionRepository));
  });

  it('creates a session and maps its lookup whole (user and organization joined), within the organization', async () => {
    const u = await t.createUser({ role: 300 });
    await uow.run((tx) => tx.sessions.create({ sessionId: sid(1), realmId, userId: u.id, passwordStamp: 'stamp', now, expiresAt: at(60) }));
    const [user] = await ds.query(`SELECT email, password_hash FROM users WHERE id = $1`, [u.id]);
    const [realm] = await ds.query(`SELECT settings_version FROM realms WHERE id = $1`, [realmId]);
    expect(await t.app.get(SessionQueries).find(realmId, sid(1))).toEqual({
      sessionId: sid(1),
      realmId,
      userId: u.id,
      passwordStamp: 'stamp',
      lastSeenAt: now,
      expiresAt: at(60),
      email: user.email,
      role: 300,
      isBot: false,
      botType: null,
      isActive: true,
      passwordHash: user.password_hash,
      realmDeactivated: false,
      settingsVersion: Number(realm.settings_version),
    });
    expect(await t.app.get(SessionQueries).find(otherRealmId, sid(1))).toBeNull();
    expect(await t.app.get(SessionQueries).find(realmId, sid(2))).toBeNull();
  });

  it('touches forward only, ends sessions (keeping one with a new stamp) and purges ended ones', async () => {
    const u = await t.createUser();
    const find = (n: number) => t.app.get(SessionQueries).find(realmId, sid(n));
    await uow.run(async (tx) => {
      for (const n of [10, 11, 12]) await tx.sessions.create({ sessionId: sid(n), realmId, userId: u.id, passwordStamp: 'old', now, expiresAt: at(60) });
      await tx.sessions.create({ sessionId: sid(13), realmId, userId: u.id, passwordStamp: 'old', now, expiresAt: at(5) });
    });
    await uow.run((tx) => tx.sessions.touch(realmId, sid(10), at(2)));
    await uow.run((tx) => tx.sessions.touch(realmId, sid(10), at(1)));
    await uow.run((tx) => tx.sessions.touch(otherRealmId, sid(10), at(3)));
    expect((await find(10))?.lastSeenAt).toEqual(at(2));

    await uow.run((tx) => tx.sessions.purgeEnded(otherRealmId, u.id, at(10), at(1)));
    expect(await find(13)).not.toBeNull();
    // 13 expired; 11 and 12 idle since before at(1); 10 was seen at at(2).
    await uow.run((tx) => tx.sessions.purgeEnded(realmId, u.id, at(10), at(1)));
    expect([await find(10), await find(11), await find(12), await find(13)].map((s) => s !== null)).toEqual([true, false, false, false]);

    await uow.run(async (tx) => {
      await tx.sessions.create({ sessionId: sid(14), realmId, userId: u.id, passwordStamp: 'old', now, expiresAt: at(60) });
      await tx.sessions.endForUser(otherRealmId, u.id);
    });
    expect(await find(14)).not.toBeNull();
    await uow.run((tx) => tx.sessions.endForUser(realmId, u.id, { sessionId: sid(14), passwordStamp: 'new' }));
    expect(await find(10)).toBeNull();
    expect(await find(14)).toMatchObject({ passwordStamp: 'new' });
    await uow.run((tx) => tx.sessions.delete(otherRealmId, sid(14)));
    expect(await find(14)).not.toBeNull();
    await uow.run((tx) => tx.sessions.delete(realmId, sid(14)));
    expect(await find(14)).toBeNull();

    await uow.run((tx) => tx.sessions.create({ sessionId: sid(15), realmId, userId: u.id, passwordStamp: 'old', now, expiresAt: at(60) }));
    await uow.run((tx) => tx.sessions.endForUser(realmId, u.id));
    expect(await find(15)).toBeNull();
  });
});
