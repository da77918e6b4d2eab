import { Module } from '@nestjs/common';
import { DraftQueries } from './application/draft.ports.js';
import { DraftsService } from './application/drafts.service.js';
import { ReminderDeliveryWorker } from './application/reminder-delivery.worker.js';
import { RemindersService } from './application/reminders.service.js';
import { SavedSnippetsService } from './application/saved-snippets.service.js';
import { DraftsController, SavedSnippetsController } from './http/drafts.controller.js';
import { RemindersController } from './http/reminders.controller.js';
import { TypeOrmDraftQueries } from './persistence/typeorm-draft.repository.js';

/**
 * Drafts, saved snippets and message reminders: a user's own texts, never visible to anyone
 * else. Reminders are delivered by the Notification Bot (ReminderDeliveryWorker).
 */
@Module({
  controllers: [DraftsController, SavedSnippetsController, RemindersController],
  providers: [
    DraftsService,
    SavedSnippetsService,
    RemindersService,
    ReminderDeliveryWorker,
    { provide: DraftQueries, useClass: TypeOrmDraftQueries },
  ],
  exports: [RemindersService, DraftsService, SavedSnippetsService],
})
export class DraftsModule {}
