import type { DataSource } from 'typeorm';
import { PresenceQueries, PresenceUsers } from '../../../src/presence/application/presence.ports.js';
import { TypeOrmPresenceQueries, TypeOrmPresenceRepository, TypeOrmPresenceUsers } from '../../../src/presence/persistence/typeorm-presence.repository.js';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import type { Account, TestApp } from '../../support/test-app.js';
import { startAdapterSuite } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: PresenceQueries;
let users: PresenceUsers;
let realmId: number;
let otherRealmId: number;
let other: Account;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId, otherOwner: other } = await startAdapterSuite());
  queries = t.app.get(PresenceQueries);
  users = t.app.get(PresenceUsers);
});
afterAll(() => t.close());

const t0 = new Date('2025-04-05T06:07:08.912Z');
const later = (s: number) => new Date(t0.getTime() + s * 1000);

const dateJoined = async (u: Account): Promise<Date> => (await ds.query(`SELECT date_joined FROM users WHERE id = $1`, [u.id]))[0].date_joined;
const write = (u: Account, lastActive: Date | null, lastConnected: Date | null, creating: boolean, realm = realmId) =>
  uow.run((tx) => tx.presence.write(realm, u.id, { lastActive, lastConnected }, creating));
const sequence = async (realm: number): Promise<string | undefined> =>
  (await ds.query(`SELECT last_update_id FROM presence_sequences WHERE realm_id = $1`, [realm]))[0]?.last_update_id;

