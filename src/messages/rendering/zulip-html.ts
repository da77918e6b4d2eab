import { type UploadPreview, uploadPreviewImageHtml } from '@app/domain/messages';
import hljs from 'highlight.js';
import katex from 'katex';

/*
 * The HTML pieces Zulip's Markdown processor produces (zerver/lib/markdown/__init__.py,
 * fenced_code.py, url_encoding.py), as plain functions of their inputs. Zulip's serializer
 * writes attributes in alphabetical order and escapes text as ElementTree does (`&`, `<`,
 * `>` only); both are kept here.
 */

/** Text content as ElementTree writes it. */
export const escapeText = (s: string): string => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/** An attribute value. */
export const escapeAttr = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** Code as Pygments writes it (quotes escaped too). */
export const escapeCode = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Python's html.escape (quotes as `&quot;` and `&#x27;`). */
export const escapePython = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);

/** `<tag a="…" b="…">` with the attributes sorted by name. */
export function openTag(tag: string, attrs: Record<string, string | undefined>): string {
  const list = Object.entries(attrs)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  return `<${tag}${list}>`;
}

/** Zulip's hash_util_encode: Python's quote(safe="") with `.` encoded, then `%` written `.`. */
export function hashUtilEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

/** Zulip's encode_stream: `99-Verona`, spaces as dashes. */
export const encodeChannel = (id: number, name: string): string => `${id}-${hashUtilEncode(name.replace(/ /g, '-'))}`;

/** Zulip's make_emoji: the span clients swap for an emoji image. */
export function unicodeEmojiHtml(code: string, name: string): string {
  const title = name.replace(/_/g, ' ');
  return `${openTag('span', { 'aria-label': title, class: `emoji emoji-${code}`, role: 'img', title })}:${escapeText(name)}:</span>`;
}

/** Zulip's make_realm_emoji. */
export function imageEmojiHtml(src: string, name: string): string {
  return openTag('img', { alt: `:${name}:`, class: 'emoji', src, title: name.replace(/_/g, ' ') });
}

/** The `zulip` emoji's image. */
export const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

// ---------------------------------------------------------------------------------------------
// Code blocks

/** Pygments lexer names for the common aliases (data-code-language shows the lexer's name). */
const PYGMENTS_NAMES: Record<string, string> = {
  python: 'Python', py: 'Python', py3: 'Python', python3: 'Python', sage: 'Python', bazel: 'Python', starlark: 'Python',
  py2: 'Python 2.x', python2: 'Python 2.x',
  javascript: 'JavaScript', js: 'JavaScript', typescript: 'TypeScript', ts: 'TypeScript',
  java: 'Java', c: 'C', cpp: 'C++', 'c++': 'C++', csharp: 'C#', 'c#': 'C#', cs: 'C#', go: 'Go', golang: 'Go',
  rust: 'Rust', rs: 'Rust', ruby: 'Ruby', rb: 'Ruby', php: 'PHP', perl: 'Perl', pl: 'Perl',
  bash: 'Bash', sh: 'Bash', shell: 'Bash', zsh: 'Bash', ksh: 'Bash', console: 'Bash Session',
  json: 'JSON', yaml: 'YAML', yml: 'YAML', html: 'HTML', xml: 'XML', css: 'CSS', scss: 'SCSS', sql: 'SQL',
  tex: 'TeX', latex: 'TeX', markdown: 'Markdown', md: 'Markdown', kotlin: 'Kotlin', swift: 'Swift',
  haskell: 'Haskell', hs: 'Haskell', scala: 'Scala', lua: 'Lua', r: 'R', matlab: 'Matlab', diff: 'Diff',
  dockerfile: 'Docker', docker: 'Docker', ini: 'INI', toml: 'TOML', makefile: 'Makefile', make: 'Makefile',
  text: 'Text only', plaintext: 'Text only', objectivec: 'Objective-C', elixir: 'Elixir', erlang: 'Erlang',
  clojure: 'Clojure', ocaml: 'OCaml', dart: 'Dart', julia: 'Julia', powershell: 'PowerShell', nginx: 'Nginx',
};

