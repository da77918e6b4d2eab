import {
  aGroupActor,
  aGroupFact,
  anonymous,
  aUserGroup,
  creationFacts,
  GROUP,
  membershipFacts,
  newUserGroup,
  settingFacts,
  T0,
  theCreator,
  unusedGroup,
  userGroupSettings,
  userGroupState,
} from '../../test/builders.js';
import type { GroupFacts } from './group-setting.js';
import { Role } from './role.js';
import {
  assertGroupEditGiven,
  type GroupActor,
  groupSettingReferences,
  type MembershipChange,
  type NewUserGroup,
  UserGroup,
  type UserGroupEdit,
  type UserGroupSettings,
  assertCanAddMembers,
  assertSubgroupChangeGiven,
  assertCanAddSubgroups,
  assertGroupNotInUse,
  assertCanRemoveMembers,
  assertSomethingToDo,
  checkUserGroupName,
} from './user-group.js';

describe('user groups', () => {
  it.each([
    ['  ', "User group name can't be empty!"],
    ['x'.repeat(101), 'User group name cannot exceed 100 characters.'],
    ['role:admins', "User group name cannot start with 'role:'."],
    ['@here', "User group name cannot start with '@'."],
    ['channel:x', "User group name cannot start with 'channel:'."],
  ])('rejects the name %j', (name, msg) => expect(() => checkUserGroupName(name)).toThrow(msg));
  it('keeps names as given', () => expect(checkUserGroupName(' devs ')).toBe(' devs '));
  it('needs something to do', () => {
    expect(() => assertSomethingToDo({ add: [], delete: [], addSubgroups: [], deleteSubgroups: [] })).toThrow(
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
  });
  it('checks memberships against the current direct members', () => {
    expect(() => assertCanAddMembers([4, 5], new Set([5]))).toThrow('User 5 is already a member of this group');
    expect(() => assertCanRemoveMembers([6], new Set([5]))).toThrow("There is no member '6' in this user group");
  });
  it('refuses cycles', () => {
    expect(() => assertCanAddSubgroups(10, [12], new Set(), new Set([10, 12]))).toThrow(
      'User group 10 is already a subgroup of one of the passed subgroups.',
    );
    expect(() => assertCanAddSubgroups(10, [11], new Set([11]), new Set([10]))).toThrow(
      'User group 11 is already a subgroup of this group.',
    );
  });
});

describe('assertGroupNotInUse (Zulip’s CannotDeactivateGroupInUseError)', () => {
  it('passes without objections', () => {
    expect(() => assertGroupNotInUse([])).not.toThrow();
  });
  it('lists the objections in the error data', () => {
    const objections = [{ type: 'subgroup' as const, supergroup_ids: [3] }, { type: 'realm' as const, settings: ['can_create_groups'] }];
    expect(() => assertGroupNotInUse(objections)).toThrow(
      expect.objectContaining({ msg: 'Cannot deactivate user group in use.', code: 'CANNOT_DEACTIVATE_GROUP_IN_USE', data: { objections } }),
    );
  });
});

describe('assertSubgroupChangeGiven', () => {
  it('needs add or delete', () => {
    expect(() => assertSubgroupChangeGiven([], [])).toThrow('Nothing to do. Specify at least one of "add" or "delete".');
    expect(() => assertSubgroupChangeGiven([1], [])).not.toThrow();
  });
});

describe('UserGroup.create (Zulip’s create_user_group_in_database)', () => {
  const create = (o: Partial<NewUserGroup> = {}, facts = creationFacts()) => UserGroup.create(newUserGroup(o), { realmId: 1, creatorId: 50, now: T0 }, facts);

  it('gives absent settings Zulip’s defaults: the creator alone, or a system group', () => {
    const g = create({ members: [52, 50, 52] });
    expect(g.snapshot()).toEqual(userGroupState({ id: 0, members: [50, 52], subgroups: [] }));
    expect(g.pullEvents()).toEqual([{ type: 'created' }]);
  });

  it('normalises the settings given and records the subgroups as sent after the group', () => {
    const g = create(
      { subgroups: [23, 22], settings: { can_join_group: anonymous([], [GROUP.MEMBERS]), can_mention_group: anonymous([], []), can_leave_group: anonymous([52, 51, 52]) } },
      creationFacts({ groups: [aGroupFact(22), aGroupFact(23)] }),
    );
    expect(g.snapshot()).toMatchObject({
      subgroups: [22, 23],
      settings: userGroupSettings({ can_join_group: GROUP.MEMBERS, can_mention_group: GROUP.NOBODY, can_leave_group: anonymous([51, 52]) }),
    });
    expect(g.pullEvents()).toEqual([{ type: 'created' }, { type: 'subgroups_added', subgroupIds: [23, 22] }]);
  });

  it.each<[string, Partial<NewUserGroup>, Parameters<typeof creationFacts>[0], string]>([
    ['an inactive member, before the name', { name: '', members: [50, 99] }, {}, 'Invalid user ID: 99'],
    ['the name, before the settings', { name: 'role:x', settings: { can_join_group: 99 } }, {}, "User group name cannot start with 'role:'."],
    ['an unknown setting group', { settings: { can_join_group: 99 } }, {}, 'Invalid user group'],
    ['a system group the setting refuses', { settings: { can_join_group: GROUP.EVERYONE } }, {}, "'can_join_group' setting cannot be set to 'role:everyone' group."],
    ['a deactivated setting group', { settings: { can_mention_group: 22 } }, { groups: [aGroupFact(22, { deactivated: true })] }, 'User group is deactivated.'],
    ['a taken name, after the settings', { settings: { can_join_group: 99 } }, { nameTaken: true }, 'Invalid user group'],
    ['a taken name', {}, { nameTaken: true }, "User group 'devs' already exists."],
    ['an unknown subgroup', { subgroups: [22] }, {}, 'Invalid user group ID: 22'],
    ['an anonymous subgroup', { subgroups: [22] }, { groups: [aGroupFact(22, { name: '' })] }, 'Invalid user group ID: 22'],
    ['a deactivated subgroup', { subgroups: [22] }, { groups: [aGroupFact(22, { deactivated: true })] }, 'User group is deactivated.'],
  ])('refuses %s', (_, o, facts, msg) => {
    expect(() => create(o, creationFacts(facts))).toThrow(msg);
  });

  it('is identified once stored, once', () => {
    const g = create();
    g.identify(31);
    expect(g.id).toBe(31);
    expect(() => g.identify(32)).toThrow('user group 31 already has an id');
  });
});

describe('UserGroup.edit (Zulip’s edit_user_group)', () => {
  const facts = (o: { nameTaken?: boolean; groups?: GroupFacts[] } = {}) => ({ ...settingFacts(o), nameTaken: o.nameTaken ?? false });

  it.each<[string, UserGroup, GroupActor]>([
    ['a system group, even for an administrator', aUserGroup({ isSystemGroup: true }), aGroupActor({ role: Role.ADMINISTRATOR })],
    ['a guest, even one holding can_manage_group', aUserGroup(), theCreator({ role: Role.GUEST })],
    ['a member holding neither can_manage_group nor can_manage_all_groups', aUserGroup(), aGroupActor()],
  ])('refuses %s', (_, group, by) => {
    expect(() => group.edit({ description: 'x', settings: {} }, by, facts())).toThrow('Insufficient permission');
  });

  it.each<[string, Partial<UserGroupSettings>, GroupActor]>([
    ['the holders of can_manage_group', {}, theCreator()],
    ['the holders of can_manage_all_groups', {}, aGroupActor({ role: Role.ADMINISTRATOR })],
    ['a group’s members when can_manage_group names that group', { can_manage_group: 30 }, aGroupActor({ extraGroups: [30] })],
  ])('lets %s manage it, deactivated or not', (_, settings, by) => {
    const g = aUserGroup({ deactivated: true, settings: userGroupSettings(settings) });
    g.edit({ description: 'x', settings: {} }, by, facts());
    expect(g.pullEvents()).toEqual([{ type: 'description_changed', description: 'x' }]);
  });

  it('renames, describes, reactivates, then changes settings, in that order; the same values are no change', () => {
    const g = aUserGroup({ deactivated: true });
    g.edit(
      { name: 'ops', description: 'Developers', deactivated: false, settings: { can_mention_group: { new: GROUP.MEMBERS }, can_join_group: { new: GROUP.NOBODY } } },
      theCreator(),
      facts(),
    );
    const reactivated = userGroupState({ name: 'ops' });
    expect(g.pullEvents()).toEqual([
      { type: 'renamed', name: 'ops', whileDeactivated: true },
      { type: 'reactivated', group: reactivated },
      { type: 'setting_changed', setting: 'can_mention_group', value: GROUP.MEMBERS },
    ]);
    expect(g.pendingChanges()).toMatchObject({ row: true, settings: ['can_mention_group'] });
    expect(g.snapshot()).toEqual(userGroupState({ name: 'ops', settings: userGroupSettings({ can_mention_group: GROUP.MEMBERS }) }));
  });

  it('changes nothing when every value is the current one', () => {
    const g = aUserGroup();
    g.edit({ name: 'devs', description: 'Developers', deactivated: false, settings: { can_manage_group: { new: anonymous([50, 50]) } } }, theCreator(), facts());
    expect(g.pullEvents()).toEqual([]);
    expect(g.pendingChanges()).toMatchObject({ row: false, settings: [] });
  });

  it.each<[string, UserGroupEdit, Parameters<typeof facts>[0], string]>([
    ['a taken name', { name: 'ops', settings: {} }, { nameTaken: true }, "User group 'ops' already exists."],
    ['an invalid name, before its uniqueness', { name: '@ops', settings: {} }, { nameTaken: true }, "User group name cannot start with '@'."],
    ['a mismatched old value', { settings: { can_join_group: { new: GROUP.MEMBERS, old: GROUP.ADMINS } } }, {}, "'old' value does not match the expected value."],
    ['an invalid new value', { settings: { can_join_group: { new: anonymous([99]) } } }, {}, 'Invalid user ID: 99'],
  ])('refuses %s', (_, edit, f, msg) => {
    expect(() => aUserGroup().edit(edit, theCreator(), facts(f))).toThrow(msg);
  });

  it('compares old values as normalised sets', () => {
    const g = aUserGroup({ settings: userGroupSettings({ can_leave_group: anonymous([51, 52]) }) });
    g.edit({ settings: { can_leave_group: { new: anonymous([], []), old: anonymous([52, 51, 52]) } } }, theCreator(), facts());
    expect(g.pullEvents()).toEqual([{ type: 'setting_changed', setting: 'can_leave_group', value: GROUP.NOBODY }]);
  });
});

describe('UserGroup.changeMembership (Zulip’s update_user_group_backend)', () => {
  const change = (o: Partial<MembershipChange>): MembershipChange => ({ add: [], delete: [], addSubgroups: [], deleteSubgroups: [], ...o });
  const withSettings = (o: Partial<UserGroupSettings>) => aUserGroup({ settings: userGroupSettings(o) });

  it('applies each kind of change and records one event per kind, in Zulip’s order, with the ids as sent', () => {
    const g = aUserGroup();
    g.changeMembership(change({ deleteSubgroups: [21], addSubgroups: [23, 22], delete: [51], add: [60, 52] }), theCreator(), membershipFacts({ groups: [aGroupFact(21), aGroupFact(22), aGroupFact(23)] }));
    expect(g.pullEvents()).toEqual([
      { type: 'members_added', userIds: [60, 52] },
      { type: 'members_removed', userIds: [51] },
      { type: 'subgroups_added', subgroupIds: [23, 22] },
      { type: 'subgroups_removed', subgroupIds: [21] },
    ]);
    expect(g.snapshot()).toMatchObject({ members: [50, 52, 60], subgroups: [22, 23] });
    expect(g.pendingChanges()).toEqual({ row: false, settings: [], addedMembers: [60, 52], removedMembers: [51], addedSubgroups: [23, 22], removedSubgroups: [21] });
  });

  it.each<[string, UserGroup, MembershipChange, GroupActor, boolean]>([
    ['joining with can_join_group', withSettings({ can_join_group: GROUP.MEMBERS }), change({ add: [60] }), aGroupActor(), true],
    ['joining without it', aUserGroup(), change({ add: [60] }), aGroupActor(), false],
    ['adding another with can_join_group only', withSettings({ can_join_group: GROUP.MEMBERS }), change({ add: [52] }), aGroupActor(), false],
    ['adding another with can_add_members_group', withSettings({ can_add_members_group: GROUP.MEMBERS }), change({ add: [52] }), aGroupActor(), true],
    ['leaving with can_leave_group (everyone by default)', aUserGroup({ members: [60] }), change({ delete: [60] }), aGroupActor(), true],
    ['removing another without can_remove_members_group', aUserGroup(), change({ delete: [51] }), aGroupActor(), false],
    ['removing another with it', withSettings({ can_remove_members_group: GROUP.MEMBERS }), change({ delete: [51] }), aGroupActor(), true],
    ['adding subgroups with can_add_members_group', withSettings({ can_add_members_group: GROUP.MEMBERS }), change({ addSubgroups: [22] }), aGroupActor(), true],
    ['removing subgroups without managing the group', withSettings({ can_add_members_group: GROUP.MEMBERS, can_remove_members_group: GROUP.MEMBERS }), change({ deleteSubgroups: [21] }), aGroupActor(), false],
    ['anything, holding can_manage_all_groups', aUserGroup(), change({ delete: [51], deleteSubgroups: [21] }), aGroupActor({ role: Role.ADMINISTRATOR }), true],
    ['a guest holding can_manage_group', aUserGroup(), change({ delete: [51] }), theCreator({ role: Role.GUEST }), true],
    ['a system group’s members, even for an administrator', aUserGroup({ isSystemGroup: true }), change({ add: [52] }), aGroupActor({ role: Role.ADMINISTRATOR }), false],
  ])('permission: %s', (_, group, c, by, allowed) => {
    const attempt = () => group.changeMembership(c, by, membershipFacts({ groups: [aGroupFact(21), aGroupFact(22)] }));
    if (allowed) expect(attempt).not.toThrow();
    else expect(attempt).toThrow('Insufficient permission');
  });

  it.each<[string, MembershipChange, Parameters<typeof membershipFacts>[0], string]>([
    ['an inactive user, before current memberships', change({ add: [51], delete: [99] }), {}, 'Invalid user ID: 99'],
    ['a current member', change({ add: [51] }), {}, 'User 51 is already a member of this group'],
    ['a user who is not a member', change({ delete: [52] }), {}, "There is no member '52' in this user group"],
    ['an unknown subgroup to remove, before cycles', change({ addSubgroups: [22], deleteSubgroups: [98] }), { groups: [aGroupFact(22)], ancestorIds: [20, 22] }, 'Invalid user group ID: 98'],
    ['an anonymous subgroup', change({ addSubgroups: [22] }), { groups: [aGroupFact(22, { name: '' })] }, 'Invalid user group ID: 22'],
    ['a current subgroup', change({ addSubgroups: [21] }), { groups: [aGroupFact(21)] }, 'User group 21 is already a subgroup of this group.'],
    ['a cycle', change({ addSubgroups: [22] }), { groups: [aGroupFact(22)], ancestorIds: [20, 22] }, 'User group 20 is already a subgroup of one of the passed subgroups.'],
    ['removing a group that is not a subgroup', change({ deleteSubgroups: [22] }), { groups: [aGroupFact(22)] }, 'User group 22 is not a subgroup of this group.'],
  ])('refuses %s', (_, c, f, msg) => {
    expect(() => aUserGroup().changeMembership(c, theCreator(), membershipFacts(f))).toThrow(msg);
  });

  it('adds deactivated subgroups to an existing group (Zulip checks that on creation only)', () => {
    const g = aUserGroup();
    g.changeMembership(change({ addSubgroups: [22] }), theCreator(), membershipFacts({ groups: [aGroupFact(22, { deactivated: true })] }));
    expect(g.snapshot().subgroups).toEqual([21, 22]);
  });
});

describe('UserGroup.deactivate (Zulip’s do_deactivate_user_group)', () => {
  it('deactivates a group nobody uses', () => {
    const g = aUserGroup();
    g.deactivate(theCreator(), unusedGroup());
    expect(g.deactivated).toBe(true);
    expect(g.pullEvents()).toEqual([{ type: 'deactivated' }]);
    expect(g.pendingChanges().row).toBe(true);
  });

  it('refuses a deactivated group, then non-managers', () => {
    expect(() => aUserGroup({ deactivated: true }).deactivate(aGroupActor(), unusedGroup())).toThrow('User group is deactivated.');
    expect(() => aUserGroup().deactivate(aGroupActor(), unusedGroup())).toThrow('Insufficient permission');
  });

  it('lists every use as an objection, realm settings holding it as their value or a direct subgroup', () => {
    const usage = unusedGroup({
      supergroupIds: [30],
      channels: [{ channelId: 9, settings: ['can_send_message_group'] }],
      groups: [{ groupId: 31, settings: ['can_mention_group'] }],
      realmSettings: { can_create_groups: 20, can_manage_all_groups: anonymous([50], [20]), can_add_custom_emoji_group: anonymous([20]) },
    });
    const g = aUserGroup();
    expect(() => g.deactivate(theCreator(), usage)).toThrow(
      expect.objectContaining({
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        data: {
          objections: [
            { type: 'subgroup', supergroup_ids: [30] },
            { type: 'channel', channel_id: 9, settings: ['can_send_message_group'] },
            { type: 'user_group', group_id: 31, settings: ['can_mention_group'] },
            { type: 'realm', settings: ['can_create_groups', 'can_manage_all_groups'] },
          ],
        },
      }),
    );
    expect(g.deactivated).toBe(false);
    expect(g.pullEvents()).toEqual([]);
  });
});

describe('assertGroupEditGiven and groupSettingReferences', () => {
  it('needs a field or a setting', () => {
    expect(() => assertGroupEditGiven({ settings: {} })).toThrow('No new data supplied');
    expect(() => assertGroupEditGiven({ settings: { can_join_group: undefined } })).toThrow('No new data supplied');
    expect(() => assertGroupEditGiven({ deactivated: true, settings: {} })).not.toThrow();
    expect(() => assertGroupEditGiven({ settings: { can_join_group: { new: 3 } } })).not.toThrow();
  });
  it('names the groups and users of setting values, and the nobody group', () => {
    expect(groupSettingReferences([7, undefined, anonymous([50, 51], [3])], GROUP.NOBODY)).toEqual({ groupIds: [GROUP.NOBODY, 7, 3], userIds: [50, 51] });
  });
});
