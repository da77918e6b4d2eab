import { REALM_GROUP_SETTING_NAMES, USER_GROUP_SETTING_NAMES, USER_GROUP_SETTINGS, type UserGroupSettingName } from '../realm/realm-settings.js';
import { AggregateRoot } from '../shared/aggregate-root.js';
import { badRequest, DomainError, insufficientPermission } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import {
  expectationMismatch,
  type GroupFacts,
  groupSettingEquals,
  type GroupSettingValue,
  holdsGroupSetting,
  normaliseGroupSetting,
  validateGroupSetting,
} from './group-setting.js';
import { isGuest, type Role } from './role.js';
import { SystemGroup, type SystemGroupName } from './system-groups.js';

export const MAX_USER_GROUP_NAME_LENGTH = 100;
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Zulip's check_user_group_name. The name is stored as given (not stripped). */
export function checkUserGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if (codePointLength(name) > MAX_USER_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  for (const prefix of RESERVED_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

export const invalidUserGroup = (): DomainError => badRequest('Invalid user group');
export const userGroupAlreadyExists = (name: string): DomainError =>
  badRequest(`User group '${name}' already exists.`);
export const invalidUserId = (id: number): DomainError => badRequest(`Invalid user ID: ${id}`);
export const invalidUserGroupId = (id: number): DomainError => badRequest(`Invalid user group ID: ${id}`);
export const userGroupDeactivated = (): DomainError => badRequest('User group is deactivated.');

/** The membership change requested by POST /user_groups/{id}/members, checked against the current state. */
export interface MembershipChange {
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

export function assertSomethingToDo(c: MembershipChange): void {
  if (c.add.length + c.delete.length + c.addSubgroups.length + c.deleteSubgroups.length === 0) {
    throw badRequest(
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
  }
}

/** POST /user_groups/{id}/subgroups (Zulip's update_subgroups_of_user_group) needs `add` or `delete`. */
export function assertSubgroupChangeGiven(add: readonly number[], remove: readonly number[]): void {
  if (add.length + remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
}

export function assertCanAddMembers(toAdd: readonly number[], currentDirect: ReadonlySet<number>): void {
  for (const id of toAdd) {
    if (currentDirect.has(id)) throw badRequest(`User ${id} is already a member of this group`);
  }
}

export function assertCanRemoveMembers(toRemove: readonly number[], currentDirect: ReadonlySet<number>): void {
  for (const id of toRemove) {
    if (!currentDirect.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
  }
}

export function assertCanAddSubgroups(
  groupId: number,
  toAdd: readonly number[],
  currentSubgroups: ReadonlySet<number>,
  /** Groups that contain this group, recursively (including itself): adding one would make a cycle. */
  ancestorsOfGroup: ReadonlySet<number>,
): void {
  for (const id of toAdd) {
    if (currentSubgroups.has(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
  }
  for (const id of toAdd) {
    if (ancestorsOfGroup.has(id)) {
      throw badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
    }
  }
}

export function assertCanRemoveSubgroups(toRemove: readonly number[], currentSubgroups: ReadonlySet<number>): void {
  for (const id of toRemove) {
    if (!currentSubgroups.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
}

export const noNewGroupData = (): DomainError => badRequest('No new data supplied');

/** Where a group is used, as Zulip's CannotDeactivateGroupInUseError lists it. */
export type GroupObjection =
  | { type: 'subgroup'; supergroup_ids: number[] }
  | { type: 'channel'; channel_id: number; settings: string[] }
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'realm'; settings: string[] };

/** A group still in use (a subgroup of an active group, or held by a setting) cannot be deactivated. */
export function assertGroupNotInUse(objections: readonly GroupObjection[]): void {
  if (objections.length > 0) {
    throw new DomainError('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'invalid', { objections });
  }
}

/** PATCH /user_groups/{id} needs at least one field (Zulip's edit_user_group). */
export function assertGroupEditGiven(edit: UserGroupEdit): void {
  const settingGiven = Object.values(edit.settings).some((u) => u !== undefined);
  if (edit.name === undefined && edit.description === undefined && edit.deactivated === undefined && !settingGiven) throw noNewGroupData();
}

/** A group's permission settings, each a named group's id or an anonymous group. */
export type UserGroupSettings = Record<UserGroupSettingName, GroupSettingValue>;

export interface UserGroupState {
  id: number;
  realmId: number;
  name: string;
  description: string;
  creatorId: number | null;
  dateCreated: Date | null;
  isSystemGroup: boolean;
  deactivated: boolean;
  /** The direct members, ascending (deactivated users included). */
  members: number[];
  /** The direct subgroups, ascending. */
  subgroups: number[];
  settings: UserGroupSettings;
}

/** What happened to a group; the ids are those of the request, in its order (Zulip sends them as given). */
export type UserGroupEvent =
  | { type: 'created' }
  | { type: 'renamed'; name: string; whileDeactivated: boolean }
  | { type: 'description_changed'; description: string }
  /** The group as it was reactivated, before any later change of the same request. */
  | { type: 'reactivated'; group: UserGroupState }
  | { type: 'setting_changed'; setting: UserGroupSettingName; value: GroupSettingValue }
  | { type: 'members_added' | 'members_removed'; userIds: number[] }
  | { type: 'subgroups_added' | 'subgroups_removed'; subgroupIds: number[] }
  | { type: 'deactivated' };

/** The caller as the group permission rules see them (resolved by the application). */
export interface GroupActor {
  userId: number;
  role: Role;
  /** Every group the caller belongs to, through subgroups. */
  groupIds: ReadonlySet<number>;
  /** The organization's can_manage_all_groups setting. */
  canManageAllGroups: GroupSettingValue;
}

/** What the setting and membership rules need to know about the groups and users a request names. */
export interface NamedFacts {
  /** The organization's groups among those named, by id. */
  groups: ReadonlyMap<number, GroupFacts>;
  /** The named users that are active users of the organization. */
  activeUserIds: ReadonlySet<number>;
}

export interface GroupSettingFacts extends NamedFacts {
  nobodyGroupId: number;
}

export interface UserGroupCreationFacts extends NamedFacts {
  systemGroups: ReadonlyMap<SystemGroupName, number>;
  /** A named group of the organization already has the name. */
  nameTaken: boolean;
}

export interface MembershipFacts extends NamedFacts {
  /** The group and every group containing it, recursively: a subgroup among them would make a cycle. */
  ancestorIds: ReadonlySet<number>;
}

/** Where the group is in use: what keeps it from being deactivated (resolved by the application). */
export interface GroupUsageFacts {
  /** Its named direct supergroups that are not deactivated. */
  supergroupIds: number[];
  channels: { channelId: number; settings: string[] }[];
  groups: { groupId: number; settings: string[] }[];
  realmSettings: Readonly<Record<string, GroupSettingValue>>;
}

export interface NewUserGroup {
  name: string;
  description: string;
  members: readonly number[];
  subgroups: readonly number[];
  settings: Partial<Record<UserGroupSettingName, GroupSettingValue>>;
}

/** PATCH /user_groups/{id}: the fields given (settings as {new, old} updates). */
export interface UserGroupEdit {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<UserGroupSettingName, { new: GroupSettingValue; old?: GroupSettingValue }>>;
}

/** What saving must write: the row (name, description, deactivation), the settings to store, the link rows. */
export interface UserGroupChanges {
  row: boolean;
  settings: UserGroupSettingName[];
  addedMembers: number[];
  removedMembers: number[];
  addedSubgroups: number[];
  removedSubgroups: number[];
}

/** The groups and users these setting values name (the nobody group included: empty values become it). */
export function groupSettingReferences(values: Iterable<GroupSettingValue | undefined>, nobodyGroupId: number): { groupIds: number[]; userIds: number[] } {
  const groupIds = [nobodyGroupId];
  const userIds: number[] = [];
  for (const v of values) {
    if (v === undefined) continue;
    if (typeof v === 'number') groupIds.push(v);
    else {
      groupIds.push(...v.directSubgroups);
      userIds.push(...v.directMembers);
    }
  }
  return { groupIds, userIds };
}

const uniqueSorted = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** A named user group (Zulip's NamedUserGroup): its name, members, subgroups and permission settings. */
export class UserGroup extends AggregateRoot<UserGroupEvent> {
  private readonly changes: UserGroupChanges = { row: false, settings: [], addedMembers: [], removedMembers: [], addedSubgroups: [], removedSubgroups: [] };

  private constructor(private readonly state: UserGroupState) {
    super();
  }

  static restore(state: UserGroupState): UserGroup {
    return new UserGroup(copyState(state));
  }

  /**
   * POST /user_groups/create (Zulip's create_user_group_in_database), checked in Zulip's order:
   * members, name, each setting (absent ones take their default), the name's uniqueness, subgroups.
   * Its id comes with `identify` once stored.
   */
  static create(g: NewUserGroup, o: { realmId: number; creatorId: number; now: Date }, facts: UserGroupCreationFacts): UserGroup {
    for (const id of g.members) if (!facts.activeUserIds.has(id)) throw invalidUserId(id);
    const name = checkUserGroupName(g.name);
    const nobodyGroupId = facts.systemGroups.get(SystemGroup.NOBODY)!;
    const settings = {} as UserGroupSettings;
    for (const setting of USER_GROUP_SETTING_NAMES) {
      const given = g.settings[setting];
      settings[setting] = given === undefined ? defaultSetting(setting, o.creatorId, facts.systemGroups) : checkedSetting(setting, given, { ...facts, nobodyGroupId });
    }
    if (facts.nameTaken) throw userGroupAlreadyExists(name);
    for (const id of g.subgroups) {
      const found = facts.groups.get(id);
      if (!found || found.name === '') throw invalidUserGroupId(id);
      if (found.deactivated) throw userGroupDeactivated();
    }
    const group = new UserGroup({
      id: 0,
      realmId: o.realmId,
      name,
      description: g.description,
      creatorId: o.creatorId,
      dateCreated: o.now,
      isSystemGroup: false,
      deactivated: false,
      members: uniqueSorted(g.members),
      subgroups: uniqueSorted(g.subgroups),
      settings,
    });
    group.record({ type: 'created' });
    if (g.subgroups.length > 0) group.record({ type: 'subgroups_added', subgroupIds: [...g.subgroups] });
    return group;
  }

  /** The id Postgres gave the new group (set by the repository when it stores it). */
  identify(id: number): void {
    if (this.state.id !== 0) throw new Error(`user group ${this.state.id} already has an id`);
    this.state.id = id;
  }

  get id(): number {
    return this.state.id;
  }
  get realmId(): number {
    return this.state.realmId;
  }
  get name(): string {
    return this.state.name;
  }
  get deactivated(): boolean {
    return this.state.deactivated;
  }
  get settings(): Readonly<UserGroupSettings> {
    return this.state.settings;
  }
  snapshot(): UserGroupState {
    return copyState(this.state);
  }
  pendingChanges(): Readonly<UserGroupChanges> {
    return this.changes;
  }

  /**
   * Zulip's access_user_group_for_update with can_manage_group: system groups, guests and callers
   * who hold neither the organization's can_manage_all_groups nor the group's can_manage_group
   * get `Insufficient permission`.
   */
  private assertManageableBy(by: GroupActor, allowDeactivated: boolean): void {
    if (!allowDeactivated && this.state.deactivated) throw userGroupDeactivated();
    if (this.state.isSystemGroup || isGuest(by.role) || !this.isManagedBy(by)) throw insufficientPermission();
  }

  private isManagedBy(by: GroupActor): boolean {
    return holdsGroupSetting(by.canManageAllGroups, by.userId, by.groupIds) || this.holds(by, 'can_manage_group');
  }

  private holds(by: GroupActor, setting: UserGroupSettingName): boolean {
    return holdsGroupSetting(this.state.settings[setting], by.userId, by.groupIds);
  }

  /**
   * PATCH /user_groups/{id} (Zulip's edit_user_group): name, description, reactivation
   * (`deactivated=false`), then each permission setting, in that order. Unchanged values are no change.
   * `nameTaken`: another named group of the organization has the requested name.
   */
  edit(edit: UserGroupEdit, by: GroupActor, facts: GroupSettingFacts & { nameTaken: boolean }): void {
    this.assertManageableBy(by, true);
    if (edit.name !== undefined) this.rename(edit.name, facts.nameTaken);
    if (edit.description !== undefined) this.changeDescription(edit.description);
    if (edit.deactivated === false) this.reactivate();
    for (const setting of USER_GROUP_SETTING_NAMES) {
      const update = edit.settings[setting];
      if (update !== undefined) this.changeSetting(setting, update, facts);
    }
  }

  private rename(name: string, taken: boolean): void {
    if (name === this.state.name) return;
    const checked = checkUserGroupName(name);
    if (taken) throw userGroupAlreadyExists(checked);
    this.state.name = checked;
    this.changes.row = true;
    this.record({ type: 'renamed', name: checked, whileDeactivated: this.state.deactivated });
  }

  private changeDescription(description: string): void {
    if (description === this.state.description) return;
    this.state.description = description;
    this.changes.row = true;
    this.record({ type: 'description_changed', description });
  }

  private reactivate(): void {
    if (!this.state.deactivated) return;
    this.state.deactivated = false;
    this.changes.row = true;
    this.record({ type: 'reactivated', group: this.snapshot() });
  }

  /** `old`, when given, must match the current value; the new value is normalised, then checked. */
  private changeSetting(setting: UserGroupSettingName, update: { new: GroupSettingValue; old?: GroupSettingValue }, facts: GroupSettingFacts): void {
    const current = this.state.settings[setting];
    if (update.old !== undefined && !groupSettingEquals(normaliseGroupSetting(update.old, facts.nobodyGroupId), current)) throw expectationMismatch();
    const next = normaliseGroupSetting(update.new, facts.nobodyGroupId);
    if (groupSettingEquals(next, current)) return;
    validateGroupSetting(setting, next, USER_GROUP_SETTINGS[setting].config, facts.groups, facts.activeUserIds);
    this.state.settings[setting] = next;
    if (!this.changes.settings.includes(setting)) this.changes.settings.push(setting);
    this.record({ type: 'setting_changed', setting, value: next });
  }

  /**
   * POST /user_groups/{id}/members and /subgroups (Zulip's update_user_group_backend): checked in
   * Zulip's order (permission, users, current members, subgroups, cycles); one event per kind of
   * change, in the order add, remove, add subgroups, remove subgroups.
   */
  changeMembership(change: MembershipChange, by: GroupActor, facts: MembershipFacts): void {
    if (this.state.isSystemGroup || !this.mayChangeMembership(change, by)) throw insufficientPermission();
    for (const id of [...change.add, ...change.delete]) if (!facts.activeUserIds.has(id)) throw invalidUserId(id);
    const members = new Set(this.state.members);
    assertCanAddMembers(change.add, members);
    assertCanRemoveMembers(change.delete, members);
    for (const id of [...change.addSubgroups, ...change.deleteSubgroups]) {
      const found = facts.groups.get(id);
      if (!found || found.name === '') throw invalidUserGroupId(id);
    }
    const subgroups = new Set(this.state.subgroups);
    if (change.addSubgroups.length > 0) assertCanAddSubgroups(this.state.id, change.addSubgroups, subgroups, facts.ancestorIds);
    assertCanRemoveSubgroups(change.deleteSubgroups, subgroups);
    this.applyMembership(change);
  }

  /**
   * Managers (can_manage_all_groups, or the group's can_manage_group) may change anything;
   * otherwise each kind of change needs its own setting, and only managers remove subgroups.
   */
  private mayChangeMembership(change: MembershipChange, by: GroupActor): boolean {
    if (this.isManagedBy(by)) return true;
    const onlySelf = (ids: readonly number[]) => ids.length > 0 && ids.every((id) => id === by.userId);
    const mayAdd = (onlySelf(change.add) && this.holds(by, 'can_join_group')) || this.holds(by, 'can_add_members_group');
    const mayRemove = (onlySelf(change.delete) && this.holds(by, 'can_leave_group')) || this.holds(by, 'can_remove_members_group');
    return (
      (change.add.length === 0 || mayAdd) &&
      (change.delete.length === 0 || mayRemove) &&
      (change.addSubgroups.length === 0 || this.holds(by, 'can_add_members_group')) &&
      change.deleteSubgroups.length === 0
    );
  }

  private applyMembership(change: MembershipChange): void {
    const removed = new Set(change.delete);
    const removedSubgroups = new Set(change.deleteSubgroups);
    this.state.members = uniqueSorted([...this.state.members.filter((id) => !removed.has(id)), ...change.add]);
    this.state.subgroups = uniqueSorted([...this.state.subgroups.filter((id) => !removedSubgroups.has(id)), ...change.addSubgroups]);
    this.changes.addedMembers.push(...change.add);
    this.changes.removedMembers.push(...change.delete);
    this.changes.addedSubgroups.push(...change.addSubgroups);
    this.changes.removedSubgroups.push(...change.deleteSubgroups);
    if (change.add.length > 0) this.record({ type: 'members_added', userIds: [...change.add] });
    if (change.delete.length > 0) this.record({ type: 'members_removed', userIds: [...change.delete] });
    if (change.addSubgroups.length > 0) this.record({ type: 'subgroups_added', subgroupIds: [...change.addSubgroups] });
    if (change.deleteSubgroups.length > 0) this.record({ type: 'subgroups_removed', subgroupIds: [...change.deleteSubgroups] });
  }

  /**
   * POST /user_groups/{id}/deactivate (Zulip's do_deactivate_user_group): managers only, and refused
   * while the group is a subgroup of an active group or held by a channel's, a group's or the
   * organization's setting (a realm setting holds it as its value or as a direct subgroup of one).
   */
  deactivate(by: GroupActor, usage: GroupUsageFacts): void {
    this.assertManageableBy(by, false);
    const objections: GroupObjection[] = [];
    if (usage.supergroupIds.length > 0) objections.push({ type: 'subgroup', supergroup_ids: usage.supergroupIds });
    for (const c of usage.channels) objections.push({ type: 'channel', channel_id: c.channelId, settings: c.settings });
    for (const g of usage.groups) objections.push({ type: 'user_group', group_id: g.groupId, settings: g.settings });
    const realmUses = REALM_GROUP_SETTING_NAMES.filter((s) => {
      const v = usage.realmSettings[s];
      return v === this.state.id || (typeof v === 'object' && v !== null && v.directSubgroups.includes(this.state.id));
    });
    if (realmUses.length > 0) objections.push({ type: 'realm', settings: realmUses });
    assertGroupNotInUse(objections);
    this.state.deactivated = true;
    this.changes.row = true;
    this.record({ type: 'deactivated' });
  }
}

function copyState(s: UserGroupState): UserGroupState {
  return { ...s, members: [...s.members], subgroups: [...s.subgroups], settings: { ...s.settings } };
}

/** Zulip's defaults for a new group: the creator alone, or a system group. */
function defaultSetting(setting: UserGroupSettingName, creatorId: number, systemGroups: ReadonlyMap<SystemGroupName, number>): GroupSettingValue {
  const d = USER_GROUP_SETTINGS[setting].default;
  return d === 'group_creator' ? { directMembers: [creatorId], directSubgroups: [] } : systemGroups.get(d)!;
}

function checkedSetting(setting: UserGroupSettingName, given: GroupSettingValue, facts: GroupSettingFacts): GroupSettingValue {
  const value = normaliseGroupSetting(given, facts.nobodyGroupId);
  validateGroupSetting(setting, value, USER_GROUP_SETTINGS[setting].config, facts.groups, facts.activeUserIds);
  return value;
}
