import type { ChannelNoticeText } from '@app/domain/channels';
import { Injectable } from '@nestjs/common';
import { ChannelNotifications, type NoticePerson } from '../../channels/index.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { NotificationBot } from './notification-bot.js';

/** The channels context's Notification Bot messages, posted by the messages context. */
@Injectable()
export class NotificationBotChannelNotifications extends ChannelNotifications {
  constructor(private readonly bot: NotificationBot) {
    super();
  }

  async postInChannels(
    tx: Tx,
    realmId: number,
    notices: readonly ChannelNoticeText[],
    readBy: readonly number[],
    mentioned: readonly NoticePerson[],
    now: Date,
  ): Promise<void> {
    for (const notice of notices) await this.bot.postChannelNotice(tx, realmId, notice, readBy, mentioned, now);
  }

  async sendDirect(tx: Tx, realmId: number, messages: readonly { userId: number; content: string }[], mentioned: readonly NoticePerson[], now: Date): Promise<void> {
    await this.bot.postDirectNotices(tx, realmId, messages, mentioned, now);
  }
}
