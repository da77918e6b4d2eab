import { normaliseContent } from '../messages/content.js';
import { LIMITS } from '../realm/realm-settings.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength, silentMention } from '../shared/text.js';
import { truncateText } from './draft.js';

/**
 * Message reminders (spec 13 §3; Zulip's zerver/lib/reminders.py, actions/reminders.py and
 * the REMIND delivery type of actions/scheduled_messages.py): a direct message the
 * Notification Bot sends its owner at a chosen time, quoting another message.
 */

export const MAX_REMINDER_NOTE_LENGTH = LIMITS.maxReminderNoteLength;

export const reminderDoesNotExist = (): DomainError => new DomainError('Reminder does not exist', 'BAD_REQUEST', 'not_found');
export const deliveryTimeNotInFuture = (): DomainError => badRequest('Scheduled delivery time must be in the future.');

/** The instants a Python datetime holds (years 1 to 9999): Zulip cannot even read others. */
const MIN_DATE_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_DATE_MS = Date.parse('9999-12-31T23:59:59Z');

/**
 * `scheduled_delivery_timestamp` (UNIX seconds) as the delivery time: strictly after `now`
 * (a timestamp equal to now is refused, as Zulip's `deliver_at <= timezone_now()`).
 */
export function deliveryTime(timestampSeconds: number, now: Date): Date {
  const ms = timestampSeconds * 1000;
  if (ms > MAX_DATE_MS) throw badRequest('scheduled_delivery_timestamp is too large');
  if (ms < MIN_DATE_MS || ms <= now.getTime()) throw deliveryTimeNotInFuture();
  return new Date(ms);
}

/** Python's str.isspace() characters (what `rstrip()` removes). */
// eslint-disable-next-line no-control-regex -- \x1c-\x1f are whitespace to Python
const PY_TRAILING_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u;

/** Zulip's normalize_note_text: trailing whitespace and leading newlines go, then the length limit. */
export function normaliseReminderNote(note: string): string {
  const body = note.replace(PY_TRAILING_SPACE, '').replace(/^\n+/, '');
  if (codePointLength(body) > MAX_REMINDER_NOTE_LENGTH) {
    throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/** The message a reminder points at, as far as the reminder's text shows it. */
export interface ReminderTarget {
  readonly id: number;
  readonly content: string;
  readonly sender: { readonly id: number; readonly fullName: string };
  /** Channel messages: their channel and topic; null for direct messages. */
  readonly channel: { readonly id: number; readonly name: string; readonly topic: string } | null;
  /** Direct messages: every participant of the conversation (the sender included). */
  readonly participantIds: readonly number[];
}

const HASH_REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/**
 * Zulip's encode_hash_component: `urllib.parse.quote(s, safe="*")` (UTF-8, everything but
 * letters, digits, `_.-~*` escaped with upper-case hex), then `%` → `.` and `.` → `.2E`.
 */
export function encodeHashComponent(s: string): string {
  let quoted = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    quoted += /[A-Za-z0-9_.\-~*]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return [...quoted].map((c) => HASH_REPLACEMENTS[c] ?? c).join('');
}

/** `<id>-<name>` of channel narrow URLs (spaces become dashes first). */
export const encodeChannel = (channelId: number, name: string): string =>
  `${channelId}-${encodeHashComponent(name.replaceAll(' ', '-'))}`;

/** Zulip's message_link_url: the `near` link of a message under the organization's URL. */
export function messageUrl(realmUrl: string, m: ReminderTarget): string {
  if (m.channel !== null) {
    return `${realmUrl}/#narrow/channel/${encodeChannel(m.channel.id, m.channel.name)}/topic/${encodeHashComponent(m.channel.topic)}/near/${m.id}`;
  }
  const ids = [...m.participantIds].sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}${ids.length >= 3 ? '-group' : ''}/near/${m.id}`;
}

const BROKEN_LINK_CHARS = /[`>*&[\]]|\$\$/;
const BROKEN_LINK_CHARS_G = /[`>*&[\]]|\$\$/g;
const LINK_ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

/**
 * Zulip's get_message_link_syntax: `#**channel>topic@id**`, or a plain Markdown link when the
 * channel or topic name would break that syntax.
 */
export function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number): string {
  if (!BROKEN_LINK_CHARS.test(topic) && !BROKEN_LINK_CHARS.test(channelName)) return `#**${channelName}>${topic}@${messageId}**`;
  const escape = (s: string) => s.replace(BROKEN_LINK_CHARS_G, (m) => LINK_ESCAPES[m]);
  const link = `#narrow/channel/${encodeChannel(channelId, channelName)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
  const text = `#${escape(channelName)} > ${escape(topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic)} @ 💬`;
  return `[${text}](${link})`;
}

/**
 * Zulip's get_unused_fence: three backticks, or one more than the longest run of three or more
 * backticks that starts a line (after up to three spaces) of `text`.
 */
export function unusedFence(text: string): string {
  let length = 3;
  for (const line of text.split('\n')) {
    const run = /^ {0,3}(`{3,})/.exec(line)?.[1];
    if (run !== undefined) length = Math.max(length, run.length + 1);
  }
  return '`'.repeat(length);
}


/**
 * The reminder's text (Zulip's get_reminder_formatted_content), checked like a message's content.
 * The quote's fence is chosen from the text before the quote, as Zulip does (so backtick fences
 * inside the quoted message are not taken into account).
 */
export function reminderContent(target: ReminderTarget, realmUrl: string, rawNote: string): string {
  const note = rawNote === '' ? '' : normaliseReminderNote(rawNote);
  let content: string;
  if (target.channel !== null) {
    const link = messageLinkSyntax(target.channel.id, target.channel.name, target.channel.topic, target.id);
    content = note ? `You requested a reminder for ${link}. Note:\n > ${note}` : `You requested a reminder for ${link}.`;
  } else {
    content = note
      ? `You requested a reminder for the following direct message. Note:\n > ${note}`
      : 'You requested a reminder for the following direct message.';
  }
  const mention = silentMention(target.sender);
  const url = messageUrl(realmUrl, target);
  content += '\n\n';
  if (target.content.startsWith('/poll')) {
    content += `${mention} [sent](${url}) a poll.`;
  } else if (target.content.startsWith('/todo')) {
    content += `${mention} [sent](${url}) a todo list.`;
  } else {
    content += `${mention} [said](${url}):\n`;
    const fence = unusedFence(content);
    const quote = (body: string) => `${fence}quote\n${body}\n${fence}`;
    const room = LIMITS.maxMessageLength - codePointLength(content + quote(''));
    content += quote(truncateText(target.content, room, '\n[message truncated]'));
  }
  return normaliseContent(content);
}

/** A reminder as its owner sees it (GET /reminders, POST /register `reminders`). */
export interface ReminderView {
  readonly id: number;
  readonly ownerId: number;
  readonly targetMessageId: number;
  readonly content: string;
  readonly renderedContent: string;
  readonly scheduledAt: Date;
  readonly failed: boolean;
}
