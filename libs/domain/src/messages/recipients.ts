import { badRequest, DomainError } from '../shared/domain-error.js';
import { parseTopicForSend } from './topic.js';

/** POST /messages's `type`: the current names and the legacy ones Zulip still accepts. */
export type SendType = 'direct' | 'private' | 'channel' | 'stream';

/**
 * Who a new message goes to, as the request names them: a channel (by name or id) and topic, or
 * the direct message's recipients by email or by user id (distinct, the sender not added).
 */
export type MessageRecipients =
  | { kind: 'channel'; channel: string | number; topic: string }
  | { kind: 'direct'; by: 'email'; emails: string[] }
  | { kind: 'direct'; by: 'id'; userIds: number[] };

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * A channel message's `to` and `topic` (Zulip's extract_stream_indicator): `to` is required, a
 * one-element list is its element; the topic is required and checked before the channel's type
 * (a name, trimmed, or an integer id).
 */
function channelRecipient(to: unknown, topic: string | undefined): MessageRecipients {
  if (to === undefined) throw badRequest('Missing channel');
  let target = to;
  if (Array.isArray(target)) {
    if (target.length !== 1) throw badRequest('Expected exactly one channel');
    target = target[0];
  }
  if (topic === undefined) throw badRequest('Missing topic');
  const parsedTopic = parseTopicForSend(topic);
  if (typeof target === 'string') return { kind: 'channel', channel: target.trim(), topic: parsedTopic };
  if (isId(target)) return { kind: 'channel', channel: target, topic: parsedTopic };
  throw badRequest('Invalid data type for channel');
}

/**
 * A direct message's `to` (Zulip's extract_private_recipients): a list of emails or of user ids,
 * not both; a bare string is a comma-separated list of emails, a bare number one id. Emails are
 * trimmed, blank ones dropped; duplicates count once.
 */
function directRecipients(to: unknown): MessageRecipients {
  let list = to === undefined ? [] : to;
  if (typeof list === 'string') list = list.split(',');
  if (typeof list === 'number') list = [list];
  if (!Array.isArray(list)) throw badRequest('Invalid data type for recipients');
  if (list.length === 0) throw badRequest('Message must have recipients');
  const mixed = () => badRequest('Recipient lists may contain emails or user IDs, but not both.');
  if (typeof list[0] === 'string') {
    if (list.some((e) => typeof e !== 'string')) throw mixed();
    const emails = [...new Set((list as string[]).map((e) => e.trim()).filter((e) => e !== ''))];
    if (emails.length === 0) throw badRequest('Message must have recipients');
    return { kind: 'direct', by: 'email', emails };
  }
  if (typeof list[0] === 'number') {
    if (!list.every(isId)) throw mixed();
    return { kind: 'direct', by: 'id', userIds: [...new Set(list)] };
  }
  throw badRequest('Invalid data type for recipients');
}

/**
 * POST /messages's recipients from `type`, `to` (decoded leniently: JSON when it parsed, else the
 * raw text; undefined when absent) and `topic` (undefined when absent).
 */
export function parseRecipients(type: SendType, to: unknown, topic: string | undefined): MessageRecipients {
  return type === 'channel' || type === 'stream' ? channelRecipient(to, topic) : directRecipients(to);
}

/** The channel a message names does not exist (or the sender cannot know it does). */
export function recipientChannelNotFound(channel: string | number): DomainError {
  if (typeof channel === 'number') return new DomainError(`Channel with ID '${channel}' does not exist`, 'STREAM_DOES_NOT_EXIST', 'invalid', { stream_id: channel });
  return new DomainError(`Channel '${channel}' does not exist`, 'STREAM_DOES_NOT_EXIST', 'invalid', { stream: channel });
}

/**
 * A direct message's recipient as found by the email or id the request named (`ref`): it must
 * exist and be active.
 */
export function activeRecipient<U extends { email: string; isActive: boolean }>(user: U | undefined, ref: string | number): U {
  if (user === undefined) throw badRequest(typeof ref === 'number' ? `Invalid user ID ${ref}` : `Invalid email '${ref}'`);
  if (!user.isActive) throw badRequest(`'${user.email}' is no longer using Zulip.`);
  return user;
}
