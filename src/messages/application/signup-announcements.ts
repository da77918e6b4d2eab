import { invitationAcceptedNotice, SIGNUPS_TOPIC, signupAnnouncement } from '@app/domain/channels';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { NewUserAnnouncements } from '../../users/index.js';
import { NotificationBot } from './notification-bot.js';

/** Zulip's notify_new_user: the sign-up announcement, when the organization has an active sign-up channel; the referrer's notice. */
@Injectable()
export class SignupAnnouncements extends NewUserAnnouncements {
  constructor(private readonly bot: NotificationBot) {
    super();
  }

  async userJoined(tx: Tx, realmId: number, user: { id: number; fullName: string }, now: Date): Promise<void> {
    const channelId = (await tx.realms.get(realmId)).signupAnnouncementsStreamId;
    if (channelId === null || !(await tx.channels.activeChannelIds(realmId, [channelId])).has(channelId)) return;
    await this.bot.postChannelNotice(tx, realmId, { channelId, topic: SIGNUPS_TOPIC, content: signupAnnouncement(user) }, null, [user], now);
  }

  async invitationAccepted(tx: Tx, realmId: number, referrerId: number, user: { id: number; fullName: string }, now: Date): Promise<void> {
    const referrer = await tx.users.findById(realmId, referrerId);
    if (referrer === null || !referrer.isActive || referrer.isBot) return;
    const realm = await tx.realms.get(realmId);
    await this.bot.postDirectNotices(tx, realmId, [{ userId: referrerId, content: invitationAcceptedNotice(user, realm.name) }], [user], now);
  }
}
