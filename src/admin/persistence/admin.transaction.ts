import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmImportWriter } from './typeorm-import.writer.js';

export const adminTransaction: TransactionContribution<'adminImport'> = {
  repositories: (em) => ({ adminImport: new TypeOrmImportWriter(em) }),
};
