import { messageLinkSyntax, messageUrl, unusedFence } from '../drafts/reminder.js';
import { truncateText } from '../drafts/draft.js';
import { globalTime } from '../drafts/scheduled-message.js';
import { badRequest } from '../shared/domain-error.js';
import { silentMention } from '../shared/text.js';
import { MAX_MESSAGE_LENGTH, normaliseContent } from './content.js';
import { truncateTopic } from './topic.js';

/**
 * Reporting a message to the organization's moderators (Zulip's zerver/views/message_report.py
 * and zerver/lib/message_report.py): the Notification Bot posts the report in the moderation
 * request channel, one topic per reported user.
 */

/** Zulip's Realm.REPORT_MESSAGE_REASONS, in its order (also register's server_report_message_types). */
export const REPORT_MESSAGE_TYPES: Readonly<Record<string, string>> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};
export const REPORT_TYPE_KEYS = Object.keys(REPORT_MESSAGE_TYPES);

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Room left for the quoted message: the notes and 500 characters of template must fit too. */
export const MAX_REPORT_MESSAGE_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

/** Checks of report_message_backend before the message is read, in its order. */
export function assertCanReport(reportType: string, description: string, moderationChannelId: number | null): void {
  if (reportType === 'other' && description === '') throw badRequest('An explanation is required.');
  if (moderationChannelId === null) throw badRequest('Message reporting is not enabled in this organization.');
}

interface Person {
  readonly id: number;
  readonly fullName: string;
}

/** The reported message, as far as the report shows it. */
export interface ReportedMessage {
  readonly id: number;
  readonly content: string;
  readonly dateSent: Date;
  readonly sender: Person;
  /** Channel messages: their channel and topic; null for direct messages. */
  readonly channel: { readonly id: number; readonly name: string; readonly topic: string } | null;
  /** Direct messages: every participant of the conversation (the sender included), by id. */
  readonly participants: readonly Person[];
}

/** The report's first line: who reported what, sent by whom, when. */
function reportHeader(reporter: Person, m: ReportedMessage): string {
  const reported = silentMention(m.sender);
  const at = globalTime(m.dateSent);
  if (m.channel !== null) return `${silentMention(reporter)} reported a message sent by ${reported} at ${at}.`;
  if (m.participants.length <= 2) {
    if (m.sender.id !== reporter.id) return `${silentMention(reporter)} reported a direct message sent by ${reported} at ${at}.`;
    // Someone reporting their own one-on-one message: the other participant (or themselves).
    const other = m.participants.find((p) => p.id !== reporter.id) ?? reporter;
    return `${silentMention(reporter)} reported a direct message sent by ${reported} to ${silentMention(other)} at ${at}.`;
  }
  const recipients = m.participants.filter((p) => p.id !== m.sender.id).map(silentMention).sort();
  const last = recipients.pop()!;
  const list = recipients.join(', ') + (recipients.length > 1 ? ',' : '');
  return `${silentMention(reporter)} reported a direct message sent by ${reported} to ${list} and ${last} at ${at}.`;
}

/** Zulip's send_message_report content, normalised as a new message's content. */
export function messageReportContent(reporter: Person, m: ReportedMessage, reportType: string, description: string, realmUrl: string): string {
  const original =
    m.channel !== null
      ? `Original message at ${messageLinkSyntax(m.channel.id, m.channel.name, m.channel.topic, m.id)}`
      : `[Original message](${messageUrl(realmUrl, { id: m.id, content: m.content, sender: m.sender, channel: null, participantIds: m.participants.map((p) => p.id) })})`;
  const quoted = truncateText(m.content, MAX_REPORT_MESSAGE_SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(quoted);
  const content =
    reportHeader(reporter, m) +
    `\n\`\`\`quote\n**${REPORT_MESSAGE_TYPES[reportType]}**. ${description}\n\`\`\`\n` +
    `\n${fence} spoiler ${original}\n${quoted}\n${fence}\n`;
  return normaliseContent(content);
}

/** The report's topic: one per reported user, or the empty topic where the channel allows only that. */
export function messageReportTopic(reportedUser: Person, emptyTopicOnly: boolean): string {
  return emptyTopicOnly ? '' : truncateTopic(`${reportedUser.fullName} moderation`);
}
