import {
  actionAudience,
  checkSubmessage,
  DEFAULT_AUTOMATIC_VISIBILITY,
  type JsonInput,
  participationVisibility,
  reactionMayChangeVisibility,
  shouldChangeVisibility,
  type Submessage,
  type SubmessageFacts,
} from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { userTopicEvent } from '../../channels/index.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { loadForModification, type MessageForModification } from './message-access.js';
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
      await this.followAfterSubmessage(tx, actor, target);
      const channel = target.channel;
      const audience = actionAudience(
        channel === null ? null : { inviteOnly: channel.inviteOnly, historyPublicToSubscribers: channel.snapshot().historyPublicToSubscribers },
        await tx.userMessages.audienceCandidates(m.id, m.channelId),
      );
      tx.afterCommit([submessageEvent(actor.realmId, submessage, audience)]);
    });
  }

  /**
   * Attaching a submessage is participating (Zulip's do_add_submessage, as reacting): a
   * subscriber's automatic follow / unmute policies "on participation" apply to the topic.
   */
  private async followAfterSubmessage(tx: Tx, actor: Actor, target: MessageForModification): Promise<void> {
    const m = target.message;
    if (!reactionMayChangeVisibility(m, actor) || target.subscription?.active !== true) return;
    const next = participationVisibility(DEFAULT_AUTOMATIC_VISIBILITY, target.subscription.isMuted);
    if (next === null) return;
    const current = await tx.topicVisibility.policy(actor.userId, m.channelId!, m.topic);
    if (!shouldChangeVisibility(next, current)) return;
    const now = this.clock.now();
    await tx.topicVisibility.set(actor.realmId, [actor.userId], m.channelId!, m.topic, next, now, false);
    tx.afterCommit([userTopicEvent(actor.realmId, actor.userId, m.channelId!, m.topic, next, now)]);
  }
}
