import type { DomainError } from '@app/domain/shared';
import type { EntityManager } from 'typeorm';
import type { TxRepositories } from '../application/unit-of-work.js';

/**
 * What one context adds to every transaction: its repositories, built on the transaction's
 * EntityManager, and the errors its unique constraints stand for when a concurrent request
 * wins the race (constraint name → the rule's own error, given the duplicated value).
 * The composition root (`src/app`) merges every context's contribution.
 */
export interface TransactionContribution<K extends keyof TxRepositories> {
  repositories(em: EntityManager): Pick<TxRepositories, K>;
  readonly uniqueViolations?: Readonly<Record<string, (duplicate: string) => DomainError>>;
}
