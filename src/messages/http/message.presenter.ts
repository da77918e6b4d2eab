import { displayTopic, flagsToApi, HISTORICAL_FLAGS, isMeMessage, type Reaction, type Submessage } from '@app/domain/messages';
import { EditHistoryVisibility } from '@app/domain/realm';
import { shownAvatarUrl } from '../../users/index.js';
import type { FetchedMessage, SenderInfo } from '../application/message-queries.js';
import type { EditHistoryEntry, MessageRecord } from '../application/message.ports.js';
import { presentReaction, presentSubmessage } from '../application/messages.views.js';

export interface PresentContext {
  senders: Map<number, SenderInfo>;
  /** Each message's reactions, oldest first. */
  reactions: Map<number, Reaction[]>;
  /** The submessages of the messages that have some, in order. */
  submessages: Map<number, Submessage[]>;
  channelNames: Map<number, string>;
  participants: Map<number, SenderInfo[]>;
  realmStringId: string;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  historyPolicy: number;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Edit history as the organization's visibility policy allows (newest first). */
export function visibleHistory(history: EditHistoryEntry[], policy: number): EditHistoryEntry[] | null {
  if (history.length === 0 || policy === EditHistoryVisibility.none) return null;
  if (policy === EditHistoryVisibility.all) return history;
  const moves = history
    .filter((e) => e.prev_topic !== undefined || e.prev_stream !== undefined)
    .map(({ prev_content: _, prev_rendered_content: __, ...rest }) => rest);
  return moves.length > 0 ? moves : null;
}

/** The message object of spec 10 §3. */
export function presentMessage({ message: m, flags }: FetchedMessage, c: PresentContext): Record<string, unknown> {
  const sender = c.senders.get(m.senderId)!;
  const out: Record<string, unknown> = {
    id: m.id,
    sender_id: m.senderId,
    content: c.applyMarkdown ? m.renderedContent : m.content,
    recipient_id: m.recipientId,
    timestamp: seconds(m.dateSent),
    client: m.sendingClient,
    subject: m.channelId === null ? '' : displayTopic(m.topic, c.allowEmptyTopicName),
    topic_links: [],
    is_me_message: isMeMessage(m.content),
    reactions: (c.reactions.get(m.id) ?? []).map(presentReaction),
    submessages: (c.submessages.get(m.id) ?? []).map(presentSubmessage),
    sender_full_name: sender.fullName,
    sender_email: sender.email,
    sender_realm_str: c.realmStringId,
    display_recipient:
      m.channelId === null
        ? (c.participants.get(m.recipientId) ?? []).map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false }))
        : c.channelNames.get(m.channelId),
    type: m.channelId === null ? 'private' : 'stream',
    avatar_url: shownAvatarUrl(sender, c.clientGravatar),
    content_type: c.applyMarkdown ? 'text/html' : 'text/x-markdown',
    flags: flagsToApi(flags ?? HISTORICAL_FLAGS),
  };
  if (m.channelId !== null) out.stream_id = m.channelId;
  if (m.lastEditTime) out.last_edit_timestamp = seconds(m.lastEditTime);
  if (m.lastMovedTime) out.last_moved_timestamp = seconds(m.lastMovedTime);
  const history = visibleHistory(m.editHistory, c.historyPolicy);
  if (history) out.edit_history = m.channelId === null ? history : history.map((e) => withDisplayTopics(e, c.allowEmptyTopicName));
  return out;
}

/** Zulip's finalize_payload: an edit's empty topics are "general chat" for clients that do not know the empty topic. */
function withDisplayTopics(e: EditHistoryEntry, allowEmptyTopicName: boolean): EditHistoryEntry {
  const out = { ...e };
  if (out.topic !== undefined) out.topic = displayTopic(out.topic, allowEmptyTopicName);
  if (out.prev_topic !== undefined) out.prev_topic = displayTopic(out.prev_topic, allowEmptyTopicName);
  return out;
}

export function neededIds(messages: readonly MessageRecord[]) {
  return {
    senders: [...new Set(messages.map((m) => m.senderId))],
    channels: [...new Set(messages.map((m) => m.channelId).filter((x): x is number => x !== null))],
    directRecipients: [...new Set(messages.filter((m) => m.channelId === null).map((m) => m.recipientId))],
  };
}
