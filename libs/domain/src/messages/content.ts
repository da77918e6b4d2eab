import { badRequest } from '../shared/domain-error.js';

export const MAX_MESSAGE_LENGTH = 10_000;
const TRUNCATION_NOTICE = '\n[message truncated]';

/**
 * Content of a new message: trailing whitespace and leading newlines removed; empty or NUL
 * rejected; beyond 10000 code points truncated so that, with the notice, it is exactly 10000.
 */
export function normaliseContent(raw: string): string {
  const content = raw.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (content === '') throw badRequest('Message must not be empty');
  if (content.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return truncateContent(content);
}

export function truncateContent(content: string): string {
  const chars = [...content];
  if (chars.length <= MAX_MESSAGE_LENGTH) return content;
  return chars.slice(0, MAX_MESSAGE_LENGTH - [...TRUNCATION_NOTICE].length).join('') + TRUNCATION_NOTICE;
}

/** Content of an edit: blank becomes `(deleted)`, else as for a new message. */
export function normaliseEditedContent(raw: string): string {
  if (raw.trim() === '') return '(deleted)';
  return normaliseContent(raw);
}

export const isMeMessage = (content: string): boolean => content.startsWith('/me ');
