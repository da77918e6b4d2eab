import type { GroupSettingValue } from '@app/domain/users';
import { bool, int, JsonParam, list, PlainParam, str } from '../../shared/http/params/index.js';
import { groupSettingUpdate, groupSettingValue } from '../../shared/http/group-setting.decoders.js';

export class ListUserGroupsDto {
  @JsonParam(bool(), { default: false }) include_deactivated_groups: boolean;
}

export class CreateUserGroupDto {
  @PlainParam(str()) name: string;
  @PlainParam(str()) description: string;
  @JsonParam(list(int())) members: number[];
  @JsonParam(list(int()), { default: [] }) subgroups: number[];
  @JsonParam(groupSettingValue(), { optional: true }) can_add_members_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_join_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_leave_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_manage_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_mention_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_remove_members_group?: GroupSettingValue;
}

export class UpdateMembersDto {
  @JsonParam(list(int()), { default: [] }) add: number[];
  @JsonParam(list(int()), { default: [] }) delete: number[];
  @JsonParam(list(int()), { default: [] }) add_subgroups: number[];
  @JsonParam(list(int()), { default: [] }) delete_subgroups: number[];
}

/** POST /user_groups/{user_group_id}/subgroups. */
export class UpdateSubgroupsDto {
  @JsonParam(list(int()), { default: [] }) add: number[];
  @JsonParam(list(int()), { default: [] }) delete: number[];
}

export class SubgroupsQueryDto {
  @JsonParam(bool(), { default: false }) direct_subgroup_only: boolean;
}

export class MembershipQueryDto {
  @JsonParam(bool(), { default: false }) direct_member_only: boolean;
}

type SettingUpdate = { new: GroupSettingValue; old?: GroupSettingValue };

/** PATCH /user_groups/{user_group_id} (Zulip's edit_user_group). */
export class UpdateUserGroupDto {
  @JsonParam(groupSettingUpdate(), { optional: true }) can_add_members_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_join_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_leave_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_manage_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_mention_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_remove_members_group?: SettingUpdate;
  @JsonParam(bool(), { optional: true }) deactivated?: boolean;
  @PlainParam(str(), { optional: true }) description?: string;
  @PlainParam(str(), { optional: true }) name?: string;
}
