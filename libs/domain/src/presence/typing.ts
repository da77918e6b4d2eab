import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import { badRequest } from '../shared/domain-error.js';

/**
 * Typing notifications (Zulip's zerver/views/typing.py and zerver/actions/typing.py). Nothing is
 * stored: a request becomes one `typing` event for the people who would receive the message;
 * clients expire a "start" on their own (the server_typing_* periods of POST /register).
 */

export const TYPING_OPS = ['start', 'stop'] as const;
export type TypingOp = (typeof TYPING_OPS)[number];

/** `type`: "channel" is the newer name of "stream"; "private" is not accepted any more. */
export const TYPING_RECIPIENT_TYPES = ['direct', 'stream', 'channel'] as const;
export type TypingRecipientType = (typeof TYPING_RECIPIENT_TYPES)[number];

/** Channels with more subscribers get no typing notifications (MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS). */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export interface TypingRequest {
  op: TypingOp;
  type: TypingRecipientType;
  /** `to`: user IDs of a direct message; null when absent. */
  to: readonly number[] | null;
  channelId: number | null;
  /** As sent (already stripped of surrounding whitespace); null when absent. */
  topic: string | null;
}

/** The sender's typing settings (send_private_typing_notifications, send_stream_typing_notifications). */
export interface TypingSenderSettings {
  sendPrivate: boolean;
  sendStream: boolean;
}

export type TypingTarget =
  | { kind: 'channel'; channelId: number; topic: string }
  /** Everyone in the conversation, in request order, the sender appended when absent. */
  | { kind: 'direct'; userIds: number[] };

/**
 * The checks of send_notification_backend in its order, before anything is read: the arguments
 * the recipient type needs, then the sender's setting for that type.
 */
export function planTyping(req: TypingRequest, senderId: number, s: TypingSenderSettings): TypingTarget {
  if (req.type === 'stream' || req.type === 'channel') {
    if (req.channelId === null) throw badRequest("Missing 'stream_id' argument");
    if (req.topic === null) throw badRequest('Missing topic');
    if (!s.sendStream) throw badRequest('User has disabled typing notifications for channel messages');
    return { kind: 'channel', channelId: req.channelId, topic: typingTopic(req.topic) };
  }
  if (req.to === null) throw badRequest("Missing 'to' argument");
  if (req.to.length === 0) throw badRequest("Empty 'to' list");
  if (!s.sendPrivate) throw badRequest('User has disabled typing notifications for direct messages');
  return { kind: 'direct', userIds: req.to.includes(senderId) ? [...req.to] : [...req.to, senderId] };
}

/** The names clients show for the empty topic mean the empty topic. */
export function typingTopic(topic: string): string {
  return topic === EMPTY_TOPIC_DISPLAY_NAME || topic === '(no topic)' ? '' : topic;
}

/** Every user of a direct typing notification must exist in the organization (deactivated ones too). */
export function assertTypingUsersExist(userIds: readonly number[], known: ReadonlySet<number>): void {
  const unknown = userIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw badRequest(`Invalid user ID ${unknown}`);
}

/** The subscribers a channel typing notification reaches: none when the channel is too large. */
export function channelTypingAudience(activeSubscriberIds: readonly number[]): readonly number[] {
  return activeSubscriberIds.length > MAX_CHANNEL_SIZE_FOR_TYPING ? [] : activeSubscriberIds;
}

/**
 * POST /messages/{id}/typing (Zulip's send_message_edit_notification_backend), after the edit
 * checks: the sender's setting for the message's kind.
 */
export function assertCanSendEditTyping(isChannelMessage: boolean, s: TypingSenderSettings): void {
  if (isChannelMessage && !s.sendStream) throw badRequest('User has disabled typing notifications for channel messages');
  if (!isChannelMessage && !s.sendPrivate) throw badRequest('User has disabled typing notifications for direct messages');
}

/**
 * The users of a direct message's edit-typing notification, as Zulip lists them: a one-to-one
 * conversation is the editor, then the other participant (the editor twice in a conversation
 * with oneself); a group conversation is its members, ascending.
 */
export function editTypingConversation(editorId: number, participants: readonly number[]): number[] {
  if (participants.length > 2) return [...participants].sort((a, b) => a - b);
  return [editorId, participants.find((id) => id !== editorId) ?? editorId];
}
