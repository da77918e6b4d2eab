import { HtmlDiffer } from '../application/message-renderer.js';
import { dropTag, element, type HtmlElement, parseFragment, serialize } from './html-tree.js';
import { SequenceMatcher } from './sequence-matcher.js';

/**
 * Zulip's highlight_html_differences, which is lxml's htmldiff (lxml/html/diff.py) with <ins>
 * and <del> turned into `highlight_text_inserted` / `highlight_text_deleted` spans, the whole
 * wrapped in a <div>. The algorithm is lxml's, step by step: the renderings become word tokens
 * carrying their surrounding tags, difflib matches the word sequences, inserted and deleted runs
 * are merged back with markers, the markers are moved to where the markup stays balanced, and
 * ins/del are pushed inside block-level elements.
 */
export class LxmlStyleHtmlDiffer extends HtmlDiffer {
  diff(before: string, after: string): string {
    const root = parseFragment(htmldiff(before, after));
    const rename = (el: HtmlElement) => {
      if (el.tag === 'del' || el.tag === 'ins') {
        el.attrs.push(['class', el.tag === 'del' ? 'highlight_text_deleted' : 'highlight_text_inserted']);
        el.tag = 'span';
      }
      el.children.forEach(rename);
    };
    root.children.forEach(rename);
    return serialize(root, false);
  }
}

interface Token {
  /** What is compared: the word (an image's and a link target's own text). */
  text: string;
  html: string;
  preTags: string[];
  postTags: string[];
  trailingWhitespace: string;
  /** Link targets show only where they changed. */
  hideWhenEqual: boolean;
}

type Chunk = string | ['img', string, string] | ['href', string];
const DEL_START = '\u0000del_start';
const DEL_END = '\u0000del_end';

/** Python's html.escape(s, quote=True). */
const pyEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

const BLOCK_TAGS = new Set(
  ('address blockquote center dir div dl fieldset form h1 h2 h3 h4 h5 h6 hr isindex menu noframes noscript ol p pre table ul ' +
    'dd dt frameset li tbody td tfoot th thead tr').split(' '),
);
/** lxml's empty_tags: never left unbalanced. */
const EMPTY_TAGS = new Set(['param', 'img', 'area', 'br', 'basefont', 'input', 'base', 'meta', 'link', 'col']);

export function htmldiff(oldHtml: string, newHtml: string): string {
  const a = tokenize(oldHtml);
  const b = tokenize(newHtml);
  const matcher = new SequenceMatcher(
    a.map((t) => t.text),
    b.map((t) => t.text),
  );
  let doc: string[] = [];
  for (const [op, i1, i2, j1, j2] of matcher.opcodes()) {
    if (op === 'equal') {
      doc.push(...expand(b.slice(j1, j2), true));
      continue;
    }
    if (op === 'insert' || op === 'replace') mergeInsert(expand(b.slice(j1, j2), false), doc);
    if (op === 'delete' || op === 'replace') doc.push(DEL_START, ...expand(a.slice(i1, i2), false), DEL_END);
  }
  doc = cleanupDelete(doc);
  return fixupInsDelTags(doc.join('').trim());
}

function* expand(tokens: Token[], equal: boolean): Generator<string> {
  for (const t of tokens) {
    yield* t.preTags;
    if (!equal || !t.hideWhenEqual) yield t.html + t.trailingWhitespace;
    yield* t.postTags;
  }
}

const tagName = (chunk: string) => chunk.split(/\s+/)[0].replace(/^[<>/]+|[<>/]+$/g, '');

/** lxml's split_unbalanced: the start tags never closed, the balanced middle, the end tags never opened. */
function splitUnbalanced(chunks: string[]): [string[], string[], string[]] {
  const start: string[] = [];
  const end: string[] = [];
  let stack: [string, number, string][] = [];
  const balanced: (string | null)[] = [];
  for (const chunk of chunks) {
    if (!chunk.startsWith('<')) {
      balanced.push(chunk);
      continue;
    }
    const name = tagName(chunk);
    if (EMPTY_TAGS.has(name)) balanced.push(chunk);
    else if (chunk[1] !== '/') {
      stack.push([name, balanced.length, chunk]);
      balanced.push(null);
    } else if (stack.length > 0 && stack[stack.length - 1][0] === name) {
      balanced.push(chunk);
      const [, pos, tag] = stack.pop()!;
      balanced[pos] = tag;
    } else {
      start.push(...stack.map(([, , tag]) => tag));
      stack = [];
      end.push(chunk);
    }
  }
  start.push(...stack.map(([, , tag]) => tag));
  return [start, balanced.filter((c): c is string => c !== null), end];
}

