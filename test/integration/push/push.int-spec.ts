import type { DevicePushState } from '@app/domain/push';
import type { DataSource } from 'typeorm';
import { PushQueries } from '../../../src/push/application/push.ports.js';
import { TypeOrmPushDeviceRepository, TypeOrmPushQueries } from '../../../src/push/persistence/typeorm-push.repository.js';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import type { Account, TestApp } from '../../support/test-app.js';
import { startAdapterSuite, whileRowLocked } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: PushQueries;
let realmId: number;
let otherRealmId: number;
let other: Account;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId, otherOwner: other } = await startAdapterSuite());
  queries = t.app.get(PushQueries);
});
afterAll(() => t.close());

/** Jobs of earlier tests would be claimed too: every test starts with none queued. */
beforeEach(() => ds.query(`DELETE FROM push_registration_jobs`));

const now = new Date('2025-07-08T09:10:11.121Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);
const registration = (n: number) => ({ tokenId: `token-${n}`, bouncerPublicKey: `bpk-${n}`, encryptedPushRegistration: `enc-${n}` });

const createDevice = (u: Account, realm = realmId) => uow.run((tx) => tx.pushDevices.createDevice(realm, u.id, now));

function registered(id: number, o: Partial<DevicePushState> = {}): DevicePushState {
  return {
    id,
    pushKey: new Uint8Array([1, 2, 3, 255]),
    pushKeyId: 4_294_967_295,
    tokenKind: 'apns',
    // Beyond 2^53: kept exactly as int8.
    pushTokenId: 9_007_199_254_740_993n,
    pendingPushTokenId: null,
    tokenUpdatedAt: now,
    errorCode: null,
    ...o,
  };
}

const emptyDevice = (id: number): DevicePushState => ({
  id,
  pushKey: null,
  pushKeyId: null,
  tokenKind: null,
  pushTokenId: null,
  pendingPushTokenId: null,
  tokenUpdatedAt: null,
  errorCode: null,
});

describe('TypeOrmPushDeviceRepository', () => {
  it('is what the transaction and the module hand out', async () => {
    await uow.run(async (tx) => expect(tx.pushDevices).toBeInstanceOf(TypeOrmPushDeviceRepository));
    expect(queries).toBeInstanceOf(TypeOrmPushQueries);
  });

  it('creates a device, saves its push state and reads it back locked, within the user’s organization', async () => {
    const u = await t.createUser();
    const id = await createDevice(u);
    // The row's state carries its user too (as lockDeviceById needs it).
    expect(await uow.run((tx) => tx.pushDevices.lockDevice(realmId, u.id, id))).toEqual({ ...emptyDevice(id), userId: u.id });
    await uow.run((tx) => tx.pushDevices.saveDevicePush(realmId, registered(id, { pendingPushTokenId: 18_446_744_073_709_551_615n >> 1n, errorCode: 'E' })));
    await uow.run((tx) => tx.pushDevices.saveDevicePush(otherRealmId, registered(id, { errorCode: 'hijacked' })));
    const expected = registered(id, { pendingPushTokenId: 9_223_372_036_854_775_807n, errorCode: 'E' });
    await uow.run(async (tx) => {
      expect(await tx.pushDevices.lockDevice(realmId, u.id, id)).toEqual({ ...expected, userId: u.id });
      await expect(t.sql(`SELECT 1 FROM devices WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      expect(await tx.pushDevices.lockDeviceById(realmId, id)).toEqual({ ...expected, userId: u.id });
      expect(await tx.pushDevices.lockDevice(realmId, t.owner.id, id)).toBeNull();
      expect(await tx.pushDevices.lockDevice(otherRealmId, u.id, id)).toBeNull();
      expect(await tx.pushDevices.lockDeviceById(otherRealmId, id)).toBeNull();
    });
  });

  it('deletes a device of the user (its queued registration with it), telling whether there was one', async () => {
    const u = await t.createUser();
    const id = await createDevice(u);
    await uow.run((tx) => tx.pushDevices.queueRegistration(realmId, id, registration(1), now));
    expect(await uow.run((tx) => tx.pushDevices.deleteDevice(otherRealmId, u.id, id))).toBe(false);
    expect(await uow.run((tx) => tx.pushDevices.deleteDevice(realmId, t.owner.id, id))).toBe(false);
    expect(await uow.run((tx) => tx.pushDevices.deleteDevice(realmId, u.id, id))).toBe(true);
    expect(await uow.run((tx) => tx.pushDevices.deleteDevice(realmId, u.id, id))).toBe(false);
    expect(await ds.query(`SELECT 1 FROM push_registration_jobs WHERE device_id = $1`, [id])).toEqual([]);
  });

  it('queues one registration per device (a newer one replaces it under a new id), and locks, reschedules and deletes it', async () => {
    const u = await t.createUser();
    const device = await createDevice(u);
    const first = await uow.run((tx) => tx.pushDevices.queueRegistration(realmId, device, registration(1), now));
    const second = await uow.run((tx) => tx.pushDevices.queueRegistration(realmId, device, registration(2), later(1)));
    expect(typeof second).toBe('string');
    expect(BigInt(second)).toBeGreaterThan(BigInt(first));
    expect(await uow.run((tx) => tx.pushDevices.lockJob(realmId, first))).toBeNull();
    await uow.run(async (tx) => {
      expect(await tx.pushDevices.lockJob(realmId, second)).toEqual({
        id: second,
        realmId,
        deviceId: device,
        registration: registration(2),
        attempts: 0,
        queuedAt: later(1),
        leaseToken: null,
      });
      await expect(t.sql(`SELECT 1 FROM push_registration_jobs WHERE id = $1 FOR UPDATE NOWAIT`, [second])).rejects.toThrow(/could not obtain lock/);
      expect(await tx.pushDevices.lockJob(otherRealmId, second)).toBeNull();
    });
    await uow.run((tx) => tx.pushDevices.rescheduleJob(otherRealmId, second, 9, later(999)));
    await uow.run((tx) => tx.pushDevices.rescheduleJob(realmId, second, 3, later(60)));
    expect(await ds.query(`SELECT attempts, next_attempt_at FROM push_registration_jobs WHERE id = $1`, [second])).toEqual([{ attempts: 3, next_attempt_at: later(60) }]);
    await uow.run((tx) => tx.pushDevices.deleteJob(otherRealmId, second));
    expect(await uow.run((tx) => tx.pushDevices.lockJob(realmId, second))).not.toBeNull();
    await uow.run((tx) => tx.pushDevices.deleteJob(realmId, second));
    expect(await uow.run((tx) => tx.pushDevices.lockJob(realmId, second))).toBeNull();
  });

  it('drops the registrations of some push tokens of the user, with their queued jobs', async () => {
    const u = await t.createUser();
    const [a, b, c] = [await createDevice(u), await createDevice(u), await createDevice(u)];
    await uow.run(async (tx) => {
      await tx.pushDevices.saveDevicePush(realmId, registered(a, { pushTokenId: 11n }));
      await tx.pushDevices.saveDevicePush(realmId, registered(b, { pushTokenId: 9_007_199_254_740_993n }));
      await tx.pushDevices.saveDevicePush(realmId, registered(c, { pushTokenId: 13n }));
      for (const [i, d] of [a, b, c].entries()) await tx.pushDevices.queueRegistration(realmId, d, registration(i), now);
    });
    await uow.run((tx) => tx.pushDevices.dropRegistrations(otherRealmId, u.id, [11n]));
    await uow.run((tx) => tx.pushDevices.dropRegistrations(realmId, t.owner.id, [11n]));
    await uow.run((tx) => tx.pushDevices.dropRegistrations(realmId, u.id, []));
    await uow.run((tx) => tx.pushDevices.dropRegistrations(realmId, u.id, [11n, 9_007_199_254_740_993n]));
    const state = (id: number) => uow.run((tx) => tx.pushDevices.lockDevice(realmId, u.id, id));
    expect([await state(a), await state(b), await state(c)]).toEqual(
      [emptyDevice(a), emptyDevice(b), registered(c, { pushTokenId: 13n })].map((d) => ({ ...d, userId: u.id })),
    );
    expect((await ds.query(`SELECT device_id FROM push_registration_jobs WHERE device_id = ANY($1::int[])`, [[a, b, c]])).map((r: { device_id: number }) => r.device_id)).toEqual([c]);
  });

  it('adds legacy tokens once (APNs case-insensitively) and removes them, within the organization', async () => {
    const u = await t.createUser();
    const add = (kind: number, token: string, iosAppId: string | null = null, realm = realmId) =>
      uow.run((tx) => tx.pushDevices.addLegacyToken({ realmId: realm, userId: u.id, kind, token, iosAppId, now }));
    await add(1, 'ABCDEF', 'org.zulip.Zulip');
    await add(1, 'abcdef');
    await add(2, 'fcm-Token');
    await add(2, 'FCM-TOKEN');
    expect(await queries.legacyTokens(realmId, u.id, null)).toEqual([
      { token: 'ABCDEF', kind: 1, iosAppId: 'org.zulip.Zulip' },
      { token: 'fcm-Token', kind: 2, iosAppId: null },
      { token: 'FCM-TOKEN', kind: 2, iosAppId: null },
    ]);
    expect(await queries.legacyTokens(realmId, u.id, 'fcm-Token')).toEqual([{ token: 'fcm-Token', kind: 2, iosAppId: null }]);
    expect(await queries.legacyTokens(otherRealmId, u.id, null)).toEqual([]);
    const remove = (kind: number, token: string, realm = realmId) => uow.run((tx) => tx.pushDevices.removeLegacyToken(realm, u.id, kind, token));
    expect(await remove(1, 'abcdef', otherRealmId)).toBe(false);
    expect(await remove(2, 'fcm-token')).toBe(false);
    expect(await remove(1, 'abcdef')).toBe(true);
    expect(await remove(1, 'abcdef')).toBe(false);
    expect(await remove(2, 'FCM-TOKEN')).toBe(true);
    expect(await queries.legacyTokens(realmId, u.id, null)).toEqual([{ token: 'fcm-Token', kind: 2, iosAppId: null }]);
  });
});

describe('TypeOrmPushQueries', () => {
  it('lists the user’s devices the relay accepted, by id', async () => {
    const u = await t.createUser();
    const [a, pending, b] = [await createDevice(u), await createDevice(u), await createDevice(u)];
    await uow.run(async (tx) => {
      await tx.pushDevices.saveDevicePush(realmId, registered(b, { tokenKind: 'fcm', pushTokenId: 2n, pushKeyId: 0 }));
      await tx.pushDevices.saveDevicePush(realmId, registered(a));
      await tx.pushDevices.saveDevicePush(realmId, registered(pending, { pushTokenId: null, pendingPushTokenId: 5n }));
    });
    const key = new Uint8Array([1, 2, 3, 255]);
    const all = [
      { deviceId: a, pushTokenId: 9_007_199_254_740_993n, tokenKind: 'apns', pushKey: key, pushKeyId: 4_294_967_295 },
      { deviceId: b, pushTokenId: 2n, tokenKind: 'fcm', pushKey: key, pushKeyId: 0 },
    ];
    expect(await queries.activeDevices(realmId, u.id, null)).toEqual(all);
    expect(await queries.activeDevices(realmId, u.id, b)).toEqual([all[1]]);
    expect(await queries.activeDevices(realmId, u.id, pending)).toEqual([]);
    expect(await queries.activeDevices(otherRealmId, u.id, null)).toEqual([]);
  });

  it('reads the organization’s identity', async () => {
    const [row] = await ds.query(`SELECT uuid, string_id, name FROM realms WHERE id = $1`, [otherRealmId]);
    expect(await queries.realmIdentity(otherRealmId)).toEqual({ uuid: row.uuid, stringId: 'other', name: 'Org other' });
  });

  it('claims due jobs of any organization oldest first, leasing them, passing over those locked elsewhere', async () => {
    const u = await t.createUser();
    const devices = [await createDevice(u), await createDevice(u), await createDevice(u), await createDevice(other, otherRealmId)];
    const [j0, j1, j2, j3] = await uow.run(async (tx) => [
      await tx.pushDevices.queueRegistration(realmId, devices[0], registration(0), later(2)),
      await tx.pushDevices.queueRegistration(otherRealmId, devices[3], registration(3), later(1)),
      await tx.pushDevices.queueRegistration(realmId, devices[1], registration(1), later(3)),
      await tx.pushDevices.queueRegistration(realmId, devices[2], registration(2), later(100)),
    ]);
    const claimed = await queries.claimDueJobs({ now: later(10), leaseUntil: later(70), limit: 10 });
    expect(claimed.map((j) => j.id)).toEqual([j0, j1, j2]);
    expect(claimed[1]).toEqual({
      id: j1,
      realmId: otherRealmId,
      deviceId: devices[3],
      registration: registration(3),
      attempts: 0,
      queuedAt: later(1),
      leaseToken: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // Leased until later(70): not due again before then.
    expect(await queries.claimDueJobs({ now: later(10), leaseUntil: later(70), limit: 10 })).toEqual([]);
    const again = await queries.claimDueJobs({ now: later(70), leaseUntil: later(130), limit: 2 });
    expect(again.map((j) => j.id)).toEqual([j0, j1]);
    expect(again[0].leaseToken).not.toBe(claimed[0].leaseToken);
    expect((await queries.claimDueJobs({ now: later(200), leaseUntil: later(300), limit: 10, jobId: j2 })).map((j) => j.id)).toEqual([j2]);

    // Due first now: j3 (later(100)), then j0 and j1 (later(130)).
    await whileRowLocked(t, 'push_registration_jobs', j3, async () => {
      const skipping = await queries.claimDueJobs({ now: later(1000), leaseUntil: later(1100), limit: 1 });
      expect(skipping.map((j) => j.id)).toEqual([j0]);
    });
  });
});
