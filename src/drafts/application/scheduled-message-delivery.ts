import {
  failedScheduledMessageNotice,
  lateDeliveryError,
  OWNER_DEACTIVATED_FAILURE,
  REALM_DEACTIVATED_FAILURE,
  type ScheduledMessage,
} from '@app/domain/drafts';
import { DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { MessageRenderer, MessageSender, NotificationBot } from '../../messages/index.js';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { AppLogger } from '../../shared/logging/logger.js';
import type { UserRecord } from '../../users/index.js';
import type { DueScheduledMessage } from './draft.ports.js';
import { scheduledMessagesEvent, scheduledMessageUpdated } from './scheduled-message.events.js';
import { scheduledSendRequest, targetRecipients } from './scheduled-messages.service.js';

/** How many scheduled messages one delivery pass handles at most (the next pass takes the rest). */
const DELIVERIES_PER_PASS = 100;

const actorOf = (u: UserRecord): Actor => ({
  userId: u.id,
  realmId: u.realmId,
  email: u.email,
  role: u.role,
  isBot: u.isBot,
  botType: u.botType,
});

/**
 * Sends due scheduled messages as their owners (Zulip's try_deliver_one_scheduled_message), each
 * in one transaction that locks the row (FOR UPDATE SKIP LOCKED), sends the message through the
 * code path of POST /messages and marks the row delivered: concurrent passes, in this or other
 * server processes, never send one twice, and a crash before COMMIT leaves it pending. A send
 * that the rules refuse (or that fails) is undone to a savepoint and the row marked failed in the
 * same transaction, with an `update` event and a Notification Bot message to the owner.
 */
@Injectable()
export class ScheduledMessageDelivery {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly sender: MessageSender,
    private readonly bot: NotificationBot,
    private readonly renderer: MessageRenderer,
    private readonly logger: AppLogger,
  ) {}

  /**
   * One pass: the messages due at `now`, oldest first. Returns how many it handled (sent or
   * failed). A delivery whose transaction itself fails (the database) leaves its message
   * pending for the next pass, and this pass goes on with the others.
   */
  async deliverDue(now: Date = this.clock.now(), limit = DELIVERIES_PER_PASS): Promise<number> {
    let handled = 0;
    const skipped: number[] = [];
    for (let attempts = 0; attempts < limit; attempts += 1) {
      let claimed: number | null = null;
      try {
        const found = await this.uow.run(async (tx) => {
          const due = await tx.scheduledMessages.claimDue(now, skipped);
          if (due === null) return false;
          claimed = due.message.id;
          await this.deliver(tx, due, now);
          return true;
        });
        if (!found) break;
        handled += 1;
      } catch (err) {
        const id = claimed as number | null;
        if (id === null) throw err; // nothing could be claimed: the next pass tries again
        this.logger.error({ err, scheduledMessageId: id }, 'scheduled message delivery failed; it stays pending');
        skipped.push(id);
      }
    }
    return handled;
  }

  /**
   * Zulip's send_scheduled_message: nothing is sent for a deactivated organization or owner
   * (failed, no notice), nor too long after its time; else the message is sent as its owner,
   * dated `now`, checked and rendered again.
   */
  private async deliver(tx: Tx, { realmId, message: m }: DueScheduledMessage, now: Date): Promise<void> {
    const realm = await tx.realms.get(realmId);
    const owner = await tx.users.findById(realmId, m.ownerId);
    if (realm.deactivated || owner === null || !owner.isActive) {
      m.markFailed(realm.deactivated ? REALM_DEACTIVATED_FAILURE : OWNER_DEACTIVATED_FAILURE);
      await tx.scheduledMessages.save(realmId, m);
      return;
    }
    const tooLate = lateDeliveryError(m.scheduledAt, now);
    if (tooLate !== null) return this.fail(tx, realmId, m, tooLate.msg, now);
    const sent = await this.attemptSend(tx, owner, m, now);
    if (typeof sent === 'string') return this.fail(tx, realmId, m, sent, now);
    m.markDelivered(sent);
    await tx.scheduledMessages.save(realmId, m);
    tx.afterCommit([scheduledMessagesEvent(realmId, m.ownerId, { op: 'remove', scheduled_message_id: m.id })]);
  }

  /**
   * Sends the message after a savepoint; its events reach the transaction only when it was
   * sent. Returns the new message's id, or the failure text once everything it wrote is undone.
   */
  private async attemptSend(tx: Tx, owner: UserRecord, m: ScheduledMessage, now: Date): Promise<number | string> {
    const s = m.snapshot();
    const events: ClientEvent[] = [];
    const attempt: Tx = { ...tx, afterCommit: (e) => events.push(...e) };
    const req = scheduledSendRequest(m.type, targetRecipients(s.target), {
      topic: s.target.kind === 'channel' ? s.target.topic : undefined,
      content: s.content,
      client: s.sendingClient,
      readBySender: s.readBySender,
    });
    await tx.scheduledMessages.beginAttempt();
    try {
      const { id } = await this.sender.send(attempt, actorOf(owner), req, now);
      tx.afterCommit(events);
      return id;
    } catch (err) {
      await tx.scheduledMessages.undoAttempt();
      this.logger.warn({ err, scheduledMessageId: m.id }, 'scheduled message not sent');
      // As Zulip: the rules' own text, or a generic one for an unexpected failure.
      return err instanceof DomainError ? err.msg : 'Internal server error';
    }
  }

  /** Marks the message failed (still listed, not retried) and tells its owner. */
  private async fail(tx: Tx, realmId: number, m: ScheduledMessage, failure: string, now: Date): Promise<void> {
    m.markFailed(failure);
    await tx.scheduledMessages.save(realmId, m);
    tx.afterCommit([scheduledMessageUpdated(realmId, m)]);
    const content = failedScheduledMessageNotice(m.scheduledAt, failure);
    const rendered = await this.bot.render(tx, realmId, content);
    await this.bot.postDirectNotice(tx, realmId, m.ownerId, content, rendered, now);
  }
}
