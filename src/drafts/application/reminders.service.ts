import {
  deliveryTime,
  reminderContent,
  reminderDoesNotExist,
  type ReminderTarget,
  type ReminderView,
} from '@app/domain/drafts';
import { invalidMessage } from '@app/domain/messages';
import { DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { MessageReadsService, MessageRenderer, NotificationBot } from '../../messages/index.js';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { presentReminder } from './draft.views.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { DraftQueries, type DueReminder } from './draft.ports.js';

export interface CreateReminderRequest {
  messageId: number;
  /** UNIX seconds. */
  scheduledDeliveryTimestamp: number;
  note: string | undefined;
}

/** How many reminders one delivery pass handles at most (the next pass takes the rest). */
const DELIVERIES_PER_PASS = 100;

/**
 * Message reminders (spec 13 §3): scheduling, listing, cancelling, and their delivery as
 * Notification Bot direct messages (one transaction per reminder; see deliverDue).
 */
@Injectable()
export class RemindersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: DraftQueries,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly reads: MessageReadsService,
    private readonly bot: NotificationBot,
    private readonly renderer: MessageRenderer,
    private readonly logger: AppLogger,
  ) {}

  listReminders(actor: Actor): Promise<ReminderView[]> {
    return this.queries.reminders(actor.realmId, actor.userId);
  }

  /** POST /reminders: the time first, then access to the message, then the note (Zulip's order). */
  async createReminder(actor: Actor, req: CreateReminderRequest): Promise<number> {
    const now = this.clock.now();
    const scheduledAt = deliveryTime(req.scheduledDeliveryTimestamp, now);
    const note = req.note ?? '';
    return this.uow.run(async (tx) => {
      const target = await this.accessibleTarget(tx, actor, req.messageId);
      if (target === null) throw invalidMessage();
      const content = reminderContent(target, await this.realmUrl(tx, actor.realmId), note);
      const renderedContent = await this.render(tx, actor.realmId, content, target);
      const id = await tx.reminders.insert({
        realmId: actor.realmId,
        userId: actor.userId,
        targetMessageId: target.id,
        note,
        content,
        renderedContent,
        scheduledAt,
        now,
      });
      const view = { id, ownerId: actor.userId, targetMessageId: target.id, content, renderedContent, scheduledAt, failed: false };
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'reminders', op: 'add', reminders: [presentReminder(view)] }, userIds: [actor.userId] }]);
      return id;
    });
  }

  /** DELETE /reminders/{id}: one of the caller's own reminders (Zulip's access_reminder). */
  async deleteReminder(actor: Actor, reminderId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      if (!(await tx.reminders.lockOwned(actor.realmId, actor.userId, reminderId))) throw reminderDoesNotExist();
      await tx.reminders.delete(actor.realmId, reminderId);
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'reminders', op: 'remove', reminder_id: reminderId }, userIds: [actor.userId] }]);
    });
  }

  /**
   * One delivery pass: delivers the reminders due at `now`, oldest first, each in its own
   * transaction that locks the reminder (skipping those another pass holds), sends the direct
   * message and marks it delivered, so concurrent passes (in this or other server processes)
   * never deliver one twice. Returns how many reminders it handled (delivered or failed).
   */
  async deliverDue(now: Date = this.clock.now(), limit = DELIVERIES_PER_PASS): Promise<number> {
    let handled = 0;
    for (let attempts = 0; attempts < limit; attempts += 1) {
      const outcome = await this.deliverOne(now);
      if (outcome === 'none') break;
      if (outcome === 'handled') handled += 1;
    }
    return handled;
  }

  /**
   * Delivers the oldest due reminder: 'handled' when it was delivered or marked failed,
   * 'none' when no reminder is due, 'lost' when another pass delivered the one that failed here.
   */
  private async deliverOne(now: Date): Promise<'handled' | 'none' | 'lost'> {
    let claimed: DueReminder | null = null;
    try {
      return await this.uow.run(async (tx) => {
        claimed = await tx.reminders.claimDue(now);
        if (claimed === null) return 'none';
        await this.deliver(tx, claimed, now);
        return 'handled';
      });
    } catch (err) {
      const reminder = claimed as DueReminder | null;
      if (reminder === null) throw err; // the database itself failed: the next pass tries again
      // As Zulip: a reminder that could not be delivered is marked failed (and stays listed).
      // (Another pass may have taken it between the rollback and this; then it stays delivered.)
      const failure = err instanceof DomainError ? err.msg : 'Internal server error';
      this.logger.error({ err, reminderId: reminder.id }, 'reminder delivery failed');
      return (await this.uow.run((tx) => tx.reminders.markFailed(reminder.id, failure))) ? 'handled' : 'lost';
    }
  }

  /**
   * Zulip's send_reminder: the text is formatted again when the owner can still read the
   * message (edits and moves show), else the stored text is sent. Nothing is sent to a
   * deactivated owner or organization, but the reminder still counts as delivered.
   */
  private async deliver(tx: Tx, r: DueReminder, now: Date): Promise<void> {
    const owner = await tx.users.findById(r.realmId, r.userId);
    const realm = await tx.realms.get(r.realmId);
    let messageId: number | null = null;
    if (owner !== null && owner.isActive && !realm.deactivated) {
      const actor: Actor = {
        userId: owner.id,
        realmId: owner.realmId,
        email: owner.email,
        role: owner.role,
        isBot: owner.isBot,
        botType: owner.botType,
      };
      let content = r.content;
      let rendered = r.renderedContent;
      const target = await this.accessibleTarget(tx, actor, r.targetMessageId);
      if (target !== null) {
        try {
          content = reminderContent(target, this.config.realmUrl(realm.stringId), r.note);
          rendered = await this.render(tx, r.realmId, content, target);
        } catch (e) {
          if (!(e instanceof DomainError)) throw e;
        }
      }
      messageId = await this.bot.postDirectNotice(tx, r.realmId, owner.id, content, rendered, now);
    }
    await tx.reminders.markDelivered(r.id, messageId);
    tx.afterCommit([{ realmId: r.realmId, event: { type: 'reminders', op: 'remove', reminder_id: r.id }, userIds: [r.userId] }]);
  }

  /** The message as the reminder shows it, or null when it is gone or the user cannot read it. */
  private async accessibleTarget(tx: Tx, actor: Actor, messageId: number): Promise<ReminderTarget | null> {
    const m = isStorableId(messageId) ? await tx.messages.find(actor.realmId, messageId) : null;
    if (m === null) return null;
    const hasRow = (await tx.userMessages.flags(actor.userId, m.id)) !== null;
    if (!(await this.reads.canRead(tx, actor, m, hasRow))) return null;
    const sender = (await tx.users.findById(actor.realmId, m.senderId))!;
    const channel = m.channelId === null ? null : await tx.channels.findById(actor.realmId, m.channelId);
    return {
      id: m.id,
      content: m.content,
      sender: { id: sender.id, fullName: sender.fullName },
      channel: channel === null ? null : { id: channel.id, name: channel.name, topic: m.topic },
      participantIds: m.channelId === null ? ((await tx.conversations.directParticipantsOf([m.recipientId])).get(m.recipientId) ?? []) : [],
    };
  }

  private async realmUrl(tx: Tx, realmId: number): Promise<string> {
    return this.config.realmUrl((await tx.realms.get(realmId)).stringId);
  }

  /** The silent mention of the quoted message's sender is the only mention in a reminder. */
  private render(tx: Tx, realmId: number, content: string, target: ReminderTarget): Promise<string> {
    return this.bot.render(tx, realmId, content, [target.sender]);
  }

}