function mergeInsert(chunks: Iterable<string>, doc: string[]): void {
  const [unbalancedStart, balanced, unbalancedEnd] = splitUnbalanced([...chunks]);
  doc.push(...unbalancedStart);
  wrap(doc, 'ins', balanced);
  doc.push(...unbalancedEnd);
}

/** Appends `<tag>balanced</tag> `, moving a trailing space out of the element. */
function wrap(doc: string[], tag: string, balanced: string[]): void {
  if (doc.length > 0 && !doc[doc.length - 1].endsWith(' ')) doc[doc.length - 1] += ' ';
  doc.push(`<${tag}>`);
  if (balanced.length > 0 && balanced[balanced.length - 1].endsWith(' ')) balanced[balanced.length - 1] = balanced[balanced.length - 1].slice(0, -1);
  doc.push(...balanced, `</${tag}> `);
}

/** lxml's cleanup_delete: each DEL_START … DEL_END becomes <del>, moved to where the markup stays balanced. */
function cleanupDelete(chunks: string[]): string[] {
  for (;;) {
    const pos = chunks.indexOf(DEL_START);
    if (pos < 0) return chunks;
    const pos2 = chunks.indexOf(DEL_END);
    const pre = chunks.slice(0, pos);
    const post = chunks.slice(pos2 + 1);
    const [unbalancedStart, balanced, unbalancedEnd] = splitUnbalanced(chunks.slice(pos + 1, pos2));
    locateUnbalancedStart(unbalancedStart, pre, post);
    locateUnbalancedEnd(unbalancedEnd, pre, post);
    wrap(pre, 'del', balanced);
    chunks = [...pre, ...post];
  }
}

function locateUnbalancedStart(unbalanced: string[], pre: string[], post: string[]): void {
  while (unbalanced.length > 0 && post.length > 0) {
    const next = post[0];
    if (next === DEL_START || !next.startsWith('<') || next[1] === '/') return;
    const name = tagName(next);
    if (name === 'ins' || name !== tagName(unbalanced[0])) return;
    unbalanced.shift();
    pre.push(post.shift()!);
  }
}

function locateUnbalancedEnd(unbalanced: string[], pre: string[], post: string[]): void {
  while (unbalanced.length > 0 && pre.length > 0) {
    const next = pre[pre.length - 1];
    if (next === DEL_END || !next.startsWith('</')) return;
    const name = tagName(next);
    if (name === 'ins' || name === 'del' || name !== tagName(unbalanced[unbalanced.length - 1])) return;
    unbalanced.pop();
    post.unshift(pre.pop()!);
  }
}

/** lxml's tokenize: the fragment's words, each carrying the tags before and after it. */
function tokenize(html: string): Token[] {
  const root = parseFragment(html.replace(/<\/?(ins|del)[\s\S]*?>/gi, ''));
  return fixupChunks([...flatten(root, true)]);
}

const startTag = (el: HtmlElement) => `<${el.tag}${el.attrs.map(([k, v]) => ` ${k}="${pyEscape(v)}"`).join('')}>`;
const splitWords = (text: string | null) => (text === null || text.trim() === '' ? [] : (text.match(/\S+(?:\s+|$)/gu) ?? []));

function* flatten(el: HtmlElement, skipTag: boolean): Generator<Chunk> {
  if (!skipTag) yield el.tag === 'img' ? ['img', el.attrs.find(([k]) => k === 'src')?.[1] ?? '', startTag(el)] : startTag(el);
  if (EMPTY_TAGS.has(el.tag) && !el.text && el.children.length === 0 && !el.tail) return;
  for (const word of splitWords(el.text)) yield pyEscape(word);
  for (const child of el.children) yield* flatten(child, false);
  const href = el.tag === 'a' ? el.attrs.find(([k]) => k === 'href')?.[1] : undefined;
  if (href) yield ['href', href];
  if (!skipTag) {
    yield `</${el.tag}>${el.tail !== null && /^[ \t\n\r]/.test(el.tail) ? ' ' : ''}`;
    for (const word of splitWords(el.tail)) yield pyEscape(word);
  }
}

