import type { Actor } from '@app/domain/users';
import { Controller, Get, Param } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { bool, decodeJsonParam, ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { UserStatusService } from '../application/user-status.service.js';
import { presentUserStatus } from '../application/user-status.views.js';
import { UpdateOwnStatusDto, UpdateUserStatusDto } from './user-status.dto.js';

@Controller('api/v1')
export class UserStatusController {
  constructor(private readonly status: UserStatusService) {}

  // Declared before users/:user_id/status so that `me` never reaches the integer path pipe.
  @ApiPost('users/me/status')
  @Require('human')
  async updateOwn(@CurrentActor() actor: Actor, @ZulipParams() p: UpdateOwnStatusDto) {
    await this.status.updateOwnStatus(actor, {
      away: p.away,
      statusText: p.status_text,
      emojiName: p.emoji_name,
      emojiCode: p.emoji_code,
      reactionType: p.reaction_type,
    });
    return {};
  }

  /**
   * Administrators only; others get Zulip's `Insufficient permission` once the target is
   * found (not the role decorator's text: Zulip checks with access_user_by_id, for_admin).
   */
  @ApiPost('users/:user_id/status')
  @Require('human')
  async updateOther(
    @CurrentActor() actor: Actor,
    @Param('user_id', PathIntPipe) userId: number,
    @ZulipParams() p: UpdateUserStatusDto,
  ) {
    await this.status.updateUserStatus(
      actor,
      userId,
      { statusText: p.status_text, emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type },
      () => decodeJsonParam('away', p.away, bool()),
    );
    return {};
  }

  @Get('users/:user_id/status')
  async get(@CurrentActor() actor: Actor, @Param('user_id', PathIntPipe) userId: number) {
    return { status: presentUserStatus(await this.status.getUserStatus(actor, userId)) };
  }
}
