import { type Channel, hasContentAccess, pairKey, type Viewer } from '@app/domain/channels';
import { assertCanEditContent, assertCanPostToChannel, channelPostFacts, invalidMessage } from '@app/domain/messages';
import {
  assertCanSendEditTyping,
  assertTypingUsersExist,
  channelTypingAudience,
  editTypingConversation,
  MAX_CHANNEL_SIZE_FOR_TYPING,
  planTyping,
  type TypingOp,
  type TypingRequest,
} from '@app/domain/presence';
import { badRequest } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { MessageReadsService } from '../../messages/index.js';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { channelTypingEvent, directTypingEvent, editTypingEvent } from './presence.events.js';
import { TypingSettings } from './presence.ports.js';

const invalidChannelId = () => badRequest('Invalid channel ID');

/**
 * POST /typing (Zulip's send_notification_backend): nothing is stored, the notification is
 * one event sent after the (read-only) transaction commits.
 */
@Injectable()
export class TypingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: TypingSettings,
    private readonly reads: MessageReadsService,
    private readonly clock: Clock,
  ) {}

  async sendTyping(actor: Actor, req: TypingRequest): Promise<void> {
    const target = planTyping(req, actor.userId, await this.settings.senderSettings(actor.realmId, actor.userId));
    await this.uow.run(async (tx) => {
      if (target.kind === 'channel') await this.toChannel(tx, actor, req.op, target.channelId, target.topic);
      else await this.toConversation(tx, actor, req.op, target.userIds);
    });
  }

  /**
   * POST /messages/{id}/typing (Zulip's send_message_edit_notification_backend): the message as
   * for a change (missing, unreadable and archived-channel messages look the same), the content
   * edit rules without the grace period of edits, then the sender's setting for its kind. Told:
   * those who would see the edit and receive typing notifications, the sender included.
   */
  async sendEditTyping(actor: Actor, messageId: number, op: TypingOp): Promise<void> {
    const settings = await this.settings.senderSettings(actor.realmId, actor.userId);
    await this.uow.run(async (tx) => {
      const m = isStorableId(messageId) ? await tx.messages.find(actor.realmId, messageId) : null;
      const hasRow = m !== null && (await tx.userMessages.flags(actor.userId, m.id)) !== null;
      if (m === null || !(await this.reads.canRead(tx, actor, m, hasRow, true))) throw invalidMessage();
      const realm = await tx.realms.get(actor.realmId);
      assertCanEditContent(
        {
          allowMessageEditing: realm.allowMessageEditing,
          isSender: m.senderId === actor.userId,
          limitSeconds: realm.messageContentEditLimitSeconds,
          dateSent: m.dateSent,
          graceSeconds: 0,
        },
        this.clock.now(),
      );
      assertCanSendEditTyping(m.channelId !== null, settings);
      if (m.channelId !== null) {
        const audience = channelTypingAudience(await tx.presence.activeSubscriberIds(m.channelId, MAX_CHANNEL_SIZE_FOR_TYPING + 1));
        if (audience.length === 0) return;
        const receivers = await tx.presence.typingReceivers(actor.realmId, audience);
        const recipient = { type: 'channel' as const, channel_id: m.channelId, topic: m.topic };
        tx.afterCommit([editTypingEvent(actor.realmId, op, actor.userId, m.id, recipient, audience.filter((id) => receivers.has(id)))]);
        return;
      }
      const participants = (await tx.conversations.directParticipantsOf([m.recipientId])).get(m.recipientId) ?? [];
      const users = editTypingConversation(actor.userId, participants);
      const found = await tx.users.findManyByIds(actor.realmId, users);
      const receivers = await tx.presence.typingReceivers(actor.realmId, [...found.values()].filter((u) => u.isActive).map((u) => u.id));
      const notify = users.filter((id) => receivers.has(id));
      tx.afterCommit([editTypingEvent(actor.realmId, op, actor.userId, m.id, { type: 'direct', user_ids: notify }, notify)]);
    });
  }

  /**
   * Direct messages: every user named must exist in the organization (deactivated users and
   * bots too); the active ones who receive typing notifications are told, the sender included.
   */
  private async toConversation(tx: Tx, actor: Actor, op: TypingOp, userIds: number[]): Promise<void> {
    const found = await tx.users.findManyByIds(actor.realmId, userIds);
    assertTypingUsersExist(userIds, new Set(found.keys()));
    const participants = userIds.map((id) => found.get(id)!);
    const active = [...new Set(participants.filter((u) => u.isActive).map((u) => u.id))];
    const receivers = await tx.presence.typingReceivers(actor.realmId, active);
    const sender = found.get(actor.userId)!;
    tx.afterCommit([directTypingEvent(actor.realmId, op, sender, participants, active.filter((id) => receivers.has(id)))]);
  }

  /**
   * Channels: the sender must be able to read the (active) channel and post in it, as for
   * sending a message; its active subscribers are told, unless there are more than 100.
   */
  private async toChannel(tx: Tx, actor: Actor, op: TypingOp, channelId: number, topic: string): Promise<void> {
    const channel = await tx.channels.findById(actor.realmId, channelId);
    if (channel === null || channel.isArchived) throw invalidChannelId();
    await this.assertCanType(tx, actor, channel);
    const audience = channelTypingAudience(await tx.presence.activeSubscriberIds(channel.id, MAX_CHANNEL_SIZE_FOR_TYPING + 1));
    if (audience.length === 0) return;
    const receivers = await tx.presence.typingReceivers(actor.realmId, audience);
    const sender = { id: actor.userId, email: actor.email };
    tx.afterCommit([channelTypingEvent(actor.realmId, op, sender, channel.id, topic, audience.filter((id) => receivers.has(id)))]);
  }

  /** Zulip's access_stream_by_id_for_message, then access_stream_for_send_message. */
  private async assertCanType(tx: Tx, actor: Actor, channel: Channel): Promise<void> {
    const sender = (await tx.users.findById(actor.realmId, actor.userId))!;
    const ownerId = sender.isBot ? sender.botOwnerId : null;
    const rows = await tx.subscriptions.records(ownerId !== null ? [actor.userId, ownerId] : [actor.userId], [channel.id]);
    const subscribed = rows.get(pairKey(actor.userId, channel.id))?.active === true;
    const viewer: Viewer = { userId: actor.userId, role: actor.role, groupIds: await tx.groups.groupIdsOfUser(actor.userId) };
    if (!hasContentAccess(channel, viewer, subscribed)) throw invalidChannelId();
    const owner = ownerId !== null ? await this.activeViewer(tx, actor.realmId, ownerId) : null;
    const botOwnerSubscribed = ownerId !== null && rows.get(pairKey(ownerId, channel.id))?.active === true;
    assertCanPostToChannel(channelPostFacts(channel, viewer, owner, { subscribed, botOwnerSubscribed }));
  }

  private async activeViewer(tx: Tx, realmId: number, userId: number): Promise<Viewer | null> {
    const user = await tx.users.findById(realmId, userId);
    if (!user || !user.isActive) return null;
    return { userId: user.id, role: user.role, groupIds: await tx.groups.groupIdsOfUser(user.id) };
  }
}
