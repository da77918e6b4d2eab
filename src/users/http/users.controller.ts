import { ApiPost } from '../../shared/http/routes.js';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { PathIntPipe, UserRefPipe } from '../../shared/http/path-params.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { UsersService } from '../application/users.service.js';
import { gravatarUrl, presentUser } from '../application/user.views.js';
import { CreateBotDto, CreateUserDto, GetUsersDto, UpdateUserDto } from './users.dto.js';

@Controller('api/v1')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('users')
  async list(@CurrentActor() actor: Actor, @ZulipParams() p: GetUsersDto) {
    const users = await this.users.listUsers(actor);
    const profiles = p.include_custom_profile_fields ? await this.users.profileDataOfRealm(actor) : null;
    const viewer = { id: actor.userId, role: actor.role };
    return {
      members: users.map((u) =>
        presentUser(u, { clientGravatar: p.client_gravatar, viewer, profileData: profiles === null ? undefined : (profiles.get(u.id) ?? {}) }),
      ),
    };
  }

  @ApiPost('users')
  @Require('admin')
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateUserDto) {
    return { user_id: await this.users.createUser(actor, p.email, p.password, p.full_name) };
  }

  @Get('users/me')
  async me(@CurrentActor() actor: Actor) {
    const { user, profileData, maxMessageId } = await this.users.getOwnProfile(actor);
    return { ...presentUser(user, { clientGravatar: false, profileData }), max_message_id: maxMessageId };
  }

  @Delete('users/me')
  async deactivateSelf(@CurrentActor() actor: Actor) {
    await this.users.deactivateSelf(actor);
    return {};
  }

  /** GET /users/{user_id} and GET /users/{email} (Zulip's get_user_by_email). */
  @Get('users/:user_id')
  async get(
    @CurrentActor() actor: Actor,
    @Param('user_id', UserRefPipe) ref: number | string,
    @ZulipParams() p: GetUsersDto,
  ) {
    const userId = await this.users.resolveUserRef(actor, ref);
    const user = await this.users.getUser(actor, userId);
    const profileData = p.include_custom_profile_fields ? await this.users.profileDataOf(actor, userId) : undefined;
    return { user: presentUser(user, { clientGravatar: p.client_gravatar, viewer: { id: actor.userId, role: actor.role }, profileData }) };
  }

  /** PATCH /users/{user_id} and PATCH /users/{email} (Zulip's update_user_by_email). */
  @Patch('users/:user_id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('user_id', UserRefPipe) ref: number | string,
    @ZulipParams() p: UpdateUserDto,
  ) {
    const userId = await this.users.resolveUserRef(actor, ref);
    await this.users.updateUser(actor, userId, { role: p.role, fullName: p.full_name, profileData: p.profile_data });
    return {};
  }

  @Delete('users/:user_id')
  async deactivate(@CurrentActor() actor: Actor, @Param('user_id', PathIntPipe) userId: number) {
    await this.users.deactivateUser(actor, userId);
    return {};
  }

  @ApiPost('users/:user_id/reactivate')
  async reactivate(@CurrentActor() actor: Actor, @Param('user_id', PathIntPipe) userId: number) {
    await this.users.reactivateUser(actor, userId);
    return {};
  }

  @ApiPost('bots')
  @Require('member')
  async createBot(@CurrentActor() actor: Actor, @ZulipParams() p: CreateBotDto) {
    const bot = await this.users.createBot(actor, {
      fullName: p.full_name,
      shortName: p.short_name,
      botType: p.bot_type,
      defaultSendingStream: p.default_sending_stream,
      defaultEventsRegisterStream: p.default_events_register_stream,
      defaultAllPublicStreams: p.default_all_public_streams,
    });
    return {
      user_id: bot.userId,
      api_key: bot.apiKey,
      avatar_url: gravatarUrl(bot.email, 1),
      default_sending_stream: bot.defaultSendingStream,
      default_events_register_stream: bot.defaultEventsRegisterStream,
      default_all_public_streams: bot.defaultAllPublicStreams,
    };
  }
}
