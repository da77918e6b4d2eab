import { customEmojiAlreadyExists } from '@app/domain/emoji';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmRealmEmojiRepository } from './typeorm-realm-emoji.repository.js';

export const emojiTransaction: TransactionContribution<'realmEmoji'> = {
  repositories: (em) => ({ realmEmoji: new TypeOrmRealmEmojiRepository(em) }),
  uniqueViolations: { realm_emoji_realm_active_name_key: () => customEmojiAlreadyExists() },
};
