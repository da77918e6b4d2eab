import {
  actionAudience,
  checkSubmessage,
  type JsonInput,
  type Submessage,
  type SubmessageFacts,
} from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { loadForModification } from './message-access.js';
import { followTopicOnParticipation } from './participation.js';
import { submessageEvent } from './message.events.js';

export interface SubmessageRequest {
  messageId: number;
  msgType: string;
  /** The content as sent (what is stored). */
  content: string;
  /** The content as JSON, judged after the access checks. */
  data: JsonInput;
}

const NO_SUBMESSAGES: SubmessageFacts = { firstWidgetContent: null, senderHasSubmessage: false };

/** POST /submessage (Zulip's process_submessage and do_add_submessage), one transaction. */
@Injectable()
export class SubmessagesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * The message must be accessible for a change (locked, as Zulip's access_message with
   * lock_message), then the domain's checks (first submessage by the sender, JSON, the widget's
   * shape); the submessage is stored as sent, the sender may follow the topic, and the message's
   * audience gets a `submessage` event.
   */
  async addSubmessage(actor: Actor, req: SubmessageRequest): Promise<void> {
    await this.uow.run(async (tx) => {
      const target = await loadForModification(tx, actor, req.messageId, async () => ({
        userId: actor.userId,
        role: actor.role,
        groupIds: await tx.groups.groupIdsOfUser(actor.userId),
      }));
      const m = target.message.snapshot();
      // Only a message with submessages has facts to read.
      const facts = m.hasSubmessages ? await tx.submessages.facts(m.id, m.senderId) : NO_SUBMESSAGES;
      checkSubmessage({ actorId: actor.userId, messageSenderId: m.senderId, data: req.data }, facts);
      const stored = { messageId: m.id, senderId: actor.userId, msgType: req.msgType, content: req.content };
      const submessage: Submessage = { id: await tx.submessages.add(stored), ...stored };
      await followTopicOnParticipation(tx, actor, target, this.clock.now());
      const channel = target.channel;
      const audience = actionAudience(
        channel === null ? null : { inviteOnly: channel.inviteOnly, historyPublicToSubscribers: channel.snapshot().historyPublicToSubscribers },
        await tx.userMessages.audienceCandidates(m.id, m.channelId),
      );
      tx.afterCommit([submessageEvent(actor.realmId, submessage, audience)]);
    });
  }
}
