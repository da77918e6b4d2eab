import type { Actor } from '@app/domain/users';
import { Controller, Delete, Param } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { MutedUsersService } from '../application/muted-users.service.js';

/** The caller's muted users (Zulip's /users/me/muted_users/{muted_user_id}); bots may mute too, as in Zulip. */
@Controller('api/v1/users/me/muted_users')
export class MutedUsersController {
  constructor(private readonly mutedUsers: MutedUsersService) {}

  @ApiPost(':muted_user_id')
  async mute(@CurrentActor() actor: Actor, @Param('muted_user_id', PathIntPipe) mutedUserId: number) {
    await this.mutedUsers.muteUser(actor, mutedUserId);
    return {};
  }

  @Delete(':muted_user_id')
  async unmute(@CurrentActor() actor: Actor, @Param('muted_user_id', PathIntPipe) mutedUserId: number) {
    await this.mutedUsers.unmuteUser(actor, mutedUserId);
    return {};
  }
}
