import type { SettingsReader } from './settings-cache.js';
import { type GroupFacts, type GroupSettingConfig, type GroupSettingValue, type SystemGroupName, validateGroupSetting } from '@app/domain/users';

/**
 * Permission settings of the organization, its channels and its user groups are all stored as
 * a user group (a named one, or an anonymous one with direct members and subgroups): the
 * kernel's part of user groups, which every context with such settings uses.
 */
export abstract class GroupSettingStore {
  /** `reader`: see RealmRepository.get (from the settings cache at the reader's version; shared, read-only). */
  abstract systemGroupIds(realmId: number, reader?: SettingsReader): Promise<Map<SystemGroupName, number>>;
  /** What the setting rules need to know about the groups a value names. */
  abstract groupFacts(realmId: number, groupIds: readonly number[]): Promise<Map<number, GroupFacts>>;
  /** Which of these users are active users of the organization. */
  abstract activeUserIds(realmId: number, userIds: readonly number[], allowBots?: boolean): Promise<Set<number>>;
  /** Stores a value: a named group's id as is, an anonymous group as a new nameless group. */
  abstract store(realmId: number, value: GroupSettingValue): Promise<number>;
}

/**
 * Checks a value against a setting's rules (spec 01 §8.1) with the facts it needs: the groups it
 * names and which of its members are active users of the organization.
 */
export async function assertValidGroupSetting(
  store: GroupSettingStore,
  realmId: number,
  setting: string,
  value: GroupSettingValue,
  config: GroupSettingConfig,
): Promise<void> {
  const groupIds = typeof value === 'number' ? [value] : [...value.directSubgroups];
  const userIds = typeof value === 'number' ? [] : [...value.directMembers];
  validateGroupSetting(setting, value, config, await store.groupFacts(realmId, groupIds), await store.activeUserIds(realmId, userIds));
}

declare module './unit-of-work.js' {
  interface Tx {
    readonly groupSettings: GroupSettingStore;
  }
}
