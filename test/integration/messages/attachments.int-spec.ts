import { DataSource } from 'typeorm';
import type { AttachmentRepository } from '../../../src/messages/application/message.ports.js';
import { TypeOrmAttachmentRepository } from '../../../src/messages/persistence/typeorm-attachment.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

/*
 * TypeOrmAttachmentRepository against PostgreSQL: uploads (attachments rows, their bigint
 * size), their links to messages, the owner's lock, and the organization's used space and its
 * quota lock.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;
let member: Account;
let other: { owner: Account; realmId: number };
let n = 0;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = await realmOf(ds, t.owner.id);
  member = await t.createUser();
  const otherOwner = await t.createOrganization('attachother');
  other = { owner: otherOwner, realmId: await realmOf(ds, otherOwner.id) };
});
afterAll(() => t.close());

const repo = <T>(work: (r: AttachmentRepository) => Promise<T>) => uow.run((tx) => work(tx.attachments));
const createTime = new Date('2026-03-04T05:06:07Z');
/** A new upload of the owner's (or `ownerId`'s) in the organization; its record without messages. */
async function upload(o: { realm?: number; ownerId?: number; size?: number } = {}) {
  n += 1;
  const a = {
    realmId: o.realm ?? realmId,
    ownerId: o.ownerId ?? t.owner.id,
    pathId: `${o.realm ?? realmId}/aa/${n}/file${n}.txt`,
    name: `file${n}.txt`,
    size: o.size ?? 100 + n,
    contentType: 'text/plain',
    createTime,
  };
  const id = await repo((r) => r.insert(a));
  const { realmId: _realm, ...record } = a;
  return { id, ...record, messageIds: [] as number[] };
}

describe('TypeOrmAttachmentRepository', () => {
  it('stores an upload and reads it back whole, by path, id or owner, in its organization only', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmAttachmentRepository);
    const a = await upload({ ownerId: member.id, size: 5_000_000_000 });
    const b = await upload({ ownerId: member.id });
    const theirs = await upload({ realm: other.realmId, ownerId: other.owner.id });
    expect(await repo((r) => r.byPath(realmId, a.pathId))).toEqual(a);
    expect(await repo((r) => r.byPath(other.realmId, a.pathId))).toBeNull();
    expect((await repo((r) => r.byPaths(realmId, [b.pathId, a.pathId, theirs.pathId]))).sort((x, y) => x.id - y.id)).toEqual([a, b]);
    expect(await repo((r) => r.byPaths(realmId, []))).toEqual([]);
    expect(await repo((r) => r.byIds(realmId, [b.id, a.id, theirs.id]))).toEqual([a, b]);
    expect(await repo((r) => r.byIds(realmId, []))).toEqual([]);
    expect(await repo((r) => r.ofOwner(realmId, member.id))).toEqual([a, b]);
    expect(await repo((r) => r.ofOwner(other.realmId, member.id))).toEqual([]);
  });

  it('links uploads to messages and unlinks them', async () => {
    await channelWith(t, 'links', []);
    const m1 = await sendToChannel(t, t.owner, 'links', 't', 'one');
    const m2 = await sendToChannel(t, t.owner, 'links', 't', 'two');
    const a = await upload();
    const b = await upload();
    await repo((r) => r.link(m2, [a.id, b.id]));
    await repo((r) => r.link(m1, [a.id]));
    await repo((r) => r.link(m1, [a.id]));
    await repo((r) => r.link(m1, []));
    expect(await repo((r) => r.byPath(realmId, a.pathId))).toEqual({ ...a, messageIds: [m1, m2] });
    expect((await repo((r) => r.ofMessage(m2))).sort((x, y) => x.id - y.id)).toEqual([
      { ...a, messageIds: [m1, m2] },
      { ...b, messageIds: [m2] },
    ]);
    await repo((r) => r.unlink(m2, [a.id]));
    await repo((r) => r.unlink(m2, []));
    expect(await repo((r) => r.ofMessage(m2))).toEqual([{ ...b, messageIds: [m2] }]);
    expect(await repo((r) => r.ofMessage(m1))).toEqual([{ ...a, messageIds: [m1] }]);
  });

  it('locks only the owner’s own upload, and removes it with its links', async () => {
    await channelWith(t, 'removes', []);
    const m = await sendToChannel(t, t.owner, 'removes', 't', 'x');
    const a = await upload({ ownerId: member.id });
    await repo((r) => r.link(m, [a.id]));
    expect(await repo((r) => r.lockOwned(realmId, t.owner.id, a.id))).toBeNull();
    expect(await repo((r) => r.lockOwned(other.realmId, member.id, a.id))).toBeNull();
    await repo(async (r) => {
      expect(await r.lockOwned(realmId, member.id, a.id)).toEqual({ ...a, messageIds: [m] });
      await expect(t.sql(`SELECT id FROM attachments WHERE id = $1 FOR UPDATE NOWAIT`, [a.id])).rejects.toMatchObject({ code: '55P03' });
    });
    await repo((r) => r.remove(other.realmId, a.id));
    expect(await repo((r) => r.byIds(realmId, [a.id]))).toHaveLength(1);
    await repo((r) => r.remove(realmId, a.id));
    expect(await repo((r) => r.byIds(realmId, [a.id]))).toEqual([]);
    expect(await t.sql(`SELECT 1 FROM attachment_messages WHERE attachment_id = $1`, [a.id])).toEqual([]);
  });

  it('sums the organization’s used space, and serializes quota checks', async () => {
    const before = await repo((r) => r.usedSpace(realmId));
    await upload({ size: 3_000_000_000 });
    await upload({ size: 7 });
    await upload({ realm: other.realmId, ownerId: other.owner.id, size: 11 });
    expect(await repo((r) => r.usedSpace(realmId))).toBe(before + 3_000_000_007);
    expect(await repo((r) => r.usedSpace(2 ** 30))).toBe(0);
    await repo(async (r) => {
      await r.lockUsedSpace(realmId);
      expect(await t.sql(`SELECT pg_try_advisory_xact_lock($1::int, $2::int) AS got`, [0x5ec0002, realmId])).toEqual([{ got: false }]);
      expect(await t.sql(`SELECT pg_try_advisory_xact_lock($1::int, $2::int) AS got`, [0x5ec0002, other.realmId])).toEqual([{ got: true }]);
    });
    expect(await t.sql(`SELECT pg_try_advisory_xact_lock($1::int, $2::int) AS got`, [0x5ec0002, realmId])).toEqual([{ got: true }]);
  });
});
