import { ApiPost } from '../../shared/http/routes.js';
import type { Actor } from '@app/domain/users';
import { Controller, Get, Param, Patch, UseGuards } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { UserGroupsService } from '../application/user-groups.service.js';
import { RealmSettingGuard, RequireRealmSetting } from './realm-setting.guard.js';
import { presentUserGroup } from '../application/user.views.js';
import { CreateUserGroupDto, ListUserGroupsDto, MembershipQueryDto, SubgroupsQueryDto, UpdateMembersDto, UpdateSubgroupsDto, UpdateUserGroupDto } from './user-groups.dto.js';

/** The group-setting parameters a create or update request carried (absent ones undefined). */
function groupSettingsOf<T>(p: {
  can_add_members_group?: T;
  can_join_group?: T;
  can_leave_group?: T;
  can_manage_group?: T;
  can_mention_group?: T;
  can_remove_members_group?: T;
}) {
  const { can_add_members_group, can_join_group, can_leave_group, can_manage_group, can_mention_group, can_remove_members_group } = p;
  return { can_add_members_group, can_join_group, can_leave_group, can_manage_group, can_mention_group, can_remove_members_group };
}

@Controller('api/v1/user_groups')
@Require('member')
export class UserGroupsController {
  constructor(private readonly groups: UserGroupsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor, @ZulipParams() p: ListUserGroupsDto) {
    const groups = await this.groups.listGroups(actor, p.include_deactivated_groups);
    return { user_groups: groups.map(presentUserGroup) };
  }

  @ApiPost('create')
  @RequireRealmSetting('can_create_groups')
  @UseGuards(RealmSettingGuard)
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateUserGroupDto) {
    const groupId = await this.groups.createGroup(actor, {
      name: p.name,
      description: p.description,
      members: p.members,
      subgroups: p.subgroups,
      settings: groupSettingsOf(p),
    });
    return { group_id: groupId };
  }

  @Patch(':user_group_id')
  async update(@CurrentActor() actor: Actor, @Param('user_group_id', PathIntPipe) groupId: number, @ZulipParams() p: UpdateUserGroupDto) {
    await this.groups.updateGroup(actor, groupId, {
      name: p.name,
      description: p.description,
      deactivated: p.deactivated,
      settings: groupSettingsOf(p),
    });
    return {};
  }

  /** Zulip's deactivate_user_group has no role decorator: guests and bots reach the permission check. */
  @ApiPost(':user_group_id/deactivate')
  @Require()
  async deactivate(@CurrentActor() actor: Actor, @Param('user_group_id', PathIntPipe) groupId: number) {
    await this.groups.deactivateGroup(actor, groupId);
    return {};
  }

  @ApiPost(':user_group_id/members')
  async updateMembers(
    @CurrentActor() actor: Actor,
    @Param('user_group_id', PathIntPipe) groupId: number,
    @ZulipParams() p: UpdateMembersDto,
  ) {
    await this.groups.updateMembers(actor, groupId, {
      add: p.add,
      delete: p.delete,
      addSubgroups: p.add_subgroups,
      deleteSubgroups: p.delete_subgroups,
    });
    return {};
  }

  @Get(':user_group_id/members')
  async members(@CurrentActor() actor: Actor, @Param('user_group_id', PathIntPipe) groupId: number, @ZulipParams() p: MembershipQueryDto) {
    return { members: await this.groups.members(actor, groupId, p.direct_member_only) };
  }

  @Get(':user_group_id/subgroups')
  async subgroups(@CurrentActor() actor: Actor, @Param('user_group_id', PathIntPipe) groupId: number, @ZulipParams() p: SubgroupsQueryDto) {
    return { subgroups: await this.groups.subgroups(actor, groupId, p.direct_subgroup_only) };
  }

  @ApiPost(':user_group_id/subgroups')
  async updateSubgroups(@CurrentActor() actor: Actor, @Param('user_group_id', PathIntPipe) groupId: number, @ZulipParams() p: UpdateSubgroupsDto) {
    await this.groups.updateSubgroups(actor, groupId, p.add, p.delete);
    return {};
  }

  @Get(':user_group_id/members/:user_id')
  async isMember(
    @CurrentActor() actor: Actor,
    @Param('user_group_id', PathIntPipe) groupId: number,
    @Param('user_id', PathIntPipe) userId: number,
    @ZulipParams() p: MembershipQueryDto,
  ) {
    return { is_user_group_member: await this.groups.isMember(actor, groupId, userId, p.direct_member_only) };
  }
}
