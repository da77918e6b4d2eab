import { DataSource } from 'typeorm';
import type { RealmExportRepository } from '../../../src/exports/application/realm-exports.ports.js';
import { TypeOrmRealmExportRepository } from '../../../src/exports/persistence/typeorm-realm-export.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { returnedRows } from '../../../src/shared/persistence/rows.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';

// No export worker runs in tests (EXPORT_POLL_INTERVAL_MS=0): rows change only here.
let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
let otherOwner: Account;

const now = new Date('2025-05-06T07:08:09Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000);
const repo = <T>(work: (r: RealmExportRepository) => Promise<T>): Promise<T> => uow.run((tx) => work(tx.realmExports));
const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;

beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  otherOwner = await t.createOrganization('other');
  realmId = await realmOf(t.owner.id);
  otherRealmId = await realmOf(otherOwner.id);
});
afterAll(() => t.close());

/** Sets a requested export as a worker's claim would: started, with a lease token. */
async function started(id: number): Promise<string> {
  const [row] = returnedRows<{ lease_token: string }>(
    await ds.query(
      `UPDATE realm_exports SET status = 'started', attempts = attempts + 1, lease_token = gen_random_uuid(), lease_until = $2 WHERE id = $1
       RETURNING lease_token`,
      [id, days(1)],
    ),
  );
  return row.lease_token;
}

