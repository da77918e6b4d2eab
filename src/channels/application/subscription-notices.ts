import {
  type Channel,
  channelCreatedNotice,
  channelEventsTopic,
  type ChannelNoticeText,
  newChannelsAnnouncement,
  subscriptionMessagePlan,
  youWereSubscribedMessage,
} from '@app/domain/channels';
import { LIMITS } from '@app/domain/realm';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { ChannelNotifications, type NoticePerson } from './channel.ports.js';

/** What a subscription request did, for its Notification Bot messages. */
export interface SubscriptionOutcome {
  callerId: number;
  /** Channels the request created (the caller is their creator). */
  created: readonly Channel[];
  /** Newly subscribed (user, channel) pairs. */
  joined: readonly { userId: number; channelId: number }[];
  channelNames: ReadonlyMap<number, string>;
  announce: boolean;
  sendSubscriptionMessages: boolean;
}

/**
 * Zulip's send_messages_for_new_subscribers: "you were subscribed" direct messages to the other
 * users a request added to existing channels, the new-channel announcement when asked, and the
 * notice that opens each new channel. Returns whether the direct messages were sent (within
 * max_bulk_new_subscription_messages).
 */
@Injectable()
export class SubscriptionNotices {
  constructor(private readonly bot: ChannelNotifications) {}

  /**
   * The notices of a PATCH /streams/{id} or an archiving, into the channel's own topic, when the
   * organization sends channel events messages. `readBy`: users for whom they arrive read.
   */
  async channelChanged(tx: Tx, realmId: number, channel: Channel, actorId: number, contents: (actor: NoticePerson, realmRetentionDays: number) => string[], readBy: readonly number[], now: Date): Promise<void> {
    const realm = await tx.realms.get(realmId);
    if (!realm.sendChannelEventsMessages) return;
    const user = (await tx.users.findById(realmId, actorId))!;
    const actor: NoticePerson = { id: user.id, fullName: user.fullName };
    const topic = channelEventsTopic(channel.snapshot().topicsPolicy);
    const notices = contents(actor, realm.messageRetentionDays).map((content) => ({ channelId: channel.id, topic, content }));
    if (notices.length > 0) await this.bot.postInChannels(tx, realmId, notices, readBy, [actor], now);
  }

  async post(tx: Tx, realmId: number, o: SubscriptionOutcome, now: Date): Promise<boolean> {
    const byUser = new Map<number, { id: number; name: string }[]>();
    for (const p of o.joined) (byUser.get(p.userId) ?? byUser.set(p.userId, []).get(p.userId)!).push({ id: p.channelId, name: o.channelNames.get(p.channelId)! });
    const others = [...byUser.keys()].filter((id) => id !== o.callerId);
    const bots = others.length > 0 ? [...(await tx.users.findManyByIds(realmId, others)).values()].filter((u) => u.isBot).map((u) => u.id) : [];
    const plan = subscriptionMessagePlan(byUser, {
      callerId: o.callerId,
      botIds: new Set(bots),
      createdChannelIds: new Set(o.created.map((c) => c.id)),
      requested: o.sendSubscriptionMessages,
      maxBulk: LIMITS.maxBulkNewSubscriptionMessages,
    });
    if (plan.messages.size === 0 && o.created.length === 0) return plan.sent;
    const user = (await tx.users.findById(realmId, o.callerId))!;
    const caller: NoticePerson = { id: user.id, fullName: user.fullName };
    const direct = [...plan.messages].map(([userId, names]) => ({ userId, content: youWereSubscribedMessage(caller, names) }));
    if (direct.length > 0) await this.bot.sendDirect(tx, realmId, direct, [caller], now);

    const notices: ChannelNoticeText[] = [];
    if (o.created.length > 0) {
      const realm = await tx.realms.get(realmId);
      const target = realm.newStreamAnnouncementsStreamId;
      if (o.announce && target !== null && (await tx.channels.activeChannelIds(realmId, [target])).has(target)) {
        notices.push(newChannelsAnnouncement(target, o.created.map((c) => ({ id: c.id, name: c.name })), caller));
      }
      if (realm.sendChannelEventsMessages) {
        for (const c of o.created) {
          const notice = channelCreatedNotice(c.snapshot(), caller);
          if (notice !== null) notices.push(notice);
        }
      }
    }
    if (notices.length > 0) await this.bot.postInChannels(tx, realmId, notices, [caller.id], [caller], now);
    return plan.sent;
  }
}
