import { DataSource } from 'typeorm';
import { RealmExportQueries } from '../../../src/exports/application/realm-exports.ports.js';
import { TypeOrmRealmExportQueries } from '../../../src/exports/persistence/typeorm-realm-export.queries.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { whileRowLocked } from '../../support/adapter-suite.js';

// No export worker runs in tests (EXPORT_POLL_INTERVAL_MS=0): the test is the only claimer.
let t: TestApp;
let ds: DataSource;
let queries: RealmExportQueries;
let realmId: number;
let otherRealmId: number;
let otherOwner: Account;

const now = new Date('2025-05-06T07:08:09Z');
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;
const NO_TOKEN = '00000000-0000-0000-0000-000000000000';

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  queries = t.app.get(RealmExportQueries);
  otherOwner = await t.createOrganization('other');
  realmId = await realmOf(t.owner.id);
  otherRealmId = await realmOf(otherOwner.id);
});
afterAll(() => t.close());
beforeEach(() => ds.query(`DELETE FROM realm_exports`));

async function exportRow(o: { realm?: number; type?: string; status?: string; leaseUntil?: Date | null; path?: string | null; attempts?: number } = {}): Promise<number> {
  const [row]: { id: number }[] = await ds.query(
    `INSERT INTO realm_exports (realm_id, acting_user_id, export_type, status, date_requested, lease_until, export_path, attempts,
       lease_token, date_started)
     VALUES ($1, NULL, $2, $3, $4, $5, $6, $7, CASE WHEN $3 = 'started' THEN gen_random_uuid() END, CASE WHEN $3 = 'started' THEN $8::timestamptz END)
     RETURNING id`,
    [o.realm ?? realmId, o.type ?? 'public', o.status ?? 'requested', minutes(-60), o.leaseUntil ?? null, o.path ?? null, o.attempts ?? 0, minutes(-30)],
  );
  return row.id;
}

describe('TypeOrmRealmExportQueries', () => {
  it('is the adapter the server reads exports through', () => {
    expect(queries).toBeInstanceOf(TypeOrmRealmExportQueries);
  });

  it('lists the consents of the organization’s active humans, in id order', async () => {
    const member = await t.createUser();
    const gone = await t.createUser();
    await t.createBot(member, 'consenter');
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    await ds.query(`UPDATE users SET allow_private_data_export = true, email_address_visibility = 4 WHERE id = $1`, [member.id]);
    await ds.query(`UPDATE users SET allow_private_data_export = false, email_address_visibility = 1 WHERE id = $1`, [t.owner.id]);
    expect(await queries.consents(realmId)).toEqual([
      { userId: t.owner.id, consented: false, emailAddressVisibility: 1 },
      { userId: member.id, consented: true, emailAddressVisibility: 4 },
    ]);
    expect((await queries.consents(otherRealmId)).map((c) => c.userId)).toEqual([otherOwner.id]);
  });

  it('finds a succeeded export by its archive path, in its organization only', async () => {
    const id = await exportRow({ status: 'succeeded', path: 'exports/1/abc/org.tar.gz', attempts: 1 });
    await exportRow({ status: 'failed', path: 'exports/1/def/org.tar.gz' });
    expect(await queries.succeededByPath(realmId, 'exports/1/abc/org.tar.gz')).toEqual({
      id,
      realmId,
      realmStringId: '',
      actingUserId: null,
      type: 'public',
      status: 'succeeded',
      dateRequested: minutes(-60),
      dateFailed: null,
      dateDeleted: null,
      exportPath: 'exports/1/abc/org.tar.gz',
      attempts: 1,
    });
    expect(await queries.succeededByPath(realmId, 'exports/1/def/org.tar.gz')).toBeNull();
    expect(await queries.succeededByPath(otherRealmId, 'exports/1/abc/org.tar.gz')).toBeNull();
  });

  it('claims the oldest due export of any organization, including one whose lease ran out', async () => {
    await exportRow({ status: 'succeeded' });
    await exportRow({ status: 'started', leaseUntil: minutes(5) });
    const expired = await exportRow({ status: 'started', leaseUntil: minutes(-1), attempts: 1 });
    const requested = await exportRow({ realm: otherRealmId, type: 'full_with_consent' });
    const first = await queries.claimNext({ now, leaseUntil: minutes(10) });
    expect(first).toEqual({ id: expired, realmId, realmStringId: '', type: 'public', attempts: 2, leaseToken: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const second = await queries.claimNext({ now, leaseUntil: minutes(10) });
    expect(second).toEqual({ id: requested, realmId: otherRealmId, realmStringId: 'other', type: 'full_with_consent', attempts: 1, leaseToken: expect.any(String) });
    expect(await queries.claimNext({ now, leaseUntil: minutes(10) })).toBeNull();
    const rows = await ds.query(`SELECT id, status, lease_token, lease_until, date_started FROM realm_exports WHERE id = ANY($1) ORDER BY id`, [[expired, requested]]);
    expect(rows).toEqual([
      // A taken-over export keeps when it was first started.
      { id: expired, status: 'started', lease_token: first?.leaseToken, lease_until: minutes(10), date_started: minutes(-30) },
      { id: requested, status: 'started', lease_token: second?.leaseToken, lease_until: minutes(10), date_started: now },
    ]);
  });

  it('claims only the export named, when one is', async () => {
    const older = await exportRow();
    const named = await exportRow();
    expect(await queries.claimNext({ now, leaseUntil: minutes(10), id: named })).toMatchObject({ id: named });
    expect(await queries.claimNext({ now, leaseUntil: minutes(10), id: named })).toBeNull();
    expect(await queries.claimNext({ now, leaseUntil: minutes(10) })).toMatchObject({ id: older });
  });

  it('skips an export another transaction holds locked', async () => {
    const locked = await exportRow();
    const free = await exportRow();
    await whileRowLocked(t, 'realm_exports', locked, async () => {
      expect(await queries.claimNext({ now, leaseUntil: minutes(10) })).toMatchObject({ id: free });
    });
    expect(await queries.claimNext({ now, leaseUntil: minutes(10) })).toMatchObject({ id: locked });
  });

  it('renews a lease for its holder only, while the export is started', async () => {
    const id = await exportRow();
    const claim = await queries.claimNext({ now, leaseUntil: minutes(10) });
    if (claim === null) throw new Error('not claimed');
    expect(await queries.renewLease(id, NO_TOKEN, minutes(20))).toBe(false);
    expect(await queries.renewLease(id, claim.leaseToken, minutes(20))).toBe(true);
    expect((await ds.query(`SELECT lease_until FROM realm_exports WHERE id = $1`, [id]))[0].lease_until).toEqual(minutes(20));
    await ds.query(`UPDATE realm_exports SET status = 'succeeded' WHERE id = $1`, [id]);
    expect(await queries.renewLease(id, claim.leaseToken, minutes(30))).toBe(false);
  });
});
