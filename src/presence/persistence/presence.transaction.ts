import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmPresenceRepository } from './typeorm-presence.repository.js';

export const presenceTransaction: TransactionContribution<'presence'> = {
  repositories: (em) => ({ presence: new TypeOrmPresenceRepository(em) }),
};
