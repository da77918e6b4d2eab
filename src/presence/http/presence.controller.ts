import type { Actor } from '@app/domain/users';
import { Controller, Get, Param } from '@nestjs/common';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { PresenceService } from '../application/presence.service.js';
import { TypingService } from '../application/typing.service.js';
import { EditTypingDto, TypingDto, UpdatePresenceDto } from './presence.dto.js';

@Controller('api/v1')
export class PresenceController {
  constructor(private readonly presence: PresenceService) {}

  // Declared before users/:user_id_or_email/presence (another method, but the same shape).
  @ApiPost('users/me/presence')
  @Require('human')
  async update(@CurrentActor() actor: Actor, @ZulipParams() p: UpdatePresenceDto) {
    return this.presence.reportPresence(actor, {
      status: p.status,
      pingOnly: p.ping_only,
      slimPresence: p.slim_presence,
      lastUpdateId: p.last_update_id,
      historyLimitDays: p.history_limit_days,
    });
  }

  @Get('users/:user_id_or_email/presence')
  async user(@CurrentActor() actor: Actor, @Param('user_id_or_email') userIdOrEmail: string) {
    return this.presence.userPresence(actor, userIdOrEmail);
  }

  /** The legacy format, without `presence_last_update_id` (Zulip's get_statuses_for_realm). */
  @Get('realm/presence')
  async realm(@CurrentActor() actor: Actor) {
    const { presence_last_update_id: _, ...rest } = await this.presence.realmPresences(actor, { slim: false, lastUpdateId: null, historyLimitDays: null });
    return rest;
  }
}

@Controller('api/v1')
export class TypingController {
  constructor(private readonly typing: TypingService) {}

  @ApiPost('typing')
  async send(@CurrentActor() actor: Actor, @ZulipParams() p: TypingDto) {
    await this.typing.sendTyping(actor, { op: p.op, type: p.type, to: p.to, channelId: p.stream_id, topic: p.topic });
    return {};
  }

  /** Typing while editing a message (Zulip's send_message_edit_notification_backend). */
  @ApiPost('messages/:message_id/typing')
  async editing(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) messageId: number, @ZulipParams() p: EditTypingDto) {
    await this.typing.sendEditTyping(actor, messageId, p.op);
    return {};
  }
}
