import type { GroupSettingValue } from '@app/domain/users';

/** A group-setting value as Zulip shows it: a group id, or {direct_members, direct_subgroups}. */
export type GroupSettingView = number | { direct_members: number[]; direct_subgroups: number[] };

export function presentGroupSetting(v: GroupSettingValue): GroupSettingView {
  return typeof v === 'number' ? v : { direct_members: [...v.directMembers], direct_subgroups: [...v.directSubgroups] };
}
