import { badRequest, DomainError } from '../shared/domain-error.js';
import { SystemGroup, type SystemGroupName } from './system-groups.js';

/** A permission setting's value: a named group's id, or an anonymous group. */
export type GroupSettingValue = number | AnonymousGroup;
export interface AnonymousGroup {
  readonly directMembers: readonly number[];
  readonly directSubgroups: readonly number[];
}

/** What a setting accepts (Zulip's GroupPermissionSetting). */
export interface GroupSettingConfig {
  readonly requireSystemGroup: boolean;
  readonly allowInternetGroup: boolean;
  readonly allowNobodyGroup: boolean;
  readonly allowEveryoneGroup: boolean;
  /** When set, only these system groups (and, unless requireSystemGroup, other groups) are accepted. */
  readonly allowedSystemGroups?: readonly SystemGroupName[];
}

/** Facts about the named groups a value refers to, resolved by the application. */
export interface GroupFacts {
  readonly id: number;
  readonly name: string;
  readonly isSystemGroup: boolean;
  readonly deactivated: boolean;
}

/** Normalises: {[], [G]} → G; {[], []} → role:nobody's id; sorted, de-duplicated lists. */
export function normaliseGroupSetting(value: GroupSettingValue, nobodyGroupId: number): GroupSettingValue {
  if (typeof value === 'number') return value;
  const members = [...new Set(value.directMembers)].sort((a, b) => a - b);
  const subgroups = [...new Set(value.directSubgroups)].sort((a, b) => a - b);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0];
  if (members.length === 0 && subgroups.length === 0) return nobodyGroupId;
  return { directMembers: members, directSubgroups: subgroups };
}

/** Equality with member and subgroup lists compared as sets (values must be normalised). */
export function groupSettingEquals(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: readonly number[], y: readonly number[]) =>
    x.length === y.length && x.every((v) => y.includes(v));
  return same(a.directMembers, b.directMembers) && same(a.directSubgroups, b.directSubgroups);
}

/**
 * Validates a normalised value for the named setting. `groups` maps every referenced group id
 * that exists in the organization to its facts; `activeUserIds` holds the referenced user ids
 * that exist and are active.
 */
export function validateGroupSetting(
  setting: string,
  value: GroupSettingValue,
  config: GroupSettingConfig,
  groups: ReadonlyMap<number, GroupFacts>,
  activeUserIds: ReadonlySet<number>,
): void {
  if (typeof value !== 'number') {
    if (config.requireSystemGroup) throw badRequest(`'${setting}' must be a system user group.`);
    for (const id of value.directMembers) {
      if (!activeUserIds.has(id)) throw badRequest(`Invalid user ID: ${id}`);
    }
    for (const id of value.directSubgroups) {
      const g = groups.get(id);
      if (!g || g.name === '') throw badRequest(`Invalid user group ID: ${id}`);
      if (g.isSystemGroup) checkSystemGroupAllowed(setting, g.name, config);
    }
    return;
  }
  const group = groups.get(value);
  if (!group || group.name === '') throw badRequest('Invalid user group');
  if (group.deactivated) throw badRequest('User group is deactivated.');
  if (config.requireSystemGroup && !group.isSystemGroup) {
    throw badRequest(`'${setting}' must be a system user group.`);
  }
  if (group.isSystemGroup) checkSystemGroupAllowed(setting, group.name, config);
}

function checkSystemGroupAllowed(setting: string, name: string, config: GroupSettingConfig): void {
  const refuse = (): DomainError => badRequest(`'${setting}' setting cannot be set to '${name}' group.`);
  if (name === SystemGroup.INTERNET && !config.allowInternetGroup) throw refuse();
  if (name === SystemGroup.NOBODY && !config.allowNobodyGroup) throw refuse();
  if (name === SystemGroup.EVERYONE && !config.allowEveryoneGroup) throw refuse();
  if (config.allowedSystemGroups && !config.allowedSystemGroups.includes(name as SystemGroupName)) throw refuse();
}

/**
 * Does a user hold the setting? `userGroupIds` is every group the user belongs to, through
 * subgroups (the application computes it; deactivated users belong to none).
 */
export function holdsGroupSetting(
  value: GroupSettingValue,
  userId: number,
  userGroupIds: ReadonlySet<number>,
): boolean {
  if (typeof value === 'number') return userGroupIds.has(value);
  return value.directMembers.includes(userId) || value.directSubgroups.some((g) => userGroupIds.has(g));
}

/** 'old' given with a group-setting update did not match: nothing changes. */
export const expectationMismatch = (fieldName = 'old'): DomainError =>
  new DomainError(`'${fieldName}' value does not match the expected value.`, 'EXPECTATION_MISMATCH', 'invalid', {
    field_name: fieldName,
  });
