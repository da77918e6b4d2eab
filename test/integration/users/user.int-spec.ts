import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import type { NewUser } from '../../../src/users/application/user.ports.js';
import { TypeOrmUserRepository } from '../../../src/users/persistence/typeorm-user.repository.js';
import { failure, startAdapterSuite } from '../../support/adapter-suite.js';
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

const joined = new Date('2025-03-04T05:06:07Z');
let n = 0;
const newUser = (o: Partial<NewUser> = {}): NewUser => {
  n += 1;
  return {
    realmId,
    email: `repo${n}@example.com`,
    deliveryEmail: `Repo${n}@example.com`,
    fullName: `Repo ${n}`,
    passwordHash: null,
    apiKey: `key-${n}-${'x'.repeat(26)}`,
    role: 400,
    isBot: false,
    botType: null,
    botOwnerId: null,
    isSystemBot: false,
    dateJoined: joined,
    defaultAllPublicStreams: false,
    defaultLanguage: 'en',
    ...o,
  };
};

describe('TypeOrmUserRepository (on the UserRow entity)', () => {
  it('is the adapter of its port', async () => {
    await uow.run(async (tx) => expect(tx.users).toBeInstanceOf(TypeOrmUserRepository));
  });

  it('inserts a user and maps its row whole', async () => {
    const u = newUser();
    const id = await uow.run((tx) => tx.users.insert(u));
    expect(await uow.run((tx) => tx.users.findById(realmId, id))).toEqual({
      id,
      realmId,
      email: u.email,
      deliveryEmail: u.deliveryEmail,
      fullName: u.fullName,
      role: 400,
      isActive: true,
      isBot: false,
      botType: null,
      botOwnerId: null,
      isSystemBot: false,
      dateJoined: joined,
      timezone: '',
      avatarVersion: 1,
      avatarPath: null,
      defaultSendingStreamId: null,
      defaultEventsRegisterStreamId: null,
      defaultAllPublicStreams: false,
      emailAddressVisibility: 1,
    });
    expect(await uow.run((tx) => tx.users.findById(otherRealmId, id))).toBeNull();
    expect(await uow.run((tx) => tx.users.findById(realmId, 2 ** 40))).toBeNull();
  });

  it('translates a duplicate address (either one, any case) into the rule it protects', async () => {
    const u = newUser();
    await uow.run((tx) => tx.users.insert(u));
    const e = await failure(uow.run((tx) => tx.users.insert({ ...newUser(), deliveryEmail: u.deliveryEmail.toUpperCase() })));
    // The message names the clashing key as the index holds it (lowercased).
    expect(e.msg).toBe(`Email '${u.deliveryEmail.toLowerCase()}' already in use`);
    expect((await failure(uow.run((tx) => tx.users.insert({ ...newUser(), email: u.email })))).msg).toBe(`Email '${u.email}' already in use`);
    // Another organization may use the same address.
    await uow.run((tx) => tx.users.insert({ ...newUser(), realmId: otherRealmId, email: u.email, deliveryEmail: u.deliveryEmail }));
  });

  it('finds users by ids, real addresses and API addresses within the organization', async () => {
    const a = newUser();
    const b = newUser();
    const [ia, ib] = await uow.run(async (tx) => [await tx.users.insert(a), await tx.users.insert(b)]);
    const foreign = await uow.run((tx) => tx.users.insert({ ...newUser(), realmId: otherRealmId }));
    await uow.run(async (tx) => {
      const byId = await tx.users.findManyByIds(realmId, [ia, ib, foreign, -1]);
      expect([...byId.keys()].sort()).toEqual([ia, ib].sort());
      expect(byId.get(ia)).toEqual(await tx.users.findById(realmId, ia));
      const byEmail = await tx.users.findManyByEmails(realmId, [` ${a.deliveryEmail.toUpperCase()} `, 'nobody@example.com']);
      expect([...byEmail.entries()].map(([k, v]) => [k, v.id])).toEqual([[a.deliveryEmail.toLowerCase(), ia]]);
      const byApi = await tx.users.findManyByApiEmails(realmId, [b.email.toUpperCase()]);
      expect([...byApi.entries()].map(([k, v]) => [k, v.id])).toEqual([[b.email, ib]]);
      expect((await tx.users.findManyByIds(realmId, [])).size).toBe(0);
      expect((await tx.users.findManyByEmails(realmId, [])).size).toBe(0);
      expect((await tx.users.findManyByApiEmails(realmId, [])).size).toBe(0);
    });
  });

  it('loads a user for update, saves its role, name and activity, and answers the name and address checks', async () => {
    const u = newUser({ fullName: 'Ｃａｆé' });
    const id = await uow.run((tx) => tx.users.insert(u));
    await uow.run(async (tx) => {
      expect(await tx.users.emailInUse(realmId, u.deliveryEmail.toLowerCase())).toBe(true);
      expect(await tx.users.emailInUse(realmId, u.email.toUpperCase())).toBe(true);
      expect(await tx.users.emailInUse(otherRealmId, u.email)).toBe(false);
      expect(await tx.users.activeUserNamed(realmId, 'Ｃａｆé')).toBe(true);
      expect(await tx.users.activeUserNamed(otherRealmId, 'Ｃａｆé')).toBe(false);
      expect(await tx.users.fullNameTaken(realmId, 'CAFé', 0)).toBe(true);
      expect(await tx.users.fullNameTaken(realmId, 'CAFé', id)).toBe(false);
      expect(await tx.users.getForUpdate(otherRealmId, id)).toBeNull();
      const user = await tx.users.getForUpdate(realmId, id);
      expect(user?.snapshot()).toEqual(expect.objectContaining({ id, role: 400, fullName: 'Ｃａｆé', isActive: true }));
    });
    await ds.query(`UPDATE users SET role = 200, full_name = 'Renamed', is_active = false WHERE id = $1`, [id]);
    const user = await uow.run((tx) => tx.users.getForUpdate(realmId, id));
    await ds.query(`UPDATE users SET role = 400, full_name = 'x', is_active = true WHERE id = $1`, [id]);
    await uow.run((tx) => tx.users.save(user!));
    expect(await uow.run((tx) => tx.users.findById(realmId, id))).toMatchObject({ role: 200, fullName: 'Renamed', isActive: false });
    expect(await uow.run((tx) => tx.users.activeUserNamed(realmId, 'Renamed'))).toBe(false);
  });

  it('finds a system bot by its address’s local part', async () => {
    const bot = await uow.run((tx) => tx.users.systemBot(realmId, 'notification-bot'));
    expect(bot).toMatchObject({ realmId, isSystemBot: true, isBot: true });
    expect(bot.email.startsWith('notification-bot@')).toBe(true);
    await expect(uow.run((tx) => tx.users.systemBot(realmId, 'no-such-bot'))).rejects.toThrow();
  });

  it('counts and locks the active human owners, and deactivates an owner’s bots', async () => {
    const counts = await uow.run(async (tx) => [await tx.users.lockActiveHumanOwners(realmId), await tx.users.countActiveHumans(realmId)]);
    const [{ owners, humans }] = await ds.query(
      `SELECT count(*) FILTER (WHERE role = 100)::int AS owners, count(*)::int AS humans FROM users WHERE realm_id = $1 AND is_active AND NOT is_bot`,
      [realmId],
    );
    expect(counts).toEqual([owners, humans]);

    const owner = await uow.run((tx) => tx.users.insert(newUser()));
    const bots = await uow.run(async (tx) => [
      await tx.users.insert(newUser({ isBot: true, botType: 1, botOwnerId: owner })),
      await tx.users.insert(newUser({ isBot: true, botType: 2, botOwnerId: owner })),
    ]);
    expect(await uow.run((tx) => tx.users.findById(realmId, bots[1]))).toMatchObject({ isBot: true, botType: 2, botOwnerId: owner });
    expect(await uow.run((tx) => tx.users.deactivateBotsOwnedBy(otherRealmId, owner))).toEqual([]);
    expect(await uow.run((tx) => tx.users.deactivateBotsOwnedBy(realmId, owner))).toEqual(bots.sort((a, b) => a - b));
    expect(await uow.run((tx) => tx.users.deactivateBotsOwnedBy(realmId, owner))).toEqual([]);
  });

  it('locks the avatar and bumps its version on every change', async () => {
    const u = newUser();
    const id = await uow.run((tx) => tx.users.insert(u));
    expect(await uow.run((tx) => tx.users.lockAvatar(realmId, id))).toEqual({ deliveryEmail: u.deliveryEmail, avatarVersion: 1, avatarPath: null });
    expect(await uow.run((tx) => tx.users.lockAvatar(otherRealmId, id))).toBeNull();
    const path = `${realmId}/${'a'.repeat(40)}`;
    expect(await uow.run((tx) => tx.users.setAvatar(realmId, id, path))).toBe(2);
    expect(await uow.run((tx) => tx.users.lockAvatar(realmId, id))).toEqual({ deliveryEmail: u.deliveryEmail, avatarVersion: 2, avatarPath: path });
    expect(await uow.run((tx) => tx.users.setAvatar(realmId, id, null))).toBe(3);
  });
});
