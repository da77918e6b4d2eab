import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { type InvitationOptions, InvitationsService } from '../application/invitations.service.js';
import { presentInvitation, presentMultiuseInvite } from './invitation.presenter.js';
import { InviteUsersDto, MultiuseInviteDto } from './invitations.dto.js';

function options(p: InviteUsersDto | MultiuseInviteDto): InvitationOptions {
  return {
    streamIds: p.stream_ids,
    groupIds: p.group_ids ?? [],
    inviteAs: p.invite_as,
    expiresInMinutes: p.invite_expires_in_minutes,
    includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
    welcomeMessageCustomText: p.welcome_message_custom_text,
  };
}

/** Every invitation endpoint is for human non-guest users (Zulip's require_member_or_admin). */
@Controller('api/v1/invites')
@Require('member')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @ApiPost()
  async invite(@CurrentActor() actor: Actor, @ZulipParams() p: InviteUsersDto) {
    await this.invitations.inviteUsers(actor, {
      ...options(p),
      inviteeEmails: p.invitee_emails,
      notifyReferrerOnJoin: p.notify_referrer_on_join,
    });
    return {};
  }

  @Get()
  async list(@CurrentActor() actor: Actor) {
    const { invitations, multiuse } = await this.invitations.listInvites(actor);
    return { invites: [...invitations.map(presentInvitation), ...multiuse.map(presentMultiuseInvite)] };
  }

  @ApiPost('multiuse')
  async createMultiuse(@CurrentActor() actor: Actor, @ZulipParams() p: MultiuseInviteDto) {
    return { invite_link: await this.invitations.createMultiuseInvite(actor, options(p)) };
  }

  @Delete('multiuse/:invite_id')
  async revokeMultiuse(@CurrentActor() actor: Actor, @Param('invite_id', PathIntPipe) inviteId: number) {
    await this.invitations.revokeMultiuseInvite(actor, inviteId);
    return {};
  }

  @Delete(':invite_id')
  async revoke(@CurrentActor() actor: Actor, @Param('invite_id', PathIntPipe) inviteId: number) {
    await this.invitations.revokeInvite(actor, inviteId);
    return {};
  }

  @ApiPost(':invite_id/resend')
  async resend(@CurrentActor() actor: Actor, @Param('invite_id', PathIntPipe) inviteId: number) {
    await this.invitations.resendInvite(actor, inviteId);
    return {};
  }
}
