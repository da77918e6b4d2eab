import { badRequest, DomainError } from '../shared/domain-error.js';
import {
  FIELD_BLANK,
  INVALID_URL_TEMPLATE,
  pythonRepr,
  uniqueTogetherMessage,
  ValidationErrors,
} from './model-validation.js';
import { parseUriTemplate } from './uri-template.js';

/**
 * A compiled linkifier pattern. Patterns are RE2 regular expressions (Zulip compiles them
 * with RE2, so syntax and error texts are RE2's); the compiler is an adapter handed in.
 */
export interface CompiledPattern {
  /** Names of the named groups `(?P<name>...)`. */
  readonly groupNames: readonly string[];
  /** The first match anywhere in `text` (Python's `search`): each named group's text, or null. */
  search(text: string): Readonly<Record<string, string | undefined>> | null;
  /**
   * Successive matches in `text` (`^` means the text's start): the first search starts at 0,
   * each next one where `resume` says (a UTF-16 index past the previous start), until no
   * match is left. Indices are UTF-16 ones.
   */
  scan(text: string, resume: (m: PatternMatch) => number): PatternMatch[];
}

/** One match: where it begins and ends (UTF-16 indices into the text) and each named group's text. */
export interface PatternMatch {
  index: number;
  end: number;
  groups: Readonly<Record<string, string | undefined>>;
}
export type PatternCompiler = (pattern: string) => { ok: true; regex: CompiledPattern } | { ok: false; error: string };

/** What an administrator defines; optional texts are null when unset. */
export interface LinkifierDefinition {
  readonly pattern: string;
  readonly urlTemplate: string;
  readonly exampleInput: string | null;
  readonly reverseTemplate: string | null;
  readonly alternativeUrlTemplates: readonly string[];
}

/** Zulip's normalize_optional_text: trimmed, and empty means unset. */
export function normaliseOptionalText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  return v === '' ? null : v;
}

/** The stored form of what the request gave: pattern and templates trimmed, optional texts normalised. */
export function normaliseLinkifier(raw: {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: readonly string[];
}): LinkifierDefinition {
  return {
    pattern: raw.pattern.trim(),
    urlTemplate: raw.urlTemplate.trim(),
    exampleInput: normaliseOptionalText(raw.exampleInput),
    reverseTemplate: normaliseOptionalText(raw.reverseTemplate),
    alternativeUrlTemplates: raw.alternativeUrlTemplates.map((t) => t.trim()),
  };
}

export const linkifierNotFound = (): DomainError => badRequest('Linkifier not found.');

/**
 * Zulip's `expand_reverse_template`: `{name}` takes the group's text from the example's
 * match, `{{` and `}}` stand for literal braces.
 */
export function expandReverseTemplate(
  template: string,
  groups: Readonly<Record<string, string | undefined>>,
  groupNames: ReadonlySet<string>,
): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('{{', i)) {
      out += '{';
      i += 2;
    } else if (template.startsWith('}}', i)) {
      out += '}';
      i += 2;
    } else if (template[i] === '{') {
      const end = template.indexOf('}', i + 1);
      if (end === -1) throw reverseTemplateError("Invalid auto-conversion field: missing '}' character.");
      const name = template.slice(i + 1, end);
      if (name === '') throw reverseTemplateError('Invalid auto-conversion field: empty field name.');
      if (!groupNames.has(name)) {
        throw reverseTemplateError(`Group ${pythonRepr(name)} in auto-conversion field is not present in linkifier pattern.`);
      }
      // A named group that did not take part in the match expands to nothing.
      out += groups[name] ?? '';
      i = end + 1;
    } else {
      out += template[i];
      i += 1;
    }
  }
  return out;
}

class ReverseTemplateError extends Error {}
const reverseTemplateError = (msg: string) => new ReverseTemplateError(msg);

/** Python's min() over strings: smallest by code point. */
function smallest(names: string[]): string {
  return names.reduce((a, b) => (codePointCompare(b, a) < 0 ? b : a));
}
function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * Zulip's RealmFilter.full_clean, in its order: field checks (blank pattern or URL template,
 * URL template syntax, alternative templates), then `clean()` (RE2 compilation, example
 * input and auto-conversion field, template variables against the pattern's groups), then
 * the uniqueness of the pattern in the organization (`patternTaken`; skipped when the
 * pattern itself failed a field check). The first problem is the message; all of them are
 * in `errors`. A reverse template without an example input is refused at once, as Zulip's
 * `clean()` raises a plain API error for it.
 */
export function checkLinkifier(d: LinkifierDefinition, compile: PatternCompiler, patternTaken: boolean): void {
  const errors = new ValidationErrors();
  if (d.pattern === '') errors.field('pattern', FIELD_BLANK);
  const template = parseUriTemplate(d.urlTemplate);
  if (d.urlTemplate === '') errors.field('url_template', FIELD_BLANK);
  else if (template === null) errors.field('url_template', INVALID_URL_TEMPLATE);
  if (d.alternativeUrlTemplates.some((t) => t === '' || parseUriTemplate(t) === null)) {
    errors.field('alternative_url_templates', INVALID_URL_TEMPLATE);
  }

  const problem = cleanProblem(d, compile, template?.variableNames ?? null);
  if (problem !== null) errors.object(problem);

  if (!errors.hasField('pattern') && patternTaken) {
    errors.object(uniqueTogetherMessage('Realm filter', ['Realm', 'Pattern']));
  }
  errors.throwIfAny();
}

/** RealmFilter.clean(): the first problem of the object as a whole, or null. */
function cleanProblem(d: LinkifierDefinition, compile: PatternCompiler, templateVariables: readonly string[] | null): string | null {
  const compiled = compile(d.pattern);
  if (!compiled.ok) return `Bad regular expression: ${compiled.error}`;
  const regex = compiled.regex;
  const groups = new Set(regex.groupNames);

  if (d.reverseTemplate !== null && d.exampleInput === null) {
    throw badRequest('Example text is required when auto-conversion field is set.');
  }
  if (d.exampleInput !== null) {
    const match = regex.search(d.exampleInput);
    if (match === null) return 'Example input does not match the linkifier pattern.';
    if (d.reverseTemplate !== null) {
      try {
        if (expandReverseTemplate(d.reverseTemplate, match, groups) !== d.exampleInput) {
          return 'Example text does not match auto-conversion field.';
        }
      } catch (e) {
        if (e instanceof ReverseTemplateError) return e.message;
        throw e;
      }
    }
  }

  // An invalid URL template was reported as a field problem; nothing more to compare.
  if (templateVariables === null) return null;
  const variables = new Set(templateVariables);
  const missingInPattern = [...variables].filter((v) => !groups.has(v));
  if (missingInPattern.length > 0) {
    return `Group ${pythonRepr(smallest(missingInPattern))} in URL template is not present in linkifier pattern.`;
  }
  const missingInTemplate = [...groups].filter((g) => !variables.has(g));
  if (missingInTemplate.length > 0) {
    return `Group ${pythonRepr(smallest(missingInTemplate))} in linkifier pattern is not present in URL template.`;
  }
  return null;
}

/** Zulip's check_reorder_linkifiers: every existing linkifier exactly once. */
export function checkLinkifierOrder(orderedIds: readonly number[], existingIds: readonly number[]): void {
  const given = new Set(orderedIds);
  if (given.size < orderedIds.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
  const existing = new Set(existingIds);
  if (given.size !== existing.size || [...given].some((id) => !existing.has(id))) {
    throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
}
