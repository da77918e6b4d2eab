import { Invitation, type InvitationState, MultiuseInvite, type MultiuseInviteState } from '@app/domain/invitations';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { InvitationQueries } from '../../../src/invitations/application/invitation.ports.js';
import { TypeOrmInvitationQueries, TypeOrmInvitationRepository } from '../../../src/invitations/persistence/typeorm-invitation.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: InvitationQueries;
let realmId: number;
let otherRealmId: number;
let other: Account;
let channelId: number;
let keys = 0;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  queries = t.app.get(InvitationQueries);
  const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;
  realmId = await realmOf(t.owner.id);
  other = await t.createOrganization('inviteother');
  otherRealmId = await realmOf(other.id);
  channelId = (await createChannels(t, ['invited'])).invited;
});
afterAll(() => t.close());

const now = new Date('2025-02-03T04:05:06.789Z');
const inAnHour = new Date(now.getTime() + 3_600_000);

function invitation(email: string, o: Partial<InvitationState> = {}): InvitationState {
  keys += 1;
  return {
    id: 0,
    realmId,
    email,
    referredById: t.owner.id,
    invitedAs: 400,
    channelIds: [channelId],
    groupIds: [],
    includeRealmDefaultSubscriptions: true,
    welcomeMessageCustomText: null,
    notifyReferrerOnJoin: true,
    invitedAt: now,
    expiresAt: inAnHour,
    confirmationKey: `key-${keys}-abcdefghijklmnop`,
    status: 0,
    ...o,
  };
}

function multiuse(o: Partial<MultiuseInviteState> = {}): MultiuseInviteState {
  keys += 1;
  return {
    id: 0,
    realmId,
    referredById: t.owner.id,
    invitedAs: 600,
    channelIds: [],
    groupIds: [],
    includeRealmDefaultSubscriptions: false,
    welcomeMessageCustomText: 'Welcome!',
    createdAt: now,
    expiresAt: null,
    confirmationKey: `multi-${keys}-abcdefghijklmnop`,
    status: 0,
    ...o,
  };
}

const insert = (s: InvitationState) => uow.run((tx) => tx.invitations.insert(Invitation.restore(s)));
const insertMultiuse = (s: MultiuseInviteState) => uow.run((tx) => tx.invitations.insertMultiuse(MultiuseInvite.restore(s)));

