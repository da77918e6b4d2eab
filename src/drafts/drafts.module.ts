import { Module } from '@nestjs/common';
import { DraftQueries } from './application/draft.ports.js';
import { DraftsService } from './application/drafts.service.js';
import { RemindersService } from './application/reminders.service.js';
import { ScheduledDeliveryWorker } from './application/scheduled-delivery.worker.js';
import { ScheduledMessageDelivery } from './application/scheduled-message-delivery.js';
import { ScheduledMessagesService } from './application/scheduled-messages.service.js';
import { SavedSnippetsService } from './application/saved-snippets.service.js';
import { DraftsController, SavedSnippetsController } from './http/drafts.controller.js';
import { RemindersController } from './http/reminders.controller.js';
import { ScheduledMessagesController } from './http/scheduled-messages.controller.js';
import { TypeOrmDraftQueries } from './persistence/typeorm-draft.repository.js';

/**
 * Drafts, saved snippets, message reminders and scheduled messages: a user's own texts, never
 * visible to anyone else. ScheduledDeliveryWorker delivers due reminders (Notification Bot
 * messages) and due scheduled messages (sent as their owners).
 */
@Module({
  controllers: [DraftsController, SavedSnippetsController, RemindersController, ScheduledMessagesController],
  providers: [
    DraftsService,
    SavedSnippetsService,
    RemindersService,
    ScheduledMessagesService,
    ScheduledMessageDelivery,
    ScheduledDeliveryWorker,
    { provide: DraftQueries, useClass: TypeOrmDraftQueries },
  ],
  exports: [RemindersService, DraftsService, SavedSnippetsService, ScheduledMessagesService],
})
export class DraftsModule {}
