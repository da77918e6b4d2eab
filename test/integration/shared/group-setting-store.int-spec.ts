import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { kernelTransaction } from '../../../src/shared/persistence/kernel.transaction.js';
import { OutboxEmailSender } from '../../../src/shared/persistence/outbox-email-sender.js';
import { TypeOrmGroupSettingStore } from '../../../src/shared/persistence/typeorm-group-setting-store.js';
import { type Account, TestApp } from '../../support/test-app.js';

/** TypeOrmGroupSettingStore: the user groups behind permission settings, read and written in the caller's transaction. */
let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;
let otherRealmId: number;
let other: Account;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  other = await t.createOrganization('other');
  otherRealmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [other.id]))[0].realm_id;
});
afterAll(() => t.close());

const systemGroups = async (realm: number) =>
  new Map(((await ds.query(`SELECT name, id FROM user_groups WHERE realm_id = $1 AND is_system_group`, [realm])) as { name: string; id: number }[]).map((r) => [r.name, r.id]));

describe('TypeOrmGroupSettingStore', () => {
  it('is built by the kernel’s part of every transaction, with the email outbox', async () => {
    const repositories = await uow.run(async (tx) => [tx.groupSettings, tx.emails]);
    expect(repositories[0]).toBeInstanceOf(TypeOrmGroupSettingStore);
    expect(repositories[1]).toBeInstanceOf(OutboxEmailSender);
    const built = kernelTransaction.repositories(ds.manager);
    expect(built.groupSettings).toBeInstanceOf(TypeOrmGroupSettingStore);
    expect(built.emails).toBeInstanceOf(OutboxEmailSender);
  });

  it("answers the organization's system groups by name, and no other organization's", async () => {
    const mine = await uow.run((tx) => tx.groupSettings.systemGroupIds(realmId));
    expect(mine).toEqual(await systemGroups(realmId));
    expect(mine.get('role:everyone')).toEqual(expect.any(Number));
    const theirs = await uow.run((tx) => tx.groupSettings.systemGroupIds(otherRealmId));
    expect([...theirs.values()].some((id) => [...mine.values()].includes(id))).toBe(false);
  });

  it('stores a named group as its id, an anonymous one as a new group with its members and subgroups', async () => {
    const everyone = (await systemGroups(realmId)).get('role:everyone')!;
    const u = await t.createUser();
    expect(await uow.run((tx) => tx.groupSettings.store(realmId, everyone))).toBe(everyone);
    const id = await uow.run((tx) => tx.groupSettings.store(realmId, { directMembers: [u.id, t.owner.id, u.id], directSubgroups: [everyone] }));
    const [row] = await ds.query(
      `SELECT g.realm_id, g.name, g.is_system_group, g.deactivated,
         ARRAY(SELECT user_id FROM user_group_members WHERE group_id = g.id ORDER BY 1) AS members,
         ARRAY(SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = g.id ORDER BY 1) AS subgroups
       FROM user_groups g WHERE g.id = $1`,
      [id],
    );
    expect(row).toEqual({ realm_id: realmId, name: null, is_system_group: false, deactivated: false, members: [t.owner.id, u.id].sort((a, b) => a - b), subgroups: [everyone] });
    const empty = await uow.run((tx) => tx.groupSettings.store(realmId, { directMembers: [], directSubgroups: [] }));
    expect(await ds.query(`SELECT count(*)::int AS n FROM user_group_members WHERE group_id = $1`, [empty])).toEqual([{ n: 0 }]);
  });

  it("gives the facts of the organization's groups asked for (anonymous ones nameless), not of another's", async () => {
    const groups = await systemGroups(realmId);
    const everyone = groups.get('role:everyone')!;
    const anonymous = await uow.run((tx) => tx.groupSettings.store(realmId, { directMembers: [t.owner.id], directSubgroups: [] }));
    const theirs = (await systemGroups(otherRealmId)).get('role:everyone')!;
    await ds.query(`UPDATE user_groups SET deactivated = true WHERE id = $1`, [anonymous]);
    const facts = await uow.run((tx) => tx.groupSettings.groupFacts(realmId, [everyone, anonymous, theirs, -1, 2 ** 40]));
    expect(facts).toEqual(
      new Map([
        [everyone, { id: everyone, name: 'role:everyone', isSystemGroup: true, deactivated: false }],
        [anonymous, { id: anonymous, name: '', isSystemGroup: false, deactivated: true }],
      ]),
    );
    expect(await uow.run((tx) => tx.groupSettings.groupFacts(realmId, []))).toEqual(new Map());
  });

  it("keeps the organization's active users among those asked for, bots only when allowed", async () => {
    const u = await t.createUser();
    const gone = await t.createUser();
    const bot = await t.createBot(t.owner, 'gsbot');
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    const asked = [t.owner.id, u.id, gone.id, bot.id, other.id, 2 ** 40];
    expect(await uow.run((tx) => tx.groupSettings.activeUserIds(realmId, asked))).toEqual(new Set([t.owner.id, u.id, bot.id]));
    expect(await uow.run((tx) => tx.groupSettings.activeUserIds(realmId, asked, false))).toEqual(new Set([t.owner.id, u.id]));
    expect(await uow.run((tx) => tx.groupSettings.activeUserIds(realmId, []))).toEqual(new Set());
  });
});
