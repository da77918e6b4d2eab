import type { GroupFacts, GroupSettingValue } from '../../src/users/group-setting.js';
import { Role } from '../../src/users/role.js';
import { SystemGroup, type SystemGroupName } from '../../src/users/system-groups.js';
import {
  type GroupActor,
  type GroupSettingFacts,
  type GroupUsageFacts,
  type MembershipFacts,
  type NewUserGroup,
  UserGroup,
  type UserGroupCreationFacts,
  type UserGroupSettings,
  type UserGroupState,
} from '../../src/users/user-group.js';
import { GROUP, systemGroupsOf, T0 } from './common.js';

/** The organization's system groups by name, numbered as GROUP numbers them (role:internet is 8). */
export const SYSTEM_GROUP_IDS: ReadonlyMap<SystemGroupName, number> = new Map<SystemGroupName, number>([
  [SystemGroup.NOBODY, GROUP.NOBODY],
  [SystemGroup.OWNERS, GROUP.OWNERS],
  [SystemGroup.ADMINISTRATORS, GROUP.ADMINS],
  [SystemGroup.MODERATORS, GROUP.MODERATORS],
  [SystemGroup.FULL_MEMBERS, GROUP.FULL_MEMBERS],
  [SystemGroup.MEMBERS, GROUP.MEMBERS],
  [SystemGroup.EVERYONE, GROUP.EVERYONE],
  [SystemGroup.INTERNET, 8],
]);

/** The facts of a group as the setting rules see it: `aGroupFact(20)` is an active named group "group20". */
export const aGroupFact = (id: number, o: Partial<GroupFacts> = {}): GroupFacts => ({ id, name: `group${id}`, isSystemGroup: false, deactivated: false, ...o });

/** The system groups as facts, keyed by id. */
export const systemGroupFacts = (): Map<number, GroupFacts> =>
  new Map([...SYSTEM_GROUP_IDS].map(([name, id]) => [id, aGroupFact(id, { name, isSystemGroup: true })]));

/** The settings of a group created by user 50 with Zulip's defaults. */
export const userGroupSettings = (o: Partial<UserGroupSettings> = {}): UserGroupSettings => ({
  can_add_members_group: { directMembers: [50], directSubgroups: [] },
  can_join_group: GROUP.NOBODY,
  can_leave_group: GROUP.EVERYONE,
  can_manage_group: { directMembers: [50], directSubgroups: [] },
  can_mention_group: GROUP.EVERYONE,
  can_remove_members_group: GROUP.NOBODY,
  ...o,
});

/** The state of the group "devs" (id 20) of organization 1, created by user 50, with members 50 and 51 and subgroup 21. */
export const userGroupState = (o: Partial<UserGroupState> = {}): UserGroupState => ({
  id: 20,
  realmId: 1,
  name: 'devs',
  description: 'Developers',
  creatorId: 50,
  dateCreated: T0,
  isSystemGroup: false,
  deactivated: false,
  members: [50, 51],
  subgroups: [21],
  settings: userGroupSettings(),
  ...o,
});

/** A user group aggregate in one line: `aUserGroup({ deactivated: true })`. */
export const aUserGroup = (o: Partial<UserGroupState> = {}): UserGroup => UserGroup.restore(userGroupState(o));

/**
 * The caller as the group rules see them: a member (id 60) in their role's system groups plus
 * `extraGroups`, in an organization whose can_manage_all_groups is the administrators.
 */
export function aGroupActor(o: Partial<GroupActor> & { extraGroups?: number[] } = {}): GroupActor {
  const { extraGroups = [], ...rest } = o;
  const role = rest.role ?? Role.MEMBER;
  return { userId: 60, role, groupIds: new Set([...systemGroupsOf(role), ...extraGroups]), canManageAllGroups: GROUP.ADMINS, ...rest };
}

/** The group's creator (user 50, a member): holds can_manage_group by default. */
export const theCreator = (o: Partial<GroupActor> = {}): GroupActor => aGroupActor({ userId: 50, ...o });

/** Setting facts: the system groups and `groups` (active named groups by id), with `activeUserIds` active. */
export function settingFacts(o: { groups?: GroupFacts[]; activeUserIds?: number[] } = {}): GroupSettingFacts {
  const groups = systemGroupFacts();
  for (const g of o.groups ?? []) groups.set(g.id, g);
  return { nobodyGroupId: GROUP.NOBODY, groups, activeUserIds: new Set(o.activeUserIds ?? [50, 51, 52, 60]) };
}

/** Creation facts: `settingFacts` plus the system groups by name and whether the name is taken. */
export function creationFacts(o: { groups?: GroupFacts[]; activeUserIds?: number[]; nameTaken?: boolean } = {}): UserGroupCreationFacts {
  const { groups, activeUserIds } = settingFacts(o);
  return { groups, activeUserIds, systemGroups: SYSTEM_GROUP_IDS, nameTaken: o.nameTaken ?? false };
}

/** Membership facts: `settingFacts` plus the group's ancestors (by default the group itself, 20). */
export function membershipFacts(o: { groups?: GroupFacts[]; activeUserIds?: number[]; ancestorIds?: number[] } = {}): MembershipFacts {
  const { groups, activeUserIds } = settingFacts(o);
  return { groups, activeUserIds, ancestorIds: new Set(o.ancestorIds ?? [20]) };
}

/** A group nobody uses: no supergroups, no channel or group settings, the organization's defaults. */
export const unusedGroup = (o: Partial<GroupUsageFacts> = {}): GroupUsageFacts => ({
  supergroupIds: [],
  channels: [],
  groups: [],
  realmSettings: { can_create_groups: GROUP.MEMBERS, can_manage_all_groups: GROUP.ADMINS },
  ...o,
});

/** A request for a new group "devs" without members, subgroups or settings. */
export const newUserGroup = (o: Partial<NewUserGroup> = {}): NewUserGroup => ({ name: 'devs', description: 'Developers', members: [], subgroups: [], settings: {}, ...o });

/** A group-setting value with direct members and subgroups. */
export const anonymous = (directMembers: number[], directSubgroups: number[] = []): GroupSettingValue => ({ directMembers, directSubgroups });
