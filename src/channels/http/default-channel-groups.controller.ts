import { MAX_DEFAULT_CHANNEL_GROUP_DESCRIPTION_LENGTH } from '@app/domain/channels';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { JsonParam, list, PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { DefaultChannelGroupsService } from '../application/default-channel-groups.service.js';

/**
 * The description's column length in Zulip (a longer one fails there); names are checked by
 * the domain, which answers a NUL with Zulip's own words.
 */
const description = str({ maxLength: MAX_DEFAULT_CHANNEL_GROUP_DESCRIPTION_LENGTH });

/** POST /default_stream_groups/create, parameters in Zulip's declaration order. */
export class CreateDefaultChannelGroupDto {
  @PlainParam(str(), { domainNul: true }) group_name: string;
  @PlainParam(description) description: string;
  @JsonParam(list(str())) stream_names: string[];
}

/** PATCH /default_stream_groups/{group_id}. */
export class UpdateDefaultChannelGroupDto {
  @PlainParam(str(), { default: null, domainNul: true }) new_group_name: string | null;
  @PlainParam(description, { default: null }) new_description: string | null;
}

/** PATCH /default_stream_groups/{group_id}/streams: `op` is checked after the group and the channels, as Zulip does. */
export class UpdateDefaultChannelGroupChannelsDto {
  @PlainParam(str()) op: string;
  @JsonParam(list(str())) stream_names: string[];
}

/**
 * Default channel groups (Zulip's /default_stream_groups routes; there is no GET: clients read
 * them from POST /register's realm_default_stream_groups). Organization administrators only.
 */
@Controller('api/v1/default_stream_groups')
@Require('admin')
export class DefaultChannelGroupsController {
  constructor(private readonly groups: DefaultChannelGroupsService) {}

  @ApiPost('create')
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateDefaultChannelGroupDto) {
    await this.groups.createGroup(actor, p.group_name, p.description, p.stream_names);
    return {};
  }

  @Patch(':group_id')
  async updateInfo(@CurrentActor() actor: Actor, @Param('group_id', PathIntPipe) groupId: number, @ZulipParams() p: UpdateDefaultChannelGroupDto) {
    await this.groups.updateGroupInfo(actor, groupId, p.new_group_name, p.new_description);
    return {};
  }

  @Patch(':group_id/streams')
  async updateChannels(
    @CurrentActor() actor: Actor,
    @Param('group_id', PathIntPipe) groupId: number,
    @ZulipParams() p: UpdateDefaultChannelGroupChannelsDto,
  ) {
    await this.groups.updateGroupChannels(actor, groupId, p.op, p.stream_names);
    return {};
  }

  @Delete(':group_id')
  async remove(@CurrentActor() actor: Actor, @Param('group_id', PathIntPipe) groupId: number) {
    await this.groups.removeGroup(actor, groupId);
    return {};
  }
}
