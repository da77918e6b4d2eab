import { badRequest } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';

export const MAX_TOPIC_LENGTH = 60;
export const RESOLVED_TOPIC_PREFIX = '✔ ';

function assertPrintable(topic: string): void {
  let position = 0;
  for (const ch of topic) {
    position += 1;
    if (/[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch)) throw badRequest(`Invalid character in topic, at position ${position}!`);
  }
}

/** Topics longer than 60 code points keep their first 57 followed by `...`. */
export function truncateTopic(topic: string): string {
  if (codePointLength(topic) <= MAX_TOPIC_LENGTH) return topic;
  return [...topic].slice(0, MAX_TOPIC_LENGTH - 3).join('') + '...';
}

/**
 * A topic as sent with a new message: stripped; `(no topic)` and the empty-topic display name
 * mean the empty topic; truncated to 60; no unprintable characters.
 */
export function parseTopicForSend(raw: string): string {
  let topic = raw.trim();
  if (topic === '(no topic)' || topic === EMPTY_TOPIC_DISPLAY_NAME) topic = '';
  assertPrintable(topic);
  return truncateTopic(topic);
}

/** A topic as given to an edit: stripped; the display name means empty (not `(no topic)`). */
export function parseTopicForEdit(raw: string): string {
  const topic = raw.trim();
  return topic === EMPTY_TOPIC_DISPLAY_NAME ? '' : topic;
}

export function checkEditTopic(topic: string): string {
  assertPrintable(topic);
  return truncateTopic(topic);
}

/** Topics are the same when equal case-insensitively. */
export const sameTopic = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export const isResolved = (topic: string): boolean => topic.startsWith(RESOLVED_TOPIC_PREFIX);

/** Removes every leading ✔ and space (Zulip's unresolve). */
export function unresolvedName(topic: string): string {
  return topic.replace(/^[✔ ]+/u, '');
}

export type ResolveChange = 'resolve' | 'unresolve' | null;

/** Whether renaming `oldTopic` to `newTopic` (stripped, before truncation) toggles resolution. */
export function resolveChange(oldTopic: string, newTopic: string): ResolveChange {
  if (isResolved(newTopic) && !isResolved(oldTopic) && newTopic.slice(RESOLVED_TOPIC_PREFIX.length) === oldTopic) {
    return 'resolve';
  }
  if (isResolved(oldTopic) && !isResolved(newTopic) && unresolvedName(oldTopic) === newTopic) return 'unresolve';
  return null;
}

/** How the API shows a channel message's topic to clients that don't know the empty topic. */
export function displayTopic(topic: string, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}