/** highlight.js scope → Pygments short CSS class (the classes Zulip's clients style). */
const PYGMENTS_CLASSES: Record<string, string> = {
  keyword: 'k', built_in: 'nb', type: 'kt', literal: 'kc', number: 'mi', operator: 'o', punctuation: 'p',
  string: 's', subst: 'si', regexp: 'sr', symbol: 'ss', 'char.escape': 'se', comment: 'c1', doctag: 'cs',
  meta: 'cp', 'meta keyword': 'cp', 'meta string': 'cpf', title: 'nf', 'title.function': 'nf', 'title.class': 'nc',
  'title.class.inherited': 'nc', 'title.function.invoke': 'nf', function: 'nf', class: 'nc', params: 'n',
  variable: 'nv', 'variable.language': 'bp', 'variable.constant': 'no', 'variable.function': 'nf', attr: 'na',
  attribute: 'na', property: 'py', tag: 'nt', name: 'nt', 'selector-tag': 'nt', 'selector-class': 'nc',
  'selector-id': 'nn', 'selector-attr': 'na', 'selector-pseudo': 'nd', 'template-variable': 'nv',
  'template-tag': 'nt', section: 'gh', bullet: 'k', emphasis: 'ge', strong: 'gs', addition: 'gi', deletion: 'gd',
  link: 'nl', quote: 'c1', code: 'sb', formula: 'nb', 'meta-string': 'cpf', 'meta-keyword': 'cp',
};

/** The Pygments lexer name Zulip shows, or the language as written when it knows none. */
function languageName(lang: string): string {
  return PYGMENTS_NAMES[lang.toLowerCase()] ?? lang;
}

function pygmentsClass(scope: string): string {
  const s = scope.replace(/^hljs-/, '').replace(/_$/, '');
  if (PYGMENTS_CLASSES[s] !== undefined) return PYGMENTS_CLASSES[s];
  const head = s.split('.')[0];
  return PYGMENTS_CLASSES[head] ?? 'n';
}

/** highlight.js HTML with Pygments' classes and escaping. */
function highlighted(code: string, language: string): string {
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  return html
    .replace(/<span class="([^"]*)">/g, (_m, cls: string) => `<span class="${cls.split(' ').map(pygmentsClass)[0]}">`)
    .replace(/&#x27;/g, '&#39;');
}

/** Zulip's code block: trailing whitespace of every line dropped, a final newline, Pygments markup. */
export function codeBlockHtml(code: string, lang: string): string {
  const lines = code.split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  const known = lang !== '' ? hljs.getLanguage(lang.toLowerCase()) : undefined;
  let body: string;
  try {
    body = known ? highlighted(text, lang.toLowerCase()) : escapeCode(text);
  } catch {
    body = escapeCode(text);
  }
  const langAttr = lang !== '' ? ` data-code-language="${escapeAttr(languageName(lang))}"` : '';
  return `<div class="codehilite"${langAttr}><pre><span></span><code>${body}</code></pre></div>`;
}

// ---------------------------------------------------------------------------------------------
// Math

/**
 * KaTeX HTML for TeX, or null when KaTeX refuses it. KaTeX 0.19 prefixes two layout classes
 * (`katex-base`, `katex-strut`) that the KaTeX Zulip bundles and its clients' style sheets
 * call `base` and `strut`; they are written the clients' way.
 */
export function texHtml(tex: string, displayMode: boolean): string | null {
  try {
    return katex
      .renderToString(tex, { displayMode, throwOnError: true, output: 'htmlAndMathml', maxExpand: 100, maxSize: 50 })
      .replace(/class="katex-(base|strut)"/g, 'class="$1"');
  } catch {
    return null;
  }
}

/** Zulip's ```math block: each paragraph a display formula, errors shown as the source. */
export function displayMathHtml(source: string): string {
  const paragraphs = source.split(/\n\s*\n/).filter((p) => p.trim() !== '');
  return paragraphs
    .map((p) => {
      const html = texHtml(p.replace(/^\n+|\n+$/g, ''), true);
      return `<p>${html ?? `<span class="tex-error">${escapePython(p.replace(/^\n+|\n+$/g, ''))}</span>`}</p>\n`;
    })
    .join('');
}

// ---------------------------------------------------------------------------------------------
// Timestamps

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A `<time:…>` value as Zulip's dateutil parsing reads the common forms: a Unix timestamp,
 * ISO 8601, or a date written with a month name ("Jun 5th 2017, 10:30PM", "31 Dec 2017");
 * without a zone it is UTC. Null when unreadable.
 */
