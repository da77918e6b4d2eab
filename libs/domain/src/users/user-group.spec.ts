import {
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