describe('TypeOrmRealmExportRepository', () => {
  it('is the repository of the transaction', async () => {
    expect(await uow.run(async (tx) => tx.realmExports)).toBeInstanceOf(TypeOrmRealmExportRepository);
  });

  it('inserts a requested export and reads it back for update, archive path included, in its organization only', async () => {
    const id = await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'full_with_consent', now }));
    const [row] = await ds.query(`SELECT status, attempts, lease_token, date_started FROM realm_exports WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'requested', attempts: 0, lease_token: null, date_started: null });
    const token = await started(id);
    expect(await repo((r) => r.finish(id, token, { status: 'failed', now: days(1), path: 'exports/1/x.tar.gz', error: 'disk full' }))).toBe(true);
    expect(await repo((r) => r.getForUpdate(realmId, id))).toEqual({
      id,
      realmId,
      realmStringId: '',
      actingUserId: t.owner.id,
      type: 'full_with_consent',
      status: 'failed',
      dateRequested: now,
      dateFailed: days(1),
      dateDeleted: null,
      // The row's own path, whatever its status (the service decides what to remove).
      exportPath: 'exports/1/x.tar.gz',
      attempts: 1,
    });
    expect(await repo((r) => r.getForUpdate(otherRealmId, id))).toBeNull();
  });

  it('locks the export row, not its organization, for the rest of the transaction', async () => {
    const id = await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'public', now }));
    const other = ds.createQueryRunner();
    await other.connect();
    try {
      await repo(async (r) => {
        await r.getForUpdate(realmId, id);
        await expect(other.query(`SELECT id FROM realm_exports WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toMatchObject({ code: '55P03' });
        expect(await other.query(`SELECT id FROM realms WHERE id = $1 FOR UPDATE NOWAIT`, [realmId])).toEqual([{ id: realmId }]);
      });
    } finally {
      await other.release();
    }
  });

  it('serializes the export requests of one organization, not those of another', async () => {
    const order: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const first = repo(async (r) => {
      await r.lockRequests(realmId);
      locked();
      await gate;
      order.push('first done');
    });
    await holding;
    const second = repo(async (r) => {
      await r.lockRequests(realmId);
      order.push('second locked');
    });
    await repo((r) => r.lockRequests(otherRealmId));
    order.push('other organization locked');
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['other organization locked', 'first done', 'second locked']);
  });

  it('gathers the facts a request is decided on', async () => {
    await ds.query(`DELETE FROM realm_exports`);
    await ds.query(`UPDATE users SET allow_private_data_export = false, email_address_visibility = 4 WHERE role = 100`);
    const member = await t.createUser();
    const { lobby } = await createChannels(t, ['lobby'], { form: { principals: [t.owner.id, member.id] } });
    const { hush } = await createChannels(t, ['hush'], { form: { invite_only: true, principals: [t.owner.id, member.id] } });
    const facts = (type: 'public' | 'full_with_consent') => repo((r) => r.requestFacts(realmId, type, days(-7)));
    const before = await facts('public');
    const beforeFull = await facts('full_with_consent');
    expect(before).toEqual({ recentExports: 0, exportableMessages: expect.any(Number), uploadBytes: 0, consentingOwner: false, ownerWithVisibleEmail: false });

    await sendToChannel(t, member, lobby, 'a', 'public 1');
    await sendToChannel(t, member, lobby, 'a', 'public 2');
    await sendToChannel(t, member, hush, 'a', 'private');
    await sendDirect(t, member, [t.owner.id], 'direct');
    await sendToChannel(t, otherOwner, 'general', 'a', 'elsewhere');
    await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'public', now: days(-8) }));
    await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'public', now: days(-7) }));
    // One the command line requested (no acting user) counts too.
    await ds.query(`INSERT INTO realm_exports (realm_id, export_type, date_requested) VALUES ($1, 'public', $2)`, [realmId, days(-1)]);
    await repo((r) => r.insert({ realmId: otherRealmId, actingUserId: otherOwner.id, type: 'public', now }));
    const attachment = `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time) VALUES ($1, $2, $3, 'f', $4, 'text/plain', now())`;
    await ds.query(attachment, [realmId, t.owner.id, `${realmId}/a/f`, 3_000_000_000]);
    await ds.query(attachment, [realmId, t.owner.id, `${realmId}/b/f`, 5]);
    await ds.query(attachment, [otherRealmId, otherOwner.id, `${otherRealmId}/c/f`, 7]);
    await ds.query(`UPDATE users SET allow_private_data_export = true WHERE id = $1`, [otherOwner.id]);

    expect(await facts('public')).toEqual({
      recentExports: 2,
      exportableMessages: before.exportableMessages + 2,
      uploadBytes: 3_000_000_005,
      consentingOwner: false,
      ownerWithVisibleEmail: false,
    });
    expect((await facts('full_with_consent')).exportableMessages).toBe(beforeFull.exportableMessages + 4);

    await ds.query(`UPDATE users SET allow_private_data_export = true, email_address_visibility = 1 WHERE id = $1`, [t.owner.id]);
    expect(await facts('public')).toMatchObject({ consentingOwner: true, ownerWithVisibleEmail: true });
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [t.owner.id]);
    expect(await facts('public')).toMatchObject({ consentingOwner: false, ownerWithVisibleEmail: false });
    await ds.query(`UPDATE users SET is_active = true WHERE id = $1`, [t.owner.id]);
  });

  it('lists the organization’s user-requested exports, oldest first', async () => {
    await ds.query(`DELETE FROM realm_exports`);
    const a = await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'public', now }));
    await ds.query(`INSERT INTO realm_exports (realm_id, export_type, date_requested) VALUES ($1, 'public', $2)`, [realmId, now]);
    await repo((r) => r.insert({ realmId: otherRealmId, actingUserId: otherOwner.id, type: 'public', now }));
    const b = await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'full_without_consent', now: days(1) }));
    const token = await started(b);
    await repo((r) => r.finish(b, token, { status: 'succeeded', now: days(2), path: 'exports/b.tar.gz', size: 10 }));
    const base = { realmId, realmStringId: '', actingUserId: t.owner.id, dateFailed: null, dateDeleted: null };
    expect(await repo((r) => r.list(realmId))).toEqual([
      { ...base, id: a, type: 'public', status: 'requested', dateRequested: now, exportPath: null, attempts: 0 },
      { ...base, id: b, type: 'full_without_consent', status: 'succeeded', dateRequested: days(1), exportPath: 'exports/b.tar.gz', attempts: 1 },
    ]);
    await repo((r) => r.markDeleted(b, days(3)));
    expect((await repo((r) => r.list(realmId)))[1]).toEqual({
      ...base,
      id: b,
      type: 'full_without_consent',
      status: 'deleted',
      dateRequested: days(1),
      dateDeleted: days(3),
      // Only a succeeded export's archive is there to download.
      exportPath: null,
      attempts: 1,
    });
  });

  it('records an outcome only for the holder of the lease of a started export', async () => {
    const id = await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'public', now }));
    expect(await repo((r) => r.finish(id, '00000000-0000-0000-0000-000000000000', { status: 'succeeded', now }))).toBe(false);
    const token = await started(id);
    expect(await repo((r) => r.finish(id, '00000000-0000-0000-0000-000000000000', { status: 'succeeded', now }))).toBe(false);
    expect(await repo((r) => r.finish(id, token, { status: 'succeeded', now: days(1), path: 'exports/p.tar.gz', size: 4_000_000_000 }))).toBe(true);
    const [row] = await ds.query(
      `SELECT status, lease_token, lease_until, date_succeeded, date_failed, export_path, tarball_size_bytes, last_error FROM realm_exports WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({
      status: 'succeeded',
      lease_token: null,
      lease_until: null,
      date_succeeded: days(1),
      date_failed: null,
      export_path: 'exports/p.tar.gz',
      tarball_size_bytes: '4000000000',
      last_error: null,
    });
    expect(await repo((r) => r.finish(id, token, { status: 'failed', now }))).toBe(false);

    const failing = await repo((r) => r.insert({ realmId, actingUserId: t.owner.id, type: 'public', now }));
    const failingToken = await started(failing);
    expect(await repo((r) => r.finish(failing, failingToken, { status: 'failed', now, error: 'e'.repeat(3000) }))).toBe(true);
    const [failed] = await ds.query(`SELECT status, date_failed, date_succeeded, length(last_error) AS n FROM realm_exports WHERE id = $1`, [failing]);
    expect(failed).toEqual({ status: 'failed', date_failed: now, date_succeeded: null, n: 2000 });
  });

  it('names the active human administrators and owners of the organization', async () => {
    const admin = await t.createUser({ role: 200 });
    const gone = await t.createUser({ role: 200 });
    await t.createUser({ role: 300 });
    await t.createUser();
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    const botOwner = await t.createBot(admin, 'exporter');
    await ds.query(`UPDATE users SET role = 200 WHERE id = $1`, [botOwner.id]);
    expect(await repo((r) => r.adminIds(realmId))).toEqual([t.owner.id, admin.id]);
    expect(await repo((r) => r.adminIds(otherRealmId))).toEqual([otherOwner.id]);
  });
});
