import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmArchiveImportWriter } from './typeorm-archive-import.writer.js';
import { TypeOrmImportWriter } from './typeorm-import.writer.js';

export const adminTransaction: TransactionContribution<'adminImport' | 'archiveImport'> = {
  repositories: (em) => ({ adminImport: new TypeOrmImportWriter(em), archiveImport: new TypeOrmArchiveImportWriter(em) }),
};
