import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import { FIELD_BLANK, INVALID_URL_TEMPLATE, uniqueTogetherMessage, ValidationErrors } from './model-validation.js';
import { PYGMENTS_LANGUAGES } from './pygments-languages.js';
import { parseUriTemplate } from './uri-template.js';

export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;

const KNOWN_LANGUAGES = new Set(PYGMENTS_LANGUAGES.map((l) => l.toLowerCase()));

/** Is `name` a syntax-highlighter (Pygments) lexer name or alias? Case-insensitive, as Pygments looks aliases up. */
export function isKnownPygmentsLanguage(name: string): boolean {
  return KNOWN_LANGUAGES.has(name.toLowerCase());
}

/**
 * The `pygments_language` parameter, checked as Zulip's `check_pygments_language` does (at
 * most 40 characters; only `[ a-zA-Z0-9_+-./#]`, where `+-.` is a range that also lets `,`
 * through; like Python's `$`, a single trailing newline is tolerated), plus this server's own
 * rule: the trimmed name must be a known syntax-highlighter language (a Pygments lexer name or
 * alias). Zulip itself accepts any name made of those characters, for playgrounds of custom
 * languages. An empty name is left to the blank check of the object.
 */
export function checkPygmentsLanguage(raw: string): void {
  if (codePointLength(raw) > MAX_PYGMENTS_LANGUAGE_LENGTH) {
    throw badRequest(`pygments_language is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`);
  }
  const body = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  if (!/^[ a-zA-Z0-9_+-./#]*$/.test(body)) throw badRequest('Invalid characters in pygments language');
  const name = raw.trim();
  if (name !== '' && !isKnownPygmentsLanguage(name)) throw badRequest(`Invalid pygments language '${name}'`);
}

export interface PlaygroundDefinition {
  readonly name: string;
  readonly pygmentsLanguage: string;
  readonly urlTemplate: string;
}

export function normalisePlayground(raw: PlaygroundDefinition): PlaygroundDefinition {
  return { name: raw.name.trim(), pygmentsLanguage: raw.pygmentsLanguage.trim(), urlTemplate: raw.urlTemplate.trim() };
}

/**
 * Zulip's RealmPlayground.full_clean: field checks in field order (URL template, name,
 * language), then `clean()` (the template's only variable must be `code`), then the
 * uniqueness of (language, name) in the organization (`taken`; skipped when either failed a
 * field check).
 */
export function checkPlayground(p: PlaygroundDefinition, taken: boolean): void {
  const errors = new ValidationErrors();
  const template = parseUriTemplate(p.urlTemplate);
  if (p.urlTemplate === '') errors.field('url_template', FIELD_BLANK);
  else if (template === null) errors.field('url_template', INVALID_URL_TEMPLATE);
  if (p.name === '') errors.field('name', FIELD_BLANK);
  if (p.pygmentsLanguage === '') errors.field('pygments_language', FIELD_BLANK);

  if (template !== null) {
    const variables = template.variableNames;
    if (!variables.includes('code')) errors.object('Missing the required variable "code" in the URL template');
    else if (variables.length !== 1) errors.object('"code" should be the only variable present in the URL template');
  }

  if (!errors.hasField('name') && !errors.hasField('pygments_language') && taken) {
    errors.object(uniqueTogetherMessage('Realm playground', ['Realm', 'Pygments language', 'Name']));
  }
  errors.throwIfAny();
}

export const playgroundNotFound = (): DomainError => badRequest('Invalid playground');
