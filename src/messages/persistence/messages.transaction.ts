import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmMessageRepository } from './typeorm-message.repository.js';

export const messagesTransaction: TransactionContribution<'messages'> = {
  repositories: (em) => ({ messages: new TypeOrmMessageRepository(em) }),
};
