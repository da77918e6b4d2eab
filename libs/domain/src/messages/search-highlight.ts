import { escapeHtml } from '../shared/html.js';

/** A match inside a text: where it starts and how long it is (in UTF-16 units). */
export type MatchLocation = readonly [offset: number, length: number];

const HIGHLIGHT_START = '<span class="highlight">';
const HIGHLIGHT_STOP = '</span>';

/** The words a search narrow highlights: every non-negated `search` operand, split on whitespace. */
export function searchWords(terms: readonly { text: string; negated: boolean }[]): string[] {
  return terms.filter((t) => !t.negated).flatMap((t) => t.text.split(/\s+/u).filter((w) => w !== ''));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the words occur in the text, case-insensitively, in order and without overlaps. */
export function matchLocations(text: string, words: readonly string[]): MatchLocation[] {
  const found: MatchLocation[] = [];
  for (const word of new Set(words)) {
    for (const m of text.matchAll(new RegExp(escapeRegExp(word), 'giu'))) found.push([m.index, m[0].length]);
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: MatchLocation[] = [];
  let end = 0;
  for (const loc of found) {
    if (loc[0] < end) continue;
    out.push(loc);
    end = loc[0] + loc[1];
  }
  return out;
}

/**
 * Zulip's highlight_string: wraps each match in `<span class="highlight">`, except matches that
 * end inside an HTML tag (attribute values, tag names), which stay as they are.
 */
export function highlightString(text: string, locs: readonly MatchLocation[]): string {
  let pos = 0;
  let result = '';
  let inTag = false;
  for (const [offset, length] of locs) {
    const prefix = text.slice(pos, offset);
    const match = text.slice(offset, offset + length);
    for (const ch of prefix + match) {
      if (ch === '<') inTag = true;
      else if (ch === '>') inTag = false;
    }
    result += inTag ? prefix + match : `${prefix}${HIGHLIGHT_START}${match}${HIGHLIGHT_STOP}`;
    pos = offset + length;
  }
  return result + text.slice(pos);
}

/**
 * The search fields a message gets from a narrow (Zulip's get_search_fields): its rendering and
 * its HTML-escaped topic, with the searched words highlighted (unchanged without search words).
 */
export function searchFields(renderedContent: string, topic: string, words: readonly string[]): { match_content: string; match_subject: string } {
  const escapedTopic = escapeHtml(topic);
  return {
    match_content: highlightString(renderedContent, matchLocations(renderedContent, words)),
    match_subject: highlightString(escapedTopic, matchLocations(escapedTopic, words)),
  };
}