const token = (text: string, html: string, preTags: string[], trailingWhitespace: string, hideWhenEqual = false): Token => ({
  text,
  html,
  preTags,
  postTags: [],
  trailingWhitespace,
  hideWhenEqual,
});

function splitTrailingWhitespace(word: string): [string, string] {
  const stripped = word.replace(/\s+$/u, '');
  return [stripped, word.slice(stripped.length)];
}

/** lxml's fixup_chunks: words become tokens; start tags go with the next word, end tags with the previous one. */
function fixupChunks(chunks: Chunk[]): Token[] {
  let tagAccum: string[] = [];
  let current: Token | null = null;
  const result: Token[] = [];
  for (const chunk of chunks) {
    if (Array.isArray(chunk)) {
      if (chunk[0] === 'img') {
        // lxml names an image token after Python's `type` builtin (a quirk kept for equal comparisons).
        const [tag, trailing] = splitTrailingWhitespace(chunk[2]);
        current = token(`<class 'type'>: ${chunk[1]}`, tag, tagAccum, trailing);
      } else current = token(chunk[1], ` Link: ${chunk[1]}`, tagAccum, ' ', true);
      tagAccum = [];
      result.push(current);
    } else if (!chunk.startsWith('<')) {
      const [word, trailing] = splitTrailingWhitespace(chunk);
      current = token(word, word, tagAccum, trailing);
      tagAccum = [];
      result.push(current);
    } else if (!chunk.startsWith('</') || tagAccum.length > 0) {
      tagAccum.push(chunk);
    } else {
      (current?.postTags ?? tagAccum).push(chunk);
    }
  }
  if (result.length === 0) return [token('', '', tagAccum, '')];
  result[result.length - 1].postTags.push(...tagAccum);
  return result;
}

/** lxml's fixup_ins_del_tags: <ins>/<del> around block-level elements move inside them. */
function fixupInsDelTags(html: string): string {
  const root = parseFragment(html);
  for (const tag of ['ins', 'del']) {
    for (const el of descendants(root).filter((e) => e.tag === tag)) {
      if (!containsBlock(el)) continue;
      moveInsideBlock(el, tag);
      dropTag(parentOf(root, el)!, el);
    }
  }
  const out = serialize(root, false);
  return out.slice(out.indexOf('>') + 1, out.lastIndexOf('<')).trim();
}

const descendants = (el: HtmlElement): HtmlElement[] => el.children.flatMap((c) => [c, ...descendants(c)]);
const containsBlock = (el: HtmlElement): boolean => BLOCK_TAGS.has(el.tag) || el.children.some(containsBlock);

function parentOf(root: HtmlElement, target: HtmlElement): HtmlElement | null {
  if (root.children.includes(target)) return root;
  for (const c of root.children) {
    const found = parentOf(c, target);
    if (found) return found;
  }
  return null;
}

function moveInsideBlock(el: HtmlElement, tag: string): void {
  if (!el.children.some(containsBlock)) {
    const wrapper = element(tag);
    wrapper.text = el.text;
    el.text = null;
    wrapper.children = el.children;
    el.children = [wrapper];
    return;
  }
  for (const child of [...el.children]) {
    if (containsBlock(child)) {
      moveInsideBlock(child, tag);
      if (child.tail) {
        const tailTag = element(tag);
        tailTag.text = child.tail;
        child.tail = null;
        el.children.splice(el.children.indexOf(child) + 1, 0, tailTag);
      }
    } else {
      const wrapper = element(tag);
      el.children.splice(el.children.indexOf(child), 1, wrapper);
      wrapper.children = [child];
    }
  }
  if (el.text) {
    const textTag = element(tag);
    textTag.text = el.text;
    el.text = null;
    el.children.unshift(textTag);
  }
}
