import { type Channel, hasContentAccess, pairKey, type Viewer } from '@app/domain/channels';
import { assertCanPostToChannel, channelPostFacts } from '@app/domain/messages';
import {
  assertTypingUsersExist,
  channelTypingAudience,
  MAX_CHANNEL_SIZE_FOR_TYPING,
  planTyping,
  type TypingOp,
  type TypingRequest,
} from '@app/domain/presence';
import { badRequest } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { channelTypingEvent, directTypingEvent } from './presence.events.js';
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
  ) {}

  async sendTyping(actor: Actor, req: TypingRequest): Promise<void> {
    const target = planTyping(req, actor.userId, await this.settings.senderSettings(actor.realmId, actor.userId));
    await this.uow.run(async (tx) => {
      if (target.kind === 'channel') await this.toChannel(tx, actor, req.op, target.channelId, target.topic);
      else await this.toConversation(tx, actor, req.op, target.userIds);
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