describe('TypeOrmInvitationRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.invitations).toBeInstanceOf(TypeOrmInvitationRepository));
    expect(queries).toBeInstanceOf(TypeOrmInvitationQueries);
  });

  it('serialises an organization’s invitations on a transaction-scoped advisory lock', async () => {
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    // The lock namespace of the adapter (INVITES_LOCK).
    const tryLock = async (realm: number) => (await c.query(`SELECT pg_try_advisory_lock($1, $2) AS ok`, [0x5ec0002, realm])).rows[0].ok;
    try {
      await uow.run(async (tx) => {
        await tx.invitations.lockRealmInvites(realmId);
        expect(await tryLock(realmId)).toBe(false);
        expect(await tryLock(otherRealmId)).toBe(true);
      });
      expect(await tryLock(realmId)).toBe(true);
    } finally {
      await c.end();
    }
  });

  it('counts the invitations sent since a time, per organization', async () => {
    const since = new Date('2030-01-01T00:00:00Z');
    await uow.run(async (tx) => {
      await tx.invitations.recordSent(realmId, 3, new Date('2029-12-31T23:59:59Z'));
      await tx.invitations.recordSent(realmId, 2, new Date('2030-01-01T00:00:01Z'));
      await tx.invitations.recordSent(realmId, 4, new Date('2030-01-02T00:00:00Z'));
      await tx.invitations.recordSent(realmId, 0, new Date('2030-01-02T00:00:00Z'));
      await tx.invitations.recordSent(otherRealmId, 10, new Date('2030-01-02T00:00:00Z'));
    });
    await uow.run(async (tx) => {
      expect(await tx.invitations.sentSince(realmId, since)).toBe(6);
      expect(await tx.invitations.sentSince(otherRealmId, since)).toBe(10);
      expect(await tx.invitations.sentSince(realmId, new Date('2031-01-01T00:00:00Z'))).toBe(0);
    });
    expect(await ds.query(`SELECT count(*)::int AS n FROM invitation_sends WHERE realm_id = $1 AND count = 0`, [realmId])).toEqual([{ n: 0 }]);
  });

  it('stores an invitation and restores every field, by id or key, locked, within the organization', async () => {
    const s = invitation('restored@example.com', { groupIds: [1, 2], welcomeMessageCustomText: '', expiresAt: null, notifyReferrerOnJoin: false });
    const id = await insert(s);
    await uow.run(async (tx) => {
      expect((await tx.invitations.find(realmId, id))?.snapshot()).toEqual({ ...s, id });
      await expect(t.sql(`SELECT 1 FROM invitations WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      expect((await tx.invitations.findByKey(realmId, s.confirmationKey))?.snapshot()).toEqual({ ...s, id });
      expect(await tx.invitations.find(otherRealmId, id)).toBeNull();
      expect(await tx.invitations.findByKey(otherRealmId, s.confirmationKey)).toBeNull();
    });
    expect(await queries.byKey(realmId, s.confirmationKey)).toEqual({ ...s, id });
  });

  it('saves the status and deletes, within the organization', async () => {
    const s = invitation('saved@example.com');
    const id = await insert(s);
    await uow.run((tx) => tx.invitations.save(Invitation.restore({ ...s, id, realmId: otherRealmId, status: 2 })));
    await uow.run((tx) => tx.invitations.save(Invitation.restore({ ...s, id, status: 1, email: 'ignored@example.com' })));
    expect(await queries.byKey(realmId, s.confirmationKey)).toEqual({ ...s, id, status: 1 });
    await uow.run((tx) => tx.invitations.delete(otherRealmId, id));
    expect(await queries.byKey(realmId, s.confirmationKey)).not.toBeNull();
    await uow.run((tx) => tx.invitations.delete(realmId, id));
    expect(await queries.byKey(realmId, s.confirmationKey)).toBeNull();
  });

  it('revokes the pending invitations of an address, case-insensitively, in the organization', async () => {
    const pending = await insert(invitation('Revoke@Example.com'));
    const used = await insert(invitation('revoke@example.com', { status: 1 }));
    const elsewhere = await insert(invitation('revoke@example.com', { realmId: otherRealmId, referredById: other.id, channelIds: [] }));
    await uow.run((tx) => tx.invitations.revokePendingFor(realmId, 'REVOKE@example.COM'));
    const statuses = await ds.query(`SELECT id, status FROM invitations WHERE id = ANY($1::int[]) ORDER BY id`, [[pending, used, elsewhere]]);
    expect(statuses).toEqual([
      { id: pending, status: 2 },
      { id: used, status: 1 },
      { id: elsewhere, status: 0 },
    ]);
  });

  it('stores a reusable link and restores every field; saving revokes it (its key cleared)', async () => {
    const s = multiuse({ channelIds: [channelId], groupIds: [3], expiresAt: inAnHour });
    const id = await insertMultiuse(s);
    await uow.run(async (tx) => {
      expect((await tx.invitations.findMultiuse(realmId, id))?.snapshot()).toEqual({ ...s, id });
      await expect(t.sql(`SELECT 1 FROM multiuse_invites WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      expect(await tx.invitations.findMultiuse(otherRealmId, id)).toBeNull();
    });
    await uow.run(async (tx) => {
      expect((await tx.invitations.findMultiuseByKey(realmId, s.confirmationKey!))?.snapshot()).toEqual({ ...s, id });
      // FOR SHARE: readers of the link do not block each other, writers wait.
      expect(await t.sql(`SELECT 1 AS ok FROM multiuse_invites WHERE id = $1 FOR SHARE NOWAIT`, [id])).toEqual([{ ok: 1 }]);
      await expect(t.sql(`SELECT 1 FROM multiuse_invites WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
      expect(await tx.invitations.findMultiuseByKey(otherRealmId, s.confirmationKey!)).toBeNull();
    });
    expect(await queries.byKey(realmId, s.confirmationKey!)).toEqual({ ...s, id });
    await uow.run((tx) => tx.invitations.saveMultiuse(MultiuseInvite.restore({ ...s, id, realmId: otherRealmId, status: 2, confirmationKey: null })));
    expect(await queries.byKey(realmId, s.confirmationKey!)).toEqual({ ...s, id });
    await uow.run((tx) => tx.invitations.saveMultiuse(MultiuseInvite.restore({ ...s, id, status: 2, confirmationKey: null })));
    expect(await queries.byKey(realmId, s.confirmationKey!)).toBeNull();
    expect((await uow.run((tx) => tx.invitations.findMultiuse(realmId, id)))?.snapshot()).toEqual({ ...s, id, status: 2, confirmationKey: null });
  });
});

describe('TypeOrmInvitationQueries', () => {
  it('lists the usable invitations and links (pending, not expired) by id, all or by referrer', async () => {
    const u = await t.createUser({ role: 200 });
    const later = new Date(now.getTime() + 60_000);
    const mine = [
      await insert(invitation('p1@example.com', { expiresAt: null })),
      await insert(invitation('p2@example.com', { referredById: u.id, expiresAt: later })),
      await insert(invitation('p3@example.com', { expiresAt: now })),
    ];
    await insert(invitation('expired@example.com', { expiresAt: new Date(now.getTime() - 1) }));
    await insert(invitation('used@example.com', { status: 1 }));
    await insert(invitation('theirs@example.com', { realmId: otherRealmId, referredById: other.id, channelIds: [] }));
    const emails = (list: InvitationState[]) => list.map((i) => i.email).filter((e) => /^(p\d|expired|used|theirs)@/.test(e));
    const all = await queries.pending(realmId, null, now);
    expect(emails(all)).toEqual(['p1@example.com', 'p2@example.com', 'p3@example.com']);
    expect(all.filter((i) => mine.includes(i.id)).map((i) => i.id)).toEqual(mine);
    expect(emails(await queries.pending(realmId, u.id, now))).toEqual(['p2@example.com']);
    expect(emails(await queries.pending(realmId, null, later))).toEqual(['p1@example.com', 'p2@example.com']);

    const links = [await insertMultiuse(multiuse()), await insertMultiuse(multiuse({ referredById: u.id, expiresAt: later }))];
    await insertMultiuse(multiuse({ status: 2, confirmationKey: null }));
    await insertMultiuse(multiuse({ expiresAt: new Date(now.getTime() - 1) }));
    const linkIds = async (referrer: number | null, at: Date) =>
      (await queries.pendingMultiuse(realmId, referrer, at)).map((m) => m.id).filter((id) => id >= links[0]);
    expect(await linkIds(null, now)).toEqual(links);
    expect(await linkIds(u.id, now)).toEqual([links[1]]);
    expect(await linkIds(null, new Date(later.getTime() + 1))).toEqual([links[0]]);
    expect((await queries.pendingMultiuse(otherRealmId, null, now)).map((m) => m.id)).not.toContain(links[0]);
  });

  it('finds a key among invitations first, then links, within the organization', async () => {
    const s = invitation('bykey@example.com');
    const id = await insert(s);
    expect(await queries.byKey(realmId, s.confirmationKey)).toEqual({ ...s, id });
    expect(await queries.byKey(otherRealmId, s.confirmationKey)).toBeNull();
    expect(await queries.byKey(realmId, 'no-such-key')).toBeNull();
  });
});
