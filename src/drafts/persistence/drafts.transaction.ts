import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmDraftRepository, TypeOrmSavedSnippetRepository } from './typeorm-draft.repository.js';
import { TypeOrmReminderRepository } from './typeorm-reminder.repository.js';
import { TypeOrmScheduledMessageRepository } from './typeorm-scheduled-message.repository.js';

export const draftsTransaction: TransactionContribution<'drafts' | 'savedSnippets' | 'reminders' | 'scheduledMessages'> = {
  repositories: (em) => ({
    drafts: new TypeOrmDraftRepository(em),
    savedSnippets: new TypeOrmSavedSnippetRepository(em),
    reminders: new TypeOrmReminderRepository(em),
    scheduledMessages: new TypeOrmScheduledMessageRepository(em),
  }),
};
