import { DataSource } from 'typeorm';
import type { AdminQueries } from '../../../src/admin/application/admin.ports.js';
import { TypeOrmAdminQueries } from '../../../src/admin/persistence/typeorm-admin.queries.js';
import { type Account, OWNER_EMAIL, TestApp } from '../../support/test-app.js';

let t: TestApp;
let ds: DataSource;
let queries: AdminQueries;
let rootId: number;
let otherId: number;
let otherOwner: Account;

const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  // The admin command line's module provides it; the HTTP server's does not: built on the app's pool.
  queries = new TypeOrmAdminQueries(ds);
  otherOwner = await t.createOrganization('other');
  rootId = await realmOf(t.owner.id);
  otherId = await realmOf(otherOwner.id);
});
afterAll(() => t.close());

describe('TypeOrmAdminQueries', () => {
  it('lists the organizations in id order, counting their active humans only', async () => {
    const member = await t.createUser();
    const gone = await t.createUser();
    await t.createBot(member, 'counted');
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    const realms: { id: number; date_created: Date }[] = await ds.query(`SELECT id, date_created FROM realms ORDER BY id`);
    const created = new Map(realms.map((r) => [r.id, r.date_created]));
    expect(await queries.organizations()).toEqual([
      { id: rootId, subdomain: '', name: expect.any(String), deactivated: false, dateCreated: created.get(rootId), activeHumans: 2 },
      { id: otherId, subdomain: 'other', name: 'Org other', deactivated: false, dateCreated: created.get(otherId), activeHumans: 1 },
    ]);
    expect(created.get(rootId)).toBeInstanceOf(Date);
  });

  it('finds an organization by its subdomain, and nothing for an unknown one', async () => {
    await ds.query(`UPDATE realms SET deactivated = true WHERE id = $1`, [otherId]);
    try {
      expect(await queries.organizationBySubdomain('other')).toEqual({
        id: otherId,
        subdomain: 'other',
        name: 'Org other',
        deactivated: true,
        dateCreated: expect.any(Date),
        activeHumans: 1,
      });
    } finally {
      await ds.query(`UPDATE realms SET deactivated = false WHERE id = $1`, [otherId]);
    }
    expect(await queries.organizationBySubdomain('')).toMatchObject({ id: rootId, subdomain: '' });
    expect(await queries.organizationBySubdomain('nowhere')).toBeNull();
  });

  it('acts as the longest-standing active human owner of the organization', async () => {
    const third = await t.createOrganization('third', 'third@example.com');
    const thirdId = await realmOf(third.id);
    expect(await queries.actingOwner(thirdId)).toEqual({
      userId: third.id,
      realmId: thirdId,
      email: third.email,
      role: 100,
      isBot: false,
      botType: null,
    });
    expect(await queries.actingOwner(otherId)).toMatchObject({ userId: otherOwner.id, realmId: otherId });
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [third.id]);
    expect(await queries.actingOwner(thirdId)).toBeNull();
  });

  it('finds a user by delivery email, case-insensitively, bots and deactivated users included, in its organization only', async () => {
    const u = await t.createUser({ email: 'Mixed.Case@example.com', role: 200 });
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [u.id]);
    expect(await queries.userByEmail(rootId, 'mixed.case@EXAMPLE.com')).toEqual({ id: u.id, email: u.email, role: 200, isActive: false, isBot: false });
    const bot = await t.createBot(t.owner, 'finder');
    const [{ delivery_email: botEmail }] = await ds.query(`SELECT delivery_email FROM users WHERE id = $1`, [bot.id]);
    expect(await queries.userByEmail(rootId, botEmail)).toMatchObject({ id: bot.id, isActive: true, isBot: true });
    // Both organizations have an owner with this address: each sees its own.
    expect(await queries.userByEmail(rootId, OWNER_EMAIL)).toMatchObject({ id: t.owner.id, role: 100 });
    expect(await queries.userByEmail(otherId, OWNER_EMAIL)).toMatchObject({ id: otherOwner.id, role: 100 });
    expect(await queries.userByEmail(otherId, 'mixed.case@example.com')).toBeNull();
  });

  it('reads the newest outbox row of a kind to an address', async () => {
    const insert = async (kind: string, to: string, status: string, lastError: string | null): Promise<number> => {
      const [row] = await ds.query(
        `INSERT INTO email_outbox (realm_id, kind, to_address, subject, body, created_at, next_attempt_at, status, last_error)
         VALUES ($1, $2, $3, 's', 'b', now(), now(), $4, $5) RETURNING id`,
        [rootId, kind, to, status, lastError],
      );
      return Number(row.id);
    };
    await insert('test', 'a@example.com', 'sent', null);
    const newest = await insert('test', 'a@example.com', 'failed', '550 no such user');
    await insert('other-kind', 'a@example.com', 'pending', null);
    await insert('test', 'b@example.com', 'pending', null);
    expect(await queries.latestEmail('test', 'a@example.com')).toEqual({ id: newest, status: 'failed', lastError: '550 no such user' });
    expect(await queries.latestEmail('test', 'c@example.com')).toBeNull();
  });
});
