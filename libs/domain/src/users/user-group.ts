import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';

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
