import { strip } from '../shared/text.js';

/*
 * Alert words (Zulip's zerver/views/alert_words.py, zerver/lib/alert_words.py and the
 * AlertWordNotificationProcessor of zerver/lib/markdown/__init__.py): a user's words or
 * phrases; a message whose content contains one, between the allowed punctuation, gets the
 * `has_alert_word` flag in that user's copy.
 */

/** Zulip's limit on one word of POST /users/me/alert_words, checked as sent (before stripping). */
export const ALERT_WORD_MAX_LENGTH = 100;

/** Characters that may come right before a match (Zulip's allowed_before_punctuation). */
export const ALERT_WORD_BEFORE = [' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>'] as const;
/**
 * Characters that may come right after a match (Zulip's allowed_after_punctuation; its entry
 * `",` is two characters long and so never equals one character: `"` is not allowed after).
 */
export const ALERT_WORD_AFTER = [' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`'] as const;

const BEFORE = new Set<string>(ALERT_WORD_BEFORE);
const AFTER = new Set<string>(ALERT_WORD_AFTER);

/** The words a request adds: stripped, blank ones dropped (Zulip's clean_alert_words). */
export function cleanAlertWords(words: readonly string[]): string[] {
  return words.map(strip).filter((w) => w !== '');
}

/** The form words are compared and matched in (Python's `str.lower`). */
export const alertWordKey = (word: string): string => word.toLowerCase();

/**
 * The words to store for an add (Zulip's add_user_alert_words): those whose lower case the
 * user does not have yet, one per lower case, in the order first sent, spelled as last sent.
 */
export function newAlertWords(existing: readonly string[], requested: readonly string[]): string[] {
  const had = new Set(existing.map(alertWordKey));
  const byKey = new Map<string, string>();
  for (const word of requested) {
    const key = alertWordKey(word);
    if (!had.has(key)) byKey.set(key, word);
  }
  return [...byKey.values()];
}

/** Python-Markdown's placeholder delimiters, removed from the source before anything else. */
const STX = '\u0002';
const ETX = '\u0003';

/**
 * The text alert words are looked for in, as Zulip's Markdown preprocessors leave it for the
 * alert-word step: STX/ETX removed, line ends normalised, tabs expanded, fenced code and math
 * blocks taken out (quote and spoiler blocks stay, quoted lines prefixed with `> `), the whole
 * lower-cased. Zulip's default code block language of an organization is not applied here.
 */
export function alertWordText(content: string): string {
  const lines = content.replaceAll(STX, '').replaceAll(ETX, '').replace(/\r\n?/g, '\n').split('\n').map(expandTabs);
  return withoutFencedCode(lines).join('\n').toLowerCase();
}

/**
 * Whether `text` (from alertWordText) contains `word` (lower case) at a valid place: at the
 * start or after an allowed character, and at the end or before one. Zulip's processor also
 * takes any match at the text's second character as one at its start (an off-by-one of its
 * `index <= 0` test, so `Done.` alerts for `one`); that is not a rule a user expects, and is
 * not copied.
 */
export function containsAlertWord(text: string, word: string): boolean {
  if (word === '') return false;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const end = at + word.length;
    const startOk = at === 0 || BEFORE.has(text[at - 1]);
    if (startOk && (end >= text.length || AFTER.has(text[end]))) return true;
  }
  return false;
}

/** Python's str.expandtabs(4) on one line (columns counted in code points). */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const c of line) {
    if (c === '\t') {
      const spaces = 4 - (column % 4);
      out += ' '.repeat(spaces);
      column += spaces;
    } else {
      out += c;
      column += 1;
    }
  }
  return out;
}

/** Zulip's FENCE_RE: an opening ``` or ~~~ line with an optional language and header. */
const FENCE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

interface Block {
  kind: 'outer' | 'code' | 'quote' | 'spoiler';
  fence: string;
  header?: string;
  lines: string[];
}

/** What a closed block leaves in the text; code and math leave a blank line (Zulip's placeholder). */
function leftOf(b: Block): string[] {
  if (b.kind === 'quote') return b.lines.map((l) => `> ${l}`);
  if (b.kind === 'spoiler') return [...(b.header !== undefined ? ['', b.header, ''] : ['']), ...b.lines, ''];
  return [''];
}

/**
 * Zulip's fenced-code preprocessor, keeping only what reaches the alert-word step: a stack of
 * open blocks; a block closes on its own fence (or at the end of the message); quote and
 * spoiler blocks may hold further fences.
 */
function withoutFencedCode(lines: readonly string[]): string[] {
  const output: string[] = [];
  const stack: Block[] = [{ kind: 'outer', fence: '', lines: output }];
  const openOrKeep = (line: string, into: string[]) => {
    const m = FENCE.exec(line);
    if (m === null) {
      into.push(line);
      return;
    }
    const lang = m[2]?.toLowerCase();
    const kind = lang === 'quote' || lang === 'quoted' ? 'quote' : lang === 'spoiler' ? 'spoiler' : 'code';
    stack.push({ kind, fence: m[1], header: m[3], lines: [] });
  };
  const close = () => {
    const b = stack.pop()!;
    if (b.kind !== 'outer' && b.lines.length > 0) stack[stack.length - 1].lines.push('', ...leftOf(b), '');
  };
  for (const line of lines) {
    const top = stack[stack.length - 1];
    if (top.kind === 'outer') openOrKeep(line, top.lines);
    else if (line.trimEnd() === top.fence) close();
    else if (top.kind === 'code') top.lines.push(line.trimEnd());
    else openOrKeep(line, top.lines);
  }
  while (stack.length > 0) close();
  return output;
}
