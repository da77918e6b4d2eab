import { groupSettingEquals, holdsGroupSetting, normaliseGroupSetting, validateGroupSetting } from './group-setting.js';

const config = { requireSystemGroup: false, allowInternetGroup: false, allowNobodyGroup: true, allowEveryoneGroup: false };
const groups = new Map([
  [1, { id: 1, name: 'role:nobody', isSystemGroup: true, deactivated: false }],
  [7, { id: 7, name: 'role:everyone', isSystemGroup: true, deactivated: false }],
  [8, { id: 8, name: 'role:internet', isSystemGroup: true, deactivated: false }],
  [20, { id: 20, name: 'devs', isSystemGroup: false, deactivated: false }],
  [21, { id: 21, name: 'old', isSystemGroup: false, deactivated: true }],
  [30, { id: 30, name: '', isSystemGroup: false, deactivated: false }],
]);

describe('group-setting values', () => {
  it('normalises single-subgroup and empty anonymous groups', () => {
    expect(normaliseGroupSetting({ directMembers: [], directSubgroups: [20] }, 1)).toBe(20);
    expect(normaliseGroupSetting({ directMembers: [], directSubgroups: [] }, 1)).toBe(1);
    expect(normaliseGroupSetting({ directMembers: [3, 2, 3], directSubgroups: [] }, 1)).toEqual({
      directMembers: [2, 3],
      directSubgroups: [],
    });
  });
  it('compares member lists as sets', () => {
    const a = normaliseGroupSetting({ directMembers: [2, 3], directSubgroups: [20] }, 1);
    const b = normaliseGroupSetting({ directMembers: [3, 2], directSubgroups: [20] }, 1);
    expect(groupSettingEquals(a, b)).toBe(true);
    expect(groupSettingEquals(20, a)).toBe(false);
  });
  it.each([
    [99, 'Invalid user group'],
    [30, 'Invalid user group'],
    [21, 'User group is deactivated.'],
    [8, "'s' setting cannot be set to 'role:internet' group."],
    [7, "'s' setting cannot be set to 'role:everyone' group."],
  ])('rejects %j: %s', (value, msg) => {
    expect(() => validateGroupSetting('s', value, config, groups, new Set())).toThrow(msg);
  });
  it('checks the members and subgroups of anonymous groups', () => {
    const users = new Set([5]);
    validateGroupSetting('s', { directMembers: [5], directSubgroups: [20] }, config, groups, users);
    expect(() => validateGroupSetting('s', { directMembers: [6], directSubgroups: [] }, config, groups, users)).toThrow(
      'Invalid user ID: 6',
    );
    expect(() => validateGroupSetting('s', { directMembers: [5], directSubgroups: [99] }, config, groups, users)).toThrow(
      'Invalid user group ID: 99',
    );
    expect(() =>
      validateGroupSetting('s', { directMembers: [5], directSubgroups: [20] }, { ...config, requireSystemGroup: true }, groups, users),
    ).toThrow("'s' must be a system user group.");
  });
  it('decides membership from the user’s recursive groups', () => {
    expect(holdsGroupSetting(20, 5, new Set([20]))).toBe(true);
    expect(holdsGroupSetting(20, 5, new Set([7]))).toBe(false);
    expect(holdsGroupSetting({ directMembers: [5], directSubgroups: [] }, 5, new Set())).toBe(true);
    expect(holdsGroupSetting({ directMembers: [], directSubgroups: [20, 9] }, 6, new Set([9]))).toBe(true);
  });
});
