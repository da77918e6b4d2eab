/*
 * JSON with 64-bit integers: the relay identifies devices by signed 64-bit token IDs, which a
 * JavaScript number would round. Outgoing bigints are written as plain JSON integers; incoming
 * integers too long for a double come back as decimal strings (read them with BigInt()).
 */

const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

export function stringifyWithBigInts(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v}` : v)).replace(MARKED, '$1');
}

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

export function parseWithBigInts(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m) {
        const integer = m[1] === undefined && m[2] === undefined;
        out += integer && !Number.isSafeInteger(Number(m[0])) ? `"${m[0]}"` : m[0];
        i += m[0].length - 1;
        continue;
      }
    }
    out += c;
  }
  return JSON.parse(out);
}
