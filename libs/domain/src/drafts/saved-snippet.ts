import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import { LIMITS } from '../realm/realm-settings.js';

export const MAX_SAVED_SNIPPET_TITLE_LENGTH = 60;
export const MAX_SAVED_SNIPPET_CONTENT_LENGTH = LIMITS.maxMessageLength;

/**
 * A saved snippet's title or content as Zulip's StringConstraints(strip_whitespace, min_length=1,
 * max_length) read it: stripped first, then neither blank nor too long. `name` is the parameter.
 */
export function snippetText(name: string, raw: string, maxLength: number): string {
  const value = raw.trim();
  if (value.length === 0) throw badRequest(`${name} cannot be blank`);
  if (codePointLength(value) > maxLength) throw badRequest(`${name} is too long (limit: ${maxLength} characters)`);
  return value;
}

export const savedSnippetDoesNotExist = (): DomainError =>
  new DomainError('Saved snippet does not exist.', 'BAD_REQUEST', 'not_found');
