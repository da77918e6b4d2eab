import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RemindersService } from '../application/reminders.service.js';
import { presentReminder } from '../application/draft.views.js';
import { CreateReminderDto } from './drafts.dto.js';

/** Message reminders (spec 13 §3): any account, bots and guests included, for itself only. */
@Controller('api/v1/reminders')
export class RemindersController {
  constructor(private readonly reminders: RemindersService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { reminders: (await this.reminders.listReminders(actor)).map(presentReminder) };
  }

  @ApiPost()
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateReminderDto) {
    const reminderId = await this.reminders.createReminder(actor, {
      messageId: p.message_id,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      note: p.note,
    });
    return { reminder_id: reminderId };
  }

  @Delete(':reminder_id')
  async delete(@CurrentActor() actor: Actor, @Param('reminder_id', PathIntPipe) reminderId: number) {
    await this.reminders.deleteReminder(actor, reminderId);
    return {};
  }
}