describe('TypeOrmPresenceRepository', () => {
  it('is what the transaction and the module hand out', async () => {
    await uow.run(async (tx) => expect(tx.presence).toBeInstanceOf(TypeOrmPresenceRepository));
    expect(queries).toBeInstanceOf(TypeOrmPresenceQueries);
    expect(users).toBeInstanceOf(TypeOrmPresenceUsers);
  });

  it('reads the facts of a report, the presence row locked', async () => {
    const u = await t.createUser();
    const joined = await dateJoined(u);
    const facts = (realm = realmId) => uow.run((tx) => tx.presence.lockFacts(realm, u.id));
    expect(await facts()).toEqual({ email: u.email, dateJoined: joined, presenceEnabled: true, realmPresenceDisabled: false, current: null });
    expect(await facts(otherRealmId)).toBeNull();
    await write(u, t0, later(1), true);
    await ds.query(`UPDATE users SET presence_enabled = false WHERE id = $1`, [u.id]);
    expect(await facts()).toEqual({
      email: u.email,
      dateJoined: joined,
      presenceEnabled: false,
      realmPresenceDisabled: false,
      current: { lastActive: t0, lastConnected: later(1) },
    });
    await uow.run(async (tx) => {
      await tx.presence.lockFacts(realmId, u.id);
      await expect(t.sql(`SELECT 1 FROM user_presence WHERE user_id = $1 FOR UPDATE NOWAIT`, [u.id])).rejects.toThrow(/could not obtain lock/);
    });
  });

  it('creates a row once (a lost race reports false), updates it, each write with the organization’s next update id', async () => {
    const u = await t.createUser();
    expect(await write(u, null, t0, true)).toBe(true);
    const first = await queries.userPresence(realmId, u.id);
    expect(first).toEqual({ userId: u.id, email: u.email, dateJoined: await dateJoined(u), lastActive: null, lastConnected: t0, lastUpdateId: Number(await sequence(realmId)) });
    expect(await write(u, later(5), later(5), true)).toBe(false);
    expect(await queries.userPresence(realmId, u.id)).toEqual(first);
    expect(await write(u, later(9), later(10), false)).toBe(true);
    expect(await queries.userPresence(realmId, u.id)).toEqual({ ...first, lastActive: later(9), lastConnected: later(10), lastUpdateId: first!.lastUpdateId + 2 });
    expect(await sequence(realmId)).toBe(String(first!.lastUpdateId + 2));
    // Another organization's write changes nothing here, but still draws from that organization's counter.
    const before = await sequence(otherRealmId);
    await write(u, later(20), later(20), false, otherRealmId);
    expect((await queries.userPresence(realmId, u.id))?.lastActive).toEqual(later(9));
    expect(await sequence(otherRealmId)).toBe(before === undefined ? '1' : String(Number(before) + 1));
  });

  it('deletes the row within the organization', async () => {
    const u = await t.createUser();
    await write(u, t0, t0, true);
    await uow.run((tx) => tx.presence.delete(otherRealmId, u.id));
    expect(await queries.userPresence(realmId, u.id)).not.toBeNull();
    await uow.run((tx) => tx.presence.delete(realmId, u.id));
    expect(await queries.userPresence(realmId, u.id)).toBeNull();
  });

  it('counts active users and reads active subscribers and typing receivers', async () => {
    const [a, b, gone, quiet] = [await t.createUser(), await t.createUser(), await t.createUser(), await t.createUser()];
    const { typed } = await createChannels(t, ['typed']);
    for (const u of [b, a, gone, quiet]) await t.post('users/me/subscriptions', { as: u, form: { subscriptions: [{ name: 'typed' }] } }).expect(200);
    await ds.query(`UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = $2`, [quiet.id, typed]);
    const count = () => uow.run((tx) => tx.presence.activeUserCount(realmId));
    const before = await count();
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    expect(await count()).toBe(before - 1);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM users WHERE realm_id = $1 AND is_active`, [otherRealmId]);
    expect(await uow.run((tx) => tx.presence.activeUserCount(otherRealmId))).toBe(n);
    const expected = [t.owner.id, a.id, b.id].sort((x, y) => x - y);
    expect(await uow.run((tx) => tx.presence.activeSubscriberIds(typed, 10))).toEqual(expected);
    expect(await uow.run((tx) => tx.presence.activeSubscriberIds(typed, 2))).toEqual(expected.slice(0, 2));
    await ds.query(`UPDATE users SET receives_typing_notifications = false WHERE id = $1`, [b.id]);
    const receivers = (realm: number, ids: number[]) => uow.run((tx) => tx.presence.typingReceivers(realm, ids));
    expect(await receivers(realmId, [a.id, b.id, other.id])).toEqual(new Set([a.id]));
    expect(await receivers(otherRealmId, [a.id, other.id])).toEqual(new Set([other.id]));
    expect(await receivers(realmId, [])).toEqual(new Set());
  });
});

describe('TypeOrmPresenceQueries', () => {
  it('lists the active humans’ presence of the organization by user, after an update id and since a connection time', async () => {
    const [a, b, gone] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const bot = await t.createBot(a, 'presencebot');
    await ds.query(`DELETE FROM user_presence WHERE realm_id = $1`, [realmId]);
    await write(b, t0, later(100), true);
    await write(a, later(1), later(1), true);
    await write(gone, t0, t0, true);
    await write(bot, t0, t0, true);
    await write(other, t0, t0, true, otherRealmId);
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    const all = await queries.realmPresences(realmId, { none: false, afterUpdateId: null, connectedSince: null });
    expect(all).toEqual([
      { userId: a.id, email: a.email, dateJoined: await dateJoined(a), lastActive: later(1), lastConnected: later(1), lastUpdateId: expect.any(Number) },
      { userId: b.id, email: b.email, dateJoined: await dateJoined(b), lastActive: t0, lastConnected: later(100), lastUpdateId: expect.any(Number) },
    ]);
    const [ofA, ofB] = all;
    expect(ofA.lastUpdateId).toBe(ofB.lastUpdateId + 1);
    expect((await queries.realmPresences(realmId, { none: false, afterUpdateId: ofB.lastUpdateId, connectedSince: null })).map((p) => p.userId)).toEqual([a.id]);
    expect((await queries.realmPresences(realmId, { none: false, afterUpdateId: null, connectedSince: later(2) })).map((p) => p.userId)).toEqual([b.id]);
    expect(await queries.userPresence(otherRealmId, a.id)).toBeNull();
  });
});

describe('TypeOrmPresenceUsers', () => {
  it('finds an active user of the organization by id or by email (trimmed, case-insensitive)', async () => {
    const u = await t.createUser();
    const bot = await t.createBot(u, 'lookupbot');
    expect(await users.activeUser(realmId, { id: u.id })).toEqual({ id: u.id, isBot: false });
    expect(await users.activeUser(realmId, { email: ` ${u.email.toUpperCase()} ` })).toEqual({ id: u.id, isBot: false });
    expect(await users.activeUser(realmId, { id: bot.id })).toEqual({ id: bot.id, isBot: true });
    expect(await users.activeUser(otherRealmId, { id: u.id })).toBeNull();
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [u.id]);
    expect(await users.activeUser(realmId, { id: u.id })).toBeNull();
  });
});
