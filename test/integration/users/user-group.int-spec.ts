import type { UserGroupSettingName } from '@app/domain/realm';
import { type GroupActor, type GroupSettingValue, SYSTEM_GROUPS, SystemGroup, type SystemGroupName, UserGroup, type UserGroupState } from '@app/domain/users';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TypeOrmUserGroupRepository } from '../../../src/users/persistence/typeorm-user-group.repository.js';
import { UserGroupRow } from '../../../src/users/persistence/user-group.row.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { failure } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
let other: Account;
let system: Map<SystemGroupName, number>;
let alice: Account;
let bob: Account;
let gone: Account;

const at = new Date('2025-03-04T05:06:07Z');
const realmOf = async (userId: number): Promise<number> => (await ds.query('SELECT realm_id FROM users WHERE id = $1', [userId]))[0].realm_id;
const systemGroupsOf = async (realm: number): Promise<Map<SystemGroupName, number>> =>
  new Map((await ds.query('SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group', [realm])).map((r: { id: number; name: SystemGroupName }) => [r.name, r.id]));

beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  realmId = await realmOf(t.owner.id);
  alice = await t.createUser();
  bob = await t.createUser();
  gone = await t.createUser();
  await t.sql('UPDATE users SET is_active = false WHERE id = $1', [gone.id]);
  other = await t.createOrganization('other');
  otherRealmId = await realmOf(other.id);
  system = await systemGroupsOf(realmId);
});
afterAll(() => t.close());

const admins = () => system.get(SystemGroup.ADMINISTRATORS)!;
const nobody = () => system.get(SystemGroup.NOBODY)!;
/** The owner as the group rules see them: an administrator holding can_manage_all_groups. */
const owner = (): GroupActor => ({ userId: t.owner.id, role: 100, groupIds: new Set([admins()]), canManageAllGroups: admins() });

let named = 0;
/** A new group of the organization, stored through the adapter: its id. */
async function newGroup(o: { members?: number[]; subgroups?: number[]; realm?: number; canMention?: number } = {}): Promise<number> {
  named += 1;
  const realm = o.realm ?? realmId;
  const groups = await systemGroupsOf(realm);
  const settings: Record<UserGroupSettingName, number> = {
    can_add_members_group: groups.get(SystemGroup.NOBODY)!,
    can_join_group: groups.get(SystemGroup.NOBODY)!,
    can_leave_group: groups.get(SystemGroup.EVERYONE)!,
    can_manage_group: groups.get(SystemGroup.NOBODY)!,
    can_mention_group: o.canMention ?? groups.get(SystemGroup.EVERYONE)!,
    can_remove_members_group: groups.get(SystemGroup.NOBODY)!,
  };
  const state: UserGroupState = {
    id: 0,
    realmId: realm,
    name: `group ${named}`,
    description: `number ${named}`,
    creatorId: null,
    dateCreated: at,
    isSystemGroup: false,
    deactivated: false,
    members: o.members ?? [],
    subgroups: o.subgroups ?? [],
    settings,
  };
  const group = UserGroup.restore(state);
  await uow.run((tx) => tx.groups.insert(group, settings));
  return group.id;
}

