/**
 * A strict reader of RFC 6570 URI templates (levels 1–4): it accepts exactly the grammar of
 * section 2 and reports the variable names, which is all linkifiers and code playgrounds need
 * (expansion happens in clients).
 *
 *   URI-Template = *( literals / expression )
 *   literals     = %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A
 *                / %x7E / ucschar / iprivate / pct-encoded
 *   expression   = "{" [ operator ] variable-list "}"
 *   operator     = "+" / "#" / "." / "/" / ";" / "?" / "&"      (op-reserve "=,!@|" is refused)
 *   variable-list = varspec *( "," varspec )
 *   varspec      = varname [ ":" max-length / "*" ]
 *   varname      = varchar *( ["."] varchar ),  varchar = ALPHA / DIGIT / "_" / pct-encoded
 *   max-length   = %x31-39 0*3DIGIT
 *
 * Zulip validates with Python's `uri_template` package, which is laxer (it lets through
 * literal spaces, quotes and lone `%`, and its own extensions such as `{var=default}`); this
 * reader follows the RFC.
 */
export interface UriTemplate {
  /** Distinct variable names in order of first appearance. */
  readonly variableNames: readonly string[];
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const HEX = /^[0-9A-Fa-f]{2}$/;

function isLiteralChar(cp: number): boolean {
  return (
    cp === 0x21 ||
    (cp >= 0x23 && cp <= 0x24) ||
    cp === 0x26 ||
    (cp >= 0x28 && cp <= 0x3b) ||
    cp === 0x3d ||
    (cp >= 0x3f && cp <= 0x5b) ||
    cp === 0x5d ||
    cp === 0x5f ||
    (cp >= 0x61 && cp <= 0x7a) ||
    cp === 0x7e ||
    isUcsChar(cp) ||
    isIPrivate(cp)
  );
}

function isUcsChar(cp: number): boolean {
  if ((cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef)) return true;
  if (cp >= 0x10000 && cp <= 0xefffd) {
    // %x10000-1FFFD / %x20000-2FFFD / ... / %xE1000-EFFFD: every plane but its last two code points
    // (and the first 0x1000 of plane 14).
    if ((cp & 0xffff) >= 0xfffe) return false;
    return cp < 0xe0000 || cp >= 0xe1000;
  }
  return false;
}

function isIPrivate(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

const isVarChar = (c: string): boolean => /^[A-Za-z0-9_]$/.test(c);

/** Reads one varname at `s[i]`; returns the index after it, or -1 when there is none. */
function readVarname(s: string, i: number): number {
  let j = i;
  let needChar = true;
  for (;;) {
    if (s[j] === '%' && HEX.test(s.slice(j + 1, j + 3))) {
      j += 3;
      needChar = false;
    } else if (j < s.length && isVarChar(s[j])) {
      j += 1;
      needChar = false;
    } else if (s[j] === '.' && !needChar) {
      j += 1;
      needChar = true;
    } else break;
  }
  return needChar ? -1 : j;
}

/** Parses `{...}` contents (without braces); returns the variable names, or null. */
function parseExpression(body: string): string[] | null {
  let i = 0;
  if (OPERATORS.has(body[0])) i = 1;
  const names: string[] = [];
  for (;;) {
    const end = readVarname(body, i);
    if (end < 0) return null;
    names.push(body.slice(i, end));
    i = end;
    if (body[i] === '*') i += 1;
    else if (body[i] === ':') {
      const m = /^[1-9][0-9]{0,3}/.exec(body.slice(i + 1));
      if (!m) return null;
      i += 1 + m[0].length;
    }
    if (i === body.length) return names;
    if (body[i] !== ',') return null;
    i += 1;
  }
}

/** The template's variables, or null when `s` is not an RFC 6570 template. */
export function parseUriTemplate(s: string): UriTemplate | null {
  const names: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '{') {
      const close = s.indexOf('}', i + 1);
      if (close < 0) return null;
      const vars = parseExpression(s.slice(i + 1, close));
      if (vars === null) return null;
      for (const v of vars) if (!names.includes(v)) names.push(v);
      i = close + 1;
    } else if (c === '%') {
      if (!HEX.test(s.slice(i + 1, i + 3))) return null;
      i += 3;
    } else {
      const cp = s.codePointAt(i)!;
      if (!isLiteralChar(cp)) return null;
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return { variableNames: names };
}

export const isValidUriTemplate = (s: string): boolean => parseUriTemplate(s) !== null;

/** Per operator (RFC 6570 §3.2 / appendix A): prefix, separator, named, empty-value suffix, reserved chars allowed. */
const EXPANSION: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

/** Percent-encodes all but unreserved characters (and, for `+`/`#`, reserved ones and existing escapes). */
function encodeTemplateValue(value: string, reserved: boolean): string {
  let out = '';
  for (const ch of value) {
    if (/^[A-Za-z0-9\-._~]$/.test(ch)) out += ch;
    else if (reserved && /^[:/?#[\]@!$&'()*+,;=]$/.test(ch)) out += ch;
    else out += [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return reserved ? out.replace(/%25([0-9A-Fa-f]{2})/g, '%$1') : out;
}

/**
 * Expands an RFC 6570 template with string values (what linkifiers give: each named group's
 * text); undefined variables expand to nothing. Literals are copied as written.
 */
export function expandUriTemplate(template: string, values: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{([^}]*)\}/g, (_m, body: string) => {
    const op = EXPANSION[body[0]] !== undefined && body[0] !== undefined && '+#./;?&'.includes(body[0]) ? body[0] : '';
    const spec = EXPANSION[op];
    const parts: string[] = [];
    for (const varspec of body.slice(op.length).split(',')) {
      const m = /^([^:*]+)(?::(\d+)|\*)?$/.exec(varspec);
      if (!m) continue;
      let value = values[m[1]];
      if (value === undefined || value === null) continue;
      if (m[2] !== undefined) value = [...value].slice(0, Number(m[2])).join('');
      const encoded = encodeTemplateValue(value, spec.reserved);
      parts.push(spec.named ? (value === '' ? `${m[1]}${spec.ifEmpty}` : `${m[1]}=${encoded}`) : encoded);
    }
    return parts.length === 0 ? '' : spec.first + parts.join(spec.sep);
  });
}
