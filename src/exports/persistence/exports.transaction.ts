import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmRealmExportRepository } from './typeorm-realm-export.repository.js';

export const exportsTransaction: TransactionContribution<'realmExports'> = {
  repositories: (em) => ({ realmExports: new TypeOrmRealmExportRepository(em) }),
};