export function parseTimestamp(input: string): Date | null {
  const s = input.trim();
  if (s === '' || s.length > 100) return null;
  if (/^-?\d+(\.\d+)?$/.test(s)) {
    const d = new Date(Number(s) * 1000);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (iso) {
    const zone = iso[8] === undefined || iso[8].toUpperCase() === 'Z' ? 'Z' : iso[8].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    const d = new Date(`${iso[1]}-${iso[2]}-${iso[3]}T${iso[4] ?? '00'}:${iso[5] ?? '00'}:${iso[6] ?? '00'}${iso[7] ?? ''}${zone}`);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const words = s.toLowerCase().replace(/,/g, ' ').replace(/(\d)(st|nd|rd|th)\b/g, '$1').split(/\s+/);
  let day: number | undefined;
  let month: number | undefined;
  let year: number | undefined;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm)?$/.exec(w);
    const monthIndex = MONTHS.findIndex((m) => w.startsWith(m) && /^[a-z]+\.?$/.test(w));
    if (time) {
      hour = Number(time[1]);
      minute = Number(time[2]);
      second = Number(time[3] ?? 0);
      const ampm = time[4] ?? (words[i + 1] === 'am' || words[i + 1] === 'pm' ? words[++i] : undefined);
      if (ampm === 'pm' && hour < 12) hour += 12;
      if (ampm === 'am' && hour === 12) hour = 0;
    } else if (monthIndex >= 0 && month === undefined) {
      month = monthIndex;
    } else if (/^\d{4}$/.test(w) && year === undefined) {
      year = Number(w);
    } else if (/^\d{1,2}$/.test(w) && day === undefined) {
      day = Number(w);
    } else if (w === 'utc' || w === 'gmt' || w === 'z') {
      // already UTC
    } else {
      return null;
    }
  }
  if (month === undefined || year === undefined) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const d = new Date(Date.UTC(year, month, day ?? 1, hour, minute, second));
  if (Number.isNaN(d.getTime()) || d.getUTCMonth() !== month) return null;
  return d;
}

/** Python's isoformat() of a UTC time, `+00:00` written `Z`. */
export function isoUtc(d: Date): string {
  const iso = d.toISOString();
  return d.getUTCMilliseconds() === 0 ? iso.replace(/\.000Z$/, 'Z') : iso.replace(/Z$/, '000Z');
}

// ---------------------------------------------------------------------------------------------
// Links

/** Zulip's allowed_schemes (http, https, ftp, file and the HTML safelisted schemes). */
const ALLOWED_SCHEMES = new Set([
  'http', 'https', 'ftp', 'file', 'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms', 'news',
  'nntp', 'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp',
]);
const LOCLESS_SCHEMES = new Set(['mailto', 'news', 'file', 'bitcoin', 'sms', 'tel']);

/** Zulip's sanitize_url, as a yes/no: relative paths, fragments and allowed schemes pass. */
export function isSafeUrl(url: string): boolean {
  const u = url.trim();
  if (u === '') return false;
  if (u.startsWith('/') || u.startsWith('#')) return true;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(u);
  if (!m) return !/^[^/?#]*:/.test(u);
  const scheme = m[1].toLowerCase();
  if (!ALLOWED_SCHEMES.has(scheme)) return false;
  const hasNetloc = m[2].startsWith('//') && m[2].length > 2;
  return hasNetloc || LOCLESS_SCHEMES.has(scheme);
}

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];

/** Zulip's is_image: the URL's path ends in an image extension. */
export function isImageUrl(url: string): boolean {
  let path: string;
  try {
    path = new URL(url, 'http://relative.invalid').pathname.toLowerCase();
  } catch {
    return false;
  }
  return IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/**
 * An inline image preview (`message_inline_image`): the image shown from its own URL, or, for an
 * uploaded image, its thumbnail or loading placeholder (Zulip's add_a).
 */
export function imagePreviewHtml(href: string, title: string | undefined, upload?: UploadPreview): string {
  const img = upload === undefined ? openTag('img', { src: href }) : uploadPreviewImageHtml(upload);
  return `<div class="message_inline_image">${openTag('a', { href, title })}${img}</a></div>`;
}
