/**
 * A small HTML tree in lxml's shape (an element's `text` before its first child, each child's
 * `tail` after it), parsed and serialized the way lxml's HTML parser (libxml2) treats the
 * well-formed fragments message rendering produces. Used by the edit-history diff.
 */
export interface HtmlElement {
  tag: string;
  attrs: [string, string][];
  text: string | null;
  children: HtmlElement[];
  tail: string | null;
}

/** Elements without content or end tag. */
export const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Parents (or preceding siblings) next to which libxml2 keeps whitespace-only text (its allowPCData list). */
const KEEPS_BLANKS = new Set(
  (
    'a abbr acronym address applet b bdo big blockquote body button caption center cite code dd del dfn div dt em font form ' +
    'h1 h2 h3 h4 h5 h6 i iframe ins kbd label legend li map menu object ol p pre q s samp small span strike strong td th tt u ul var'
  ).split(' '),
);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

export const element = (tag: string, attrs: [string, string][] = []): HtmlElement => ({ tag, attrs, text: null, children: [], tail: null });

const TOKEN = /<!--[\s\S]*?-->|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>|[^<]+|</;
const ATTR = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function appendText(parent: HtmlElement, text: string): void {
  const last = parent.children.at(-1);
  if (last) last.tail = (last.tail ?? '') + text;
  else parent.text = (parent.text ?? '') + text;
}

/** libxml2's areBlanks: where whitespace-only text is dropped. */
function keepsBlank(parent: HtmlElement): boolean {
  const last = parent.children.at(-1);
  if (last === undefined) return parent.text !== null || KEEPS_BLANKS.has(parent.tag);
  return last.tail !== null || KEEPS_BLANKS.has(last.tag);
}

/** lxml's fragment_fromstring(html, create_parent='div'): the fragment's nodes under a new <div>. */
export function parseFragment(html: string): HtmlElement {
  const root = element('div');
  const stack: HtmlElement[] = [root];
  let rest = html;
  while (rest.length > 0) {
    const m = TOKEN.exec(rest)!;
    rest = rest.slice(m[0].length);
    const top = stack[stack.length - 1];
    if (m[0].startsWith('<!--')) continue;
    if (m[1] !== undefined) {
      const name = m[1].toLowerCase();
      const at = stack.map((e) => e.tag).lastIndexOf(name);
      if (at > 0) stack.length = at; // an unmatched end tag is ignored
    } else if (m[2] !== undefined) {
      const attrs: [string, string][] = [...(m[3] ?? '').matchAll(ATTR)].map((a) => [a[1].toLowerCase(), decodeEntities(a[2] ?? a[3] ?? a[4] ?? '')]);
      const el = element(m[2].toLowerCase(), attrs);
      top.children.push(el);
      if (!VOID_TAGS.has(el.tag)) stack.push(el);
    } else {
      const text = decodeEntities(m[0]);
      if (text.trim() === '' && !keepsBlank(top)) continue;
      appendText(top, text);
    }
  }
  // fragments_fromstring keeps the body's leading text only when it is not blank.
  if (root.text !== null && root.text.trim() === '') root.text = null;
  return root;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** lxml's tostring(el, method="html"): the element, its content and its tail. */
export function serialize(el: HtmlElement, withTail = true): string {
  const attrs = el.attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  let out = `<${el.tag}${attrs}>`;
  if (!VOID_TAGS.has(el.tag)) {
    out += escapeText(el.text ?? '') + el.children.map((c) => serialize(c)).join('') + `</${el.tag}>`;
  }
  return withTail ? out + escapeText(el.tail ?? '') : out;
}

/** lxml's drop_tag: the element goes, its text, children and tail stay in its place. */
export function dropTag(parent: HtmlElement, el: HtmlElement): void {
  const index = parent.children.indexOf(el);
  const before = index > 0 ? parent.children[index - 1] : null;
  const text = el.text ?? '';
  if (text !== '') {
    if (before) before.tail = (before.tail ?? '') + text;
    else parent.text = (parent.text ?? '') + text;
  }
  const tail = el.tail ?? '';
  if (tail !== '') {
    const last = el.children.at(-1);
    if (last) last.tail = (last.tail ?? '') + tail;
    else if (before) before.tail = (before.tail ?? '') + tail;
    else parent.text = (parent.text ?? '') + tail;
  }
  parent.children.splice(index, 1, ...el.children);
}
