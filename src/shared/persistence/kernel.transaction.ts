import type { TransactionContribution } from './transaction-contribution.js';
import { OutboxEmailSender } from './outbox-email-sender.js';

/** The kernel's part of every transaction: the email outbox. */
export const kernelTransaction: TransactionContribution<'emails'> = {
  repositories: (em) => ({ emails: new OutboxEmailSender(em) }),
};
