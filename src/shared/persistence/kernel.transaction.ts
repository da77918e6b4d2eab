import { OutboxEmailSender } from './outbox-email-sender.js';
import type { TransactionContribution } from './transaction-contribution.js';
import { TypeOrmGroupSettingStore } from './typeorm-group-setting-store.js';

/** The kernel's part of every transaction: the email outbox and group-setting storage. */
export const kernelTransaction: TransactionContribution<'emails' | 'groupSettings'> = {
  repositories: (em) => ({ emails: new OutboxEmailSender(em), groupSettings: new TypeOrmGroupSettingStore(em) }),
};
