import type { ClientEvent } from './client-event.js';

/**
 * The repositories of one transaction, plus the events to publish once it commits.
 *
 * The kernel declares only `afterCommit` (and the email outbox, in email-sender.ts); every
 * context adds its own repositories by declaration merging in its ports file:
 *
 *     declare module '../../shared/application/unit-of-work.js' {
 *       interface Tx { readonly messages: MessageRepository }
 *     }
 *
 * and registers their factories with the composition root (`src/app/transaction-repositories.ts`),
 * so adding a context edits no file of the kernel.
 */
export interface Tx {
  /** Hands events to the journal of this transaction: clients see them exactly when it commits. */
  afterCommit(events: readonly ClientEvent[]): void;
}

/** The repositories of a transaction, without its event hook. */
export type TxRepositories = Omit<Tx, 'afterCommit'>;

/** One transaction per use case; events reach clients only after COMMIT. */
export abstract class UnitOfWork {
  abstract run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Reads outside a transaction: each statement on a pooled connection of its own, without the
   * BEGIN and COMMIT round trips, and without one snapshot for all (for reads whose statements do
   * not need to agree with each other, such as a narrow's lookups). Writes nothing.
   */
  abstract read<T>(work: (repositories: TxRepositories) => Promise<T>): Promise<T>;
}
