/*
 * JSON as Python reads and writes it, for Zulip's widget data: which values are a `dict`, an
 * `int` or a `float` (Python's json/orjson keep `5.0` apart from `5`, and `True` is an `int`),
 * and `json.dumps` with its defaults (`", "` and `": "` separators, ASCII only).
 */

/**
 * A JSON number written with a fraction or an exponent, which Python reads as a float: the HTTP
 * layer keeps it apart from an integer as an object of its own class with the number as `value`
 * (its JsonFloat). Any such non-plain object with a numeric `value` is taken for one.
 */
export interface JsonFloatLike {
  readonly value: number;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isJsonFloat = (v: unknown): v is JsonFloatLike =>
  isObject(v) && Object.getPrototypeOf(v) !== Object.prototype && typeof (v as { value?: unknown }).value === 'number';

/** Python's `isinstance(v, dict)` for a parsed JSON value: a plain object. */
export const isDict = (v: unknown): v is Record<string, unknown> => isObject(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Python's `isinstance(v, int)`: an integer, or a boolean (bool is an int subclass in Python). */
export const isPyInt = (v: unknown): v is number | boolean => typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));

/** Python's `repr(float)`: the shortest digits, exponent form below 1e-4 and from 1e16 on (`1e-05`, `1e+16`), else `.0` when integral. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  const fixed = String(x);
  return fixed.includes('.') ? fixed : `${fixed}.0`;
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string as `json.dumps` writes it (ensure_ascii): everything outside ` `..`~` escaped, `\uXXXX` in lower case, surrogate pairs for astral characters. */
export const pythonJsonString = (s: string): string =>
  // eslint-disable-next-line no-control-regex -- control characters are escaped, as by json.dumps
  `"${s.replace(/[\\"\u0000-\u001f\u007f-\uffff]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;

/**
 * Python's `json.dumps(value)` with its defaults. Integers are written in full (also beyond
 * 2^53, as the double holds them); floats (JsonFloatLike, or a non-integral number) as Python's
 * repr. Recursive: callers bound the nesting (parsed JSON is refused beyond a fixed depth).
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return pythonFloatRepr(value);
    return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
  }
  if (typeof value === 'string') return pythonJsonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (isJsonFloat(value)) return pythonFloatRepr(value.value);
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pythonJsonString(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
}

/** Python's `str.isspace()` characters, for `\s` of Python's `re` and `str.strip()`. */
export const PY_WHITESPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const EDGE_SPACE = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, 'g');

/** Python's `str.strip()`. */
export const pyStrip = (s: string): string => s.replace(EDGE_SPACE, '');

/** Python's `str.splitlines()`: its line boundaries, no trailing empty line for a final break. */
export function pySplitLines(s: string): string[] {
  // eslint-disable-next-line no-control-regex -- \x1c-\x1e are line boundaries to Python
  const lines = s.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
