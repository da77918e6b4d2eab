import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmPushDeviceRepository } from './typeorm-push.repository.js';

export const pushTransaction: TransactionContribution<'pushDevices'> = {
  repositories: (em) => ({ pushDevices: new TypeOrmPushDeviceRepository(em) }),
};
