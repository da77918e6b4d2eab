import { clientName } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Headers, Param, Patch } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { presentScheduledMessage } from '../application/draft.views.js';
import { ScheduledMessagesService } from '../application/scheduled-messages.service.js';
import { CreateScheduledMessageDto, EditScheduledMessageDto } from './drafts.dto.js';

/** Scheduled messages (Zulip's "send later"): any account, for itself only. */
@Controller('api/v1/scheduled_messages')
export class ScheduledMessagesController {
  constructor(private readonly scheduled: ScheduledMessagesService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { scheduled_messages: (await this.scheduled.listScheduledMessages(actor)).map(presentScheduledMessage) };
  }

  @ApiPost()
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateScheduledMessageDto, @Headers('user-agent') userAgent?: string) {
    const id = await this.scheduled.scheduleMessage(actor, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      readBySender: p.read_by_sender,
      client: clientName(p.client, userAgent),
    });
    return { scheduled_message_id: id };
  }

  @Patch(':scheduled_message_id')
  async edit(
    @CurrentActor() actor: Actor,
    @ZulipParams() p: EditScheduledMessageDto,
    @Param('scheduled_message_id', PathIntPipe) id: number,
    @Headers('user-agent') userAgent?: string,
  ) {
    await this.scheduled.editScheduledMessage(actor, id, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      client: clientName(p.client, userAgent),
    });
    return {};
  }

  @Delete(':scheduled_message_id')
  async delete(@CurrentActor() actor: Actor, @Param('scheduled_message_id', PathIntPipe) id: number) {
    await this.scheduled.deleteScheduledMessage(actor, id);
    return {};
  }
}
