import type { Actor } from '@app/domain/users';
import { Controller, Delete, Param } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { MessageReactionsService } from '../application/message-reactions.service.js';
import { AddReactionDto, RemoveReactionDto } from './messages.dto.js';

/** Emoji reactions: POST and DELETE /messages/{message_id}/reactions. */
@Controller('api/v1/messages/:message_id/reactions')
export class MessageReactionsController {
  constructor(private readonly reactions: MessageReactionsService) {}

  @ApiPost()
  async add(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) id: number, @ZulipParams() p: AddReactionDto) {
    await this.reactions.addReaction(actor, id, { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
    return {};
  }

  @Delete()
  async remove(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) id: number, @ZulipParams() p: RemoveReactionDto) {
    await this.reactions.removeReaction(actor, id, { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
    return {};
  }
}