describe('TypeOrmUserGroupRepository', () => {
  it('is the transaction’s user group repository', async () => {
    await uow.run(async (tx) => expect(tx.groups).toBeInstanceOf(TypeOrmUserGroupRepository));
  });

  describe('system groups', () => {
    it('creates a new organization’s system groups in Zulip’s order, linked, with every setting on role:nobody', async () => {
      const realm = await uow.run((tx) => tx.realms.insert({ stringId: 'fresh', name: 'Fresh', dateCreated: at }));
      const ids = await uow.run((tx) => tx.groups.createSystemGroups(realm));
      expect([...ids.keys()]).toEqual(SYSTEM_GROUPS.map((g) => g.name));
      expect([...ids.values()]).toEqual([...ids.values()].sort((a, b) => a - b));
      const links = await ds.query('SELECT supergroup_id, subgroup_id, realm_id FROM user_group_subgroups WHERE realm_id = $1 ORDER BY subgroup_id', [realm]);
      expect(links).toEqual(
        SYSTEM_GROUPS.filter((g) => g.parent !== null).map((g) => ({ supergroup_id: ids.get(g.parent!), subgroup_id: ids.get(g.name), realm_id: realm })),
      );
      const settings = await ds.query('SELECT DISTINCT can_add_members_group_id, can_manage_group_id, can_remove_members_group_id FROM user_groups WHERE realm_id = $1', [realm]);
      const n = ids.get(SystemGroup.NOBODY)!;
      expect(settings).toEqual([{ can_add_members_group_id: n, can_manage_group_id: n, can_remove_members_group_id: n }]);
    });

    it('replaces a user’s system group memberships within the organization', async () => {
      const u = await t.createUser();
      await uow.run((tx) => tx.groups.setSystemGroupMemberships(realmId, u.id, [SystemGroup.MODERATORS, SystemGroup.MEMBERS]));
      const direct = async () =>
        (await ds.query('SELECT g.name FROM user_group_members m JOIN user_groups g ON g.id = m.group_id WHERE m.user_id = $1 ORDER BY g.id', [u.id])).map((r: { name: string }) => r.name);
      expect(await direct()).toEqual([SystemGroup.MODERATORS, SystemGroup.MEMBERS]);
      await uow.run((tx) => tx.groups.setSystemGroupMemberships(otherRealmId, u.id, [SystemGroup.OWNERS]));
      expect(await direct()).toEqual([SystemGroup.MODERATORS, SystemGroup.MEMBERS]);
    });

    it('makes role:fullmembers exactly the members who joined by the cutoff', async () => {
      const late = await t.createUser();
      await t.sql(`UPDATE users SET date_joined = now() + interval '1 day' WHERE id = $1`, [late.id]);
      await uow.run((tx) => tx.groups.refreshFullMembers(realmId, new Date()));
      const full = (await ds.query('SELECT user_id FROM user_group_members WHERE group_id = $1', [system.get(SystemGroup.FULL_MEMBERS)])).map((r: { user_id: number }) => r.user_id);
      expect(full).toEqual(expect.arrayContaining([alice.id, bob.id]));
      expect(full).not.toContain(late.id);
      expect(full).not.toContain(t.owner.id); // an owner is not a member (role 400)
    });
  });

  describe('named groups', () => {
    it('stores a new group with its members and subgroups and reads it back whole, row-locked', async () => {
      const sub = await newGroup();
      const id = await newGroup({ members: [bob.id, alice.id, gone.id], subgroups: [sub] });
      const loaded = await uow.run(async (tx) => (await tx.groups.getForUpdate(realmId, id))!.snapshot());
      expect(loaded).toEqual({
        id,
        realmId,
        name: expect.stringMatching(/^group /),
        description: expect.stringMatching(/^number /),
        creatorId: null,
        dateCreated: at,
        isSystemGroup: false,
        deactivated: false,
        members: [alice.id, bob.id, gone.id].sort((a, b) => a - b),
        subgroups: [sub],
        settings: expect.objectContaining({ can_join_group: nobody(), can_leave_group: system.get(SystemGroup.EVERYONE) }),
      });
      expect(await uow.run((tx) => tx.groups.find(realmId, id))).toEqual({
        id,
        realmId,
        name: loaded.name,
        description: loaded.description,
        isSystemGroup: false,
        creatorId: null,
        dateCreated: at,
        deactivated: false,
        settings: { ...loaded.settings },
      });
    });

    it('reads an anonymous setting as its active direct members and subgroups', async () => {
      const anon = await uow.run((tx) => tx.groupSettings.store(realmId, { directMembers: [alice.id, gone.id], directSubgroups: [admins()] }));
      const id = await newGroup({ canMention: anon });
      const group = await uow.run((tx) => tx.groups.getForUpdate(realmId, id));
      expect(group!.settings.can_mention_group).toEqual({ directMembers: [alice.id], directSubgroups: [admins()] });
      expect(await uow.run((tx) => tx.groups.settingValue(anon))).toEqual({ directMembers: [alice.id], directSubgroups: [admins()] });
      expect(await uow.run((tx) => tx.groups.settingValuesOf([anon, admins()]))).toEqual(
        new Map<number, GroupSettingValue>([
          [anon, { directMembers: [alice.id], directSubgroups: [admins()] }],
          [admins(), admins()],
        ]),
      );
    });

    it('loads system groups, but neither anonymous groups, unknown ids nor another organization’s groups', async () => {
      const anon = await uow.run((tx) => tx.groupSettings.store(realmId, { directMembers: [alice.id], directSubgroups: [] }));
      const theirs = await newGroup({ realm: otherRealmId });
      await uow.run(async (tx) => {
        expect((await tx.groups.getForUpdate(realmId, admins()))!.snapshot()).toMatchObject({ isSystemGroup: true, name: SystemGroup.ADMINISTRATORS });
        expect(await tx.groups.getForUpdate(realmId, anon)).toBeNull();
        expect(await tx.groups.getForUpdate(realmId, 2 ** 40)).toBeNull();
        expect(await tx.groups.getForUpdate(realmId, theirs)).toBeNull();
        expect(await tx.groups.find(realmId, theirs)).toBeNull();
        expect(await tx.groups.getForUpdate(otherRealmId, theirs)).not.toBeNull();
      });
    });

    it('saves what changed: the row, the stored settings, and the members and subgroups added or removed', async () => {
      const [s1, s2] = [await newGroup(), await newGroup()];
      const id = await newGroup({ members: [alice.id], subgroups: [s1] });
      await uow.run(async (tx) => {
        const group = (await tx.groups.getForUpdate(realmId, id))!;
        group.edit({ name: 'renamed', settings: { can_join_group: { new: { directMembers: [bob.id], directSubgroups: [] } } } }, owner(), {
          nobodyGroupId: nobody(),
          groups: await tx.groupSettings.groupFacts(realmId, [nobody()]),
          activeUserIds: new Set([bob.id]),
          nameTaken: false,
        });
        group.changeMembership({ add: [bob.id], delete: [alice.id], addSubgroups: [s2], deleteSubgroups: [s1] }, owner(), {
          groups: await tx.groupSettings.groupFacts(realmId, [s1, s2]),
          activeUserIds: new Set([alice.id, bob.id]),
          ancestorIds: await tx.groups.ancestorIds(id),
        });
        const stored = await tx.groupSettings.store(realmId, group.settings.can_join_group);
        await tx.groups.save(group, { can_join_group: stored });
      });
      const [row] = await ds.query('SELECT name, description, deactivated, can_join_group_id FROM user_groups WHERE id = $1', [id]);
      expect(row).toMatchObject({ name: 'renamed', deactivated: false });
      const after = await uow.run(async (tx) => (await tx.groups.getForUpdate(realmId, id))!.snapshot());
      expect(after).toMatchObject({ name: 'renamed', members: [bob.id], subgroups: [s2], settings: { can_join_group: { directMembers: [bob.id], directSubgroups: [] } } });
      expect(row.can_join_group_id).not.toBe(nobody());
    });

    it('writes nothing for a group without changes, and only within the group’s organization', async () => {
      const id = await newGroup({ members: [alice.id] });
      const version = async () => (await ds.query('SELECT settings_version FROM realms WHERE id = $1', [realmId]))[0].settings_version;
      const before = await version();
      await uow.run(async (tx) => tx.groups.save((await tx.groups.getForUpdate(realmId, id))!, {}));
      expect(await version()).toBe(before);
      // The same group restored as another organization's: its writes touch no row.
      await uow.run(async (tx) => {
        const group = UserGroup.restore({ ...(await tx.groups.getForUpdate(realmId, id))!.snapshot(), realmId: otherRealmId });
        group.deactivate({ ...owner(), canManageAllGroups: admins() }, { supergroupIds: [], channels: [], groups: [], realmSettings: {} });
        await tx.groups.save(group, {});
      });
      expect((await ds.query('SELECT deactivated FROM user_groups WHERE id = $1', [id]))[0].deactivated).toBe(false);
    });

    it('reports a duplicate name lost to a concurrent writer as the rule it protects, per organization', async () => {
      const create = (realm: number) =>
        uow.run((tx) => tx.groups.createNamed({ realmId: realm, name: 'twice', description: '', creatorId: null, dateCreated: null, settings: {} }));
      await create(realmId);
      await create(otherRealmId);
      const e = await failure(create(realmId));
      expect([e.msg, e.code]).toEqual(["User group 'twice' already exists.", 'BAD_REQUEST']);
      await uow.run(async (tx) => {
        expect(await tx.groups.namedGroupExists(realmId, 'twice')).toBe(true);
        expect(await tx.groups.namedGroupExists(realmId, 'Twice')).toBe(false);
      });
    });

    it('adds members idempotently', async () => {
      const id = await newGroup({ members: [alice.id] });
      await uow.run((tx) => tx.groups.addMembers(realmId, id, [alice.id, bob.id]));
      expect(await uow.run((tx) => tx.groups.memberIds(id, true))).toEqual([alice.id, bob.id].sort((a, b) => a - b));
    });
  });

  describe('the UserGroupRow entity', () => {
    it('maps a user_groups row, setting columns included', async () => {
      const id = await newGroup({ canMention: admins() });
      const row = await ds.getRepository(UserGroupRow).findOneByOrFail({ id });
      expect({ ...row }).toEqual({
        id,
        realmId,
        name: expect.stringMatching(/^group /),
        description: expect.stringMatching(/^number /),
        isSystemGroup: false,
        creatorId: null,
        dateCreated: at,
        deactivated: false,
        canAddMembersGroupId: nobody(),
        canJoinGroupId: nobody(),
        canLeaveGroupId: system.get(SystemGroup.EVERYONE),
        canManageGroupId: nobody(),
        canMentionGroupId: admins(),
        canRemoveMembersGroupId: nobody(),
      });
    });
  });

  describe('membership through subgroups', () => {
    it('walks subgroups down and up, counting active users only', async () => {
      const leaf = await newGroup({ members: [alice.id, gone.id] });
      const mid = await newGroup({ members: [bob.id], subgroups: [leaf] });
      const top = await newGroup({ subgroups: [mid] });
      await uow.run(async (tx) => {
        expect(await tx.groups.memberIds(top, true)).toEqual([]);
        expect(await tx.groups.memberIds(top, false)).toEqual([alice.id, bob.id].sort((a, b) => a - b));
        expect(await tx.groups.memberIds(leaf, true)).toEqual([alice.id]);
        expect(await tx.groups.subgroupIdsOf(top, true)).toEqual([mid]);
        expect(await tx.groups.subgroupIdsOf(top, false)).toEqual([leaf, mid]); // ascending
        expect(await tx.groups.ancestorIds(leaf)).toEqual(new Set([leaf, mid, top]));
        expect(await tx.groups.isMember(top, alice.id, false)).toBe(true);
        expect(await tx.groups.isMember(top, alice.id, true)).toBe(false);
        expect(await tx.groups.isMember(leaf, gone.id, true)).toBe(false);
        const mine = await tx.groups.groupIdsOfUser(alice.id);
        expect([leaf, mid, top].every((g) => mine.has(g))).toBe(true);
        const both = await tx.groups.groupIdsOfUsers([alice.id, gone.id]);
        expect(both.get(alice.id)).toEqual(mine);
        expect(both.get(gone.id)).toEqual(new Set());
      });
    });
  });

  describe('usage', () => {
    it('finds the active named supergroups, the anonymous ones settings may hold, and the named groups whose settings hold either', async () => {
      const g = await newGroup();
      const activeSuper = await newGroup({ subgroups: [g] });
      const deactivatedSuper = await newGroup({ subgroups: [g] });
      await t.sql('UPDATE user_groups SET deactivated = true WHERE id = $1', [deactivatedSuper]);
      const anon = await uow.run((tx) => tx.groupSettings.store(realmId, { directMembers: [alice.id], directSubgroups: [g] }));
      const holderById = await newGroup({ canMention: g });
      const holderByAnon = await newGroup({ canMention: anon });
      const theirs = await newGroup({ realm: otherRealmId });
      const usage = await uow.run((tx) => tx.groups.usage(realmId, g));
      expect(usage).toEqual({
        supergroupIds: [activeSuper],
        settingGroupIds: [g, anon],
        groups: [
          { groupId: holderById, settings: ['can_mention_group'] },
          { groupId: holderByAnon, settings: ['can_mention_group'] },
        ],
      });
      expect(await uow.run((tx) => tx.groups.usage(otherRealmId, g))).toEqual({ supergroupIds: [], settingGroupIds: [g], groups: [] });
      expect((await uow.run((tx) => tx.groups.usage(otherRealmId, theirs))).groups).toEqual([]);
    });
  });
});
