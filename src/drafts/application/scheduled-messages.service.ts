import {
  checkScheduledMessageEdit,
  deliveryTime,
  legacyScheduledType,
  ScheduledMessage,
  scheduledMessageDoesNotExist,
  type ScheduledMessageEdit,
  type ScheduledMessageType,
  type ScheduledMessageTypeParam,
  type ScheduledMessageView,
  scheduledReadBySender,
  scheduledRecipients,
  type ScheduledRecipients,
  type ScheduledTarget,
} from '@app/domain/drafts';
import { parseTopicForSend, readBySenderDefault } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { MessageSender, type SendRequest } from '../../messages/index.js';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { DraftQueries } from './draft.ports.js';
import { presentScheduledMessage } from './draft.views.js';
import { scheduledMessagesEvent, scheduledMessageUpdated } from './scheduled-message.events.js';

export interface ScheduleMessageRequest {
  type: ScheduledMessageTypeParam;
  to: ScheduledRecipients;
  content: string;
  topic: string | undefined;
  /** UNIX seconds. */
  scheduledDeliveryTimestamp: number;
  readBySender: boolean | undefined;
  /** The requesting client's name (the sent message's client). */
  client: string;
}

export interface EditScheduledMessageRequest extends ScheduledMessageEdit {
  client: string;
}

/** The request a scheduled message is checked (and later sent) with, as POST /messages would take it. */
export function scheduledSendRequest(
  type: ScheduledMessageType,
  recipients: readonly number[],
  m: { topic: string | undefined; content: string; client: string; readBySender?: boolean },
): SendRequest {
  const common = { content: m.content, readBySender: m.readBySender, client: m.client };
  return type === 'stream'
    ? { ...common, type: 'channel', to: recipients[0], topic: m.topic }
    : { ...common, type: 'direct', to: [...recipients], topic: undefined };
}

/** The recipients a target is sent to: its channel, or every participant of the conversation. */
export const targetRecipients = (t: ScheduledTarget): number[] => (t.kind === 'channel' ? [t.channelId] : [...t.participantIds]);

/**
 * Scheduled messages (Zulip's views/scheduled_messages.py and actions/scheduled_messages.py):
 * listing, scheduling, editing and cancelling one's own; every change is checked by the
 * sending rules of POST /messages (MessageSender.check) without sending anything. Delivery is
 * ScheduledMessageDelivery's.
 */
@Injectable()
export class ScheduledMessagesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: DraftQueries,
    private readonly clock: Clock,
    private readonly sender: MessageSender,
  ) {}

  async listScheduledMessages(actor: Actor): Promise<ScheduledMessageView[]> {
    return (await this.queries.scheduledMessages(actor.realmId, actor.userId)).map((s) => ScheduledMessage.restore(s).view());
  }

  /** POST /scheduled_messages: the time, then the shape of `to`, then every sending rule (Zulip's order). */
  async scheduleMessage(actor: Actor, req: ScheduleMessageRequest): Promise<number> {
    const scheduledAt = deliveryTime(req.scheduledDeliveryTimestamp, this.clock.now());
    const type = legacyScheduledType(req.type);
    const recipients = scheduledRecipients(type, req.to);
    return this.uow.run(async (tx) => {
      const checked = await this.sender.check(tx, actor, scheduledSendRequest(type, recipients, req));
      const t = checked.target;
      const toSelfOnly = t.kind === 'direct' && t.participantIds.every((id) => id === actor.userId);
      const readBySender = scheduledReadBySender(req.readBySender, readBySenderDefault(req.client), toSelfOnly);
      const created = ScheduledMessage.create(actor.userId, checked, { sendingClient: req.client, readBySender, scheduledAt });
      const id = await tx.scheduledMessages.insert(actor.realmId, created);
      const view = presentScheduledMessage(created.withId(id).view());
      tx.afterCommit([scheduledMessagesEvent(actor.realmId, actor.userId, { op: 'add', scheduled_messages: [view] })]);
      return id;
    });
  }

  /**
   * PATCH /scheduled_messages/{id} (Zulip's edit_scheduled_message): a new type, recipients or
   * content is checked again with everything else as it was; a topic alone only needs to be a
   * valid topic (and is ignored for a direct message).
   */
  async editScheduledMessage(actor: Actor, id: number, req: EditScheduledMessageRequest): Promise<void> {
    const newType = checkScheduledMessageEdit(req);
    const scheduledAt = req.scheduledDeliveryTimestamp === undefined ? undefined : deliveryTime(req.scheduledDeliveryTimestamp, this.clock.now());
    await this.uow.run(async (tx) => {
      const m = await tx.scheduledMessages.findOwned(actor.realmId, actor.userId, id);
      if (m === null) throw scheduledMessageDoesNotExist();
      m.assertEditable(scheduledAt ?? null);
      const retarget = newType !== null || req.to !== undefined;
      let target: ScheduledTarget | undefined;
      let content: { content: string; renderedContent: string } | undefined;
      if (retarget || req.content !== undefined) {
        const type = newType ?? m.type;
        const view = m.view();
        const recipients = req.to !== undefined ? scheduledRecipients(type, req.to) : typeof view.to === 'number' ? [view.to] : [...view.to];
        const topic = req.topic ?? (m.target.kind === 'channel' ? m.target.topic : undefined);
        const checked = await this.sender.check(tx, actor, scheduledSendRequest(type, recipients, { topic, content: req.content ?? m.content, client: req.client }));
        if (retarget) target = checked.target;
        if (req.content !== undefined) content = { content: checked.content, renderedContent: checked.renderedContent };
      }
      const topic = !retarget && req.topic !== undefined && m.target.kind === 'channel' ? parseTopicForSend(req.topic) : undefined;
      m.edit({ target, topic, content, scheduledAt, sendingClient: req.client });
      await tx.scheduledMessages.save(actor.realmId, m);
      tx.afterCommit([scheduledMessageUpdated(actor.realmId, m)]);
    });
  }

  /** DELETE /scheduled_messages/{id}: one of the caller's own (Zulip's access_scheduled_message). */
  async deleteScheduledMessage(actor: Actor, id: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const m = await tx.scheduledMessages.findOwned(actor.realmId, actor.userId, id);
      if (m === null) throw scheduledMessageDoesNotExist();
      await tx.scheduledMessages.delete(actor.realmId, id);
      tx.afterCommit([scheduledMessagesEvent(actor.realmId, actor.userId, { op: 'remove', scheduled_message_id: id })]);
    });
  }
}
