import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { MutedSenderMessages } from '../../users/index.js';
import { flagsUpdatedEvent } from './message.events.js';

/**
 * Zulip's do_mark_muted_user_messages_as_read: when a user mutes someone, the muted user's
 * unread messages to them become read, with one `update_message_flags` event (none when
 * nothing was unread).
 */
@Injectable()
export class MutedSenderMessagesRead extends MutedSenderMessages {
  async markRead(tx: Tx, realmId: number, userId: number, senderId: number): Promise<void> {
    const ids = await tx.userMessages.markReadFromSender(userId, senderId);
    if (ids.length === 0) return;
    tx.afterCommit([flagsUpdatedEvent(realmId, userId, { flag: 'read', add: true, messages: ids })]);
  }
}
