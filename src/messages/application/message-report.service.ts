import { assertCanReport, invalidMessage, messageReportContent, messageReportTopic, type ReportedMessage } from '@app/domain/messages';
import { badRequest } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { MessageReadsService } from './message-reads.service.js';
import { NotificationBot } from './notification-bot.js';

const notEnabled = () => badRequest('Message reporting is not enabled in this organization.');

/**
 * POST /messages/{id}/report (Zulip's report_message_backend and send_message_report): any user
 * who can read a message may report it; the Notification Bot posts the report to the
 * organization's moderation request channel, in one topic per reported user.
 */
@Injectable()
export class MessageReportService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly reads: MessageReadsService,
    private readonly bot: NotificationBot,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
  ) {}

  async reportMessage(actor: Actor, messageId: number, reportType: string, description: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const realm = await tx.realms.get(actor.realmId);
      assertCanReport(reportType, description, realm.moderationRequestChannelId);
      const reported = await this.reportedMessage(tx, actor, messageId);
      // A moderation channel archived since it was chosen can take no report.
      const channel = await tx.channels.findById(actor.realmId, realm.moderationRequestChannelId!);
      if (channel === null || channel.isArchived) throw notEnabled();
      const reporter = (await tx.users.findById(actor.realmId, actor.userId))!;
      const people = [{ id: reporter.id, fullName: reporter.fullName }, reported.sender, ...reported.participants];
      const content = messageReportContent(reporter, reported, reportType, description, this.config.realmUrl(realm.stringId));
      const topic = messageReportTopic(reported.sender, channel.snapshot().topicsPolicy === 'empty_topic_only');
      await this.bot.postChannelNotice(tx, actor.realmId, { channelId: channel.id, topic, content }, null, people, this.clock.now());
    });
  }

  /** Zulip's access_message (reading, not changing it): missing and unreadable look the same. */
  private async reportedMessage(tx: Tx, actor: Actor, messageId: number): Promise<ReportedMessage> {
    const m = isStorableId(messageId) ? await tx.messages.find(actor.realmId, messageId) : null;
    const hasRow = m !== null && (await tx.userMessages.flags(actor.userId, m.id)) !== null;
    if (m === null || !(await this.reads.canRead(tx, actor, m, hasRow))) throw invalidMessage();
    const participantIds = m.channelId === null ? ((await tx.conversations.directParticipantsOf([m.recipientId])).get(m.recipientId) ?? []) : [];
    const users = await tx.users.findManyByIds(actor.realmId, [m.senderId, ...participantIds]);
    const person = (id: number) => ({ id, fullName: users.get(id)!.fullName });
    const channel = m.channelId === null ? null : (await tx.channels.findById(actor.realmId, m.channelId))!;
    return {
      id: m.id,
      content: m.content,
      dateSent: m.dateSent,
      sender: person(m.senderId),
      channel: channel === null ? null : { id: channel.id, name: channel.name, topic: m.topic },
      participants: participantIds.map(person),
    };
  }
}
