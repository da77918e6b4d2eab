import { reactionAlreadyExists } from '@app/domain/messages';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmAttachmentRepository } from './typeorm-attachment.repository.js';
import { TypeOrmConversationRepository } from './typeorm-conversation.repository.js';
import { TypeOrmImageAttachmentRepository } from './typeorm-image-attachment.repository.js';
import { TypeOrmMessageRepository } from './typeorm-message.repository.js';
import { TypeOrmReactionRepository } from './typeorm-reaction.repository.js';
import { TypeOrmSubmessageRepository } from './typeorm-submessage.repository.js';
import { TypeOrmTopicVisibilityRepository } from './typeorm-topic-visibility.repository.js';
import { TypeOrmUserMessageRepository } from './typeorm-user-message.repository.js';

export const messagesTransaction: TransactionContribution<'messages' | 'userMessages' | 'attachments' | 'conversations' | 'topicVisibility' | 'reactions' | 'imageAttachments' | 'submessages'> = {
  repositories: (em) => ({
    messages: new TypeOrmMessageRepository(em),
    userMessages: new TypeOrmUserMessageRepository(em),
    attachments: new TypeOrmAttachmentRepository(em),
    conversations: new TypeOrmConversationRepository(em),
    topicVisibility: new TypeOrmTopicVisibilityRepository(em),
    reactions: new TypeOrmReactionRepository(em),
    imageAttachments: new TypeOrmImageAttachmentRepository(em),
    submessages: new TypeOrmSubmessageRepository(em),
  }),
  uniqueViolations: { reactions_user_message_emoji_key: () => reactionAlreadyExists() },
};
