import { randomBytes } from 'node:crypto';
import { badRequest, DomainError } from '@app/domain/shared';
import { codePointLength } from '@app/domain/shared';
import { INT4_MAX } from '../../application/ids.js';

/**
 * Typed decoding of request parameters with Zulip's exact error texts (typed_endpoint.py's
 * ERROR_TEMPLATES). A decoder receives an already JSON-parsed value (or the raw string of a
 * plain-string parameter) and the parameter path used in messages, e.g. `subs[0]["name"]`.
 */
export type Decoder<T> = (value: unknown, path: string) => T;

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses) describing what a decoder accepts. */
export type JsonSchema = Record<string, unknown>;

const SCHEMAS = new WeakMap<Decoder<unknown>, JsonSchema>();

/** Records the JSON Schema of what a decoder accepts, for the API reference (docs only: decoding does not use it). */
export function described<D extends Decoder<unknown>>(decoder: D, schema: JsonSchema): D {
  SCHEMAS.set(decoder, schema);
  return decoder;
}

/** The schema a decoder was described with (`{}`, any value, for one that was not). */
export const schemaOf = (decoder: Decoder<unknown>): JsonSchema => SCHEMAS.get(decoder) ?? {};

export const paramError = (msg: string): DomainError => badRequest(msg);

export const str = (o: { maxLength?: number; notBlank?: boolean; minLength?: number } = {}): Decoder<string> =>
  described<Decoder<string>>((v, path) => {
    if (typeof v !== 'string') throw paramError(`${path} is not a string`);
    if (o.notBlank && v.trim() === '') throw paramError(`${path} cannot be blank`);
    if (o.minLength !== undefined && codePointLength(v) < o.minLength) throw paramError(`${path} is too short.`);
    if (o.maxLength !== undefined && codePointLength(v) > o.maxLength) {
      throw paramError(`${path} is too long (limit: ${o.maxLength} characters)`);
    }
    return v;
  }, { type: 'string', ...(o.maxLength !== undefined ? { maxLength: o.maxLength } : {}), ...(o.minLength !== undefined ? { minLength: o.minLength } : {}) });

/** A UTF-16 surrogate that is not half of a pair. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const invalidCharacters = (path: string): DomainError => paramError(`Invalid characters in ${path}`);

/**
 * Which text of a parameter keeps its NUL for a domain rule with Zulip's own answer (message
 * content: "Message must not contain null bytes"; topics, channel and user names: "Invalid
 * character in …"): `true` for all of it, or the keys (at any depth) of the JSON object fields
 * whose strings are left to such a rule.
 */
export type DomainNul = true | readonly string[];

/**
 * The one rule for text: no string of a parameter's value (a plain string, or any string or
 * object key inside a JSON value) may hold a NUL, which PostgreSQL cannot store in text, or an
 * unpaired UTF-16 surrogate, which has no UTF-8 form. The first offender is refused with the
 * path of the value holding it, e.g. `narrow[0][1]`. Iterative, so any nesting depth is fine.
 */
export function checkText(value: unknown, path: string, domainNul?: DomainNul): void {
  const error = badText(value, path, domainNul);
  if (error !== null) throw error;
}

/** checkText's finding, as a value: the error to answer, or null. */
export function badText(value: unknown, path: string, domainNul?: DomainNul): DomainError | null {
  interface Frame {
    value: unknown;
    parent: Frame | null;
    step: string;
    nulAllowed: boolean;
  }
  const pathOf = (f: Frame): string => {
    const steps: string[] = [];
    for (let at: Frame | null = f; at !== null; at = at.parent) steps.push(at.step);
    return steps.reverse().join('');
  };
  const bad = (s: string, nulAllowed: boolean) => (!nulAllowed && s.includes('\u0000')) || UNPAIRED_SURROGATE.test(s);
  const keys = domainNul === true || domainNul === undefined ? [] : domainNul;
  const stack: Frame[] = [{ value, parent: null, step: path, nulAllowed: domainNul === true }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      if (bad(v, frame.nulAllowed)) return invalidCharacters(pathOf(frame));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const e: unknown = v[i];
        if (typeof e === 'object' || typeof e === 'string') stack.push({ value: e, parent: frame, step: `[${i}]`, nulAllowed: frame.nulAllowed });
      }
    } else if (typeof v === 'object' && v !== null && !(v instanceof JsonFloat)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, e] = entries[i];
        if (bad(key, frame.nulAllowed)) return invalidCharacters(pathOf(frame));
        if (typeof e === 'object' || typeof e === 'string') {
          stack.push({ value: e, parent: frame, step: `[${JSON.stringify(key)}]`, nulAllowed: frame.nulAllowed || keys.includes(key) });
        }
      }
    }
  }
  return null;
}

/**
 * Whether JSON text can hold a string that checkText refuses: a NUL or a surrogate, raw or as a
 * `\u` escape. Most JSON parameters have neither, and skip the walk.
 */
export const jsonMayHoldBadText = (text: string): boolean => /\\u0000|\\u[dD][89abcdefABCDEF]|[\ud800-\udfff]/.test(text);

/**
 * How deeply a JSON parameter may nest arrays and objects: pydantic's JSON parser (jiter, which
 * reads Zulip's `Json[...]` parameters) stops at 200 levels, and Zulip answers
 * "<name> is not valid JSON". Deeper values would also overflow the stack of any code that
 * walks them recursively.
 */
export const MAX_JSON_DEPTH = 200;

/** Whether a value nests arrays and objects more than `limit` levels deep (iterative). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null || v instanceof JsonFloat) continue;
    if (depth > limit) return true;
    for (const e of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof e === 'object' && e !== null) stack.push([e, depth + 1]);
    }
  }
  return false;
}

export const bool = (): Decoder<boolean> =>
  described<Decoder<boolean>>((v, path) => {
    if (typeof v !== 'boolean') throw paramError(`${path} is not a boolean`);
    return v;
  }, { type: 'boolean' });

/**
 * Numbers that are stored as they are sent (time limits, retention days) are bounded by
 * INT4_MAX at the parameter layer: `<name> is too large`. (Ids are not: an id beyond it names
 * nothing, see storableIds.)
 */
export { INT4_MAX };

export const int = (o: { min?: number; max?: number; oneOf?: readonly number[] } = {}): Decoder<number> =>
  described<Decoder<number>>((v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw paramError(`${path} is not an integer`);
    if (o.oneOf && !o.oneOf.includes(v)) throw paramError(`Invalid ${path}`);
    if (o.min !== undefined && v < o.min) throw paramError(`${path} is too small`);
    if (o.max !== undefined && v > o.max) throw paramError(`${path} is too large`);
    return v;
  }, {
    type: 'integer',
    ...(o.oneOf ? { enum: [...o.oneOf] } : {}),
    ...(o.min !== undefined ? { minimum: o.min } : {}),
    ...(o.max !== undefined ? { maximum: o.max } : {}),
  });

export const float = (): Decoder<number> =>
  described<Decoder<number>>((v, path) => {
    const n = v instanceof JsonFloat ? v.value : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw paramError(`${path} is not a float`);
    return n;
  }, { type: 'number' });

export const literal = <T extends string>(values: readonly T[]): Decoder<T> =>
  described<Decoder<T>>((v, path) => {
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw paramError(`Invalid ${path}`);
    return v as T;
  }, { type: 'string', enum: [...values] });

export const list = <T>(elem: Decoder<T>, o: { maxItems?: number } = {}): Decoder<T[]> =>
  described<Decoder<T[]>>((v, path) => {
    if (!Array.isArray(v)) throw paramError(`${path} is not a list`);
    if (o.maxItems !== undefined && v.length > o.maxItems) throw paramError(`${path} is too long`);
    return v.map((e, i) => elem(e, `${path}[${i}]`));
  }, { type: 'array', items: schemaOf(elem), ...(o.maxItems !== undefined ? { maxItems: o.maxItems } : {}) });

type Fields = Record<string, { decoder: Decoder<unknown>; optional?: boolean }>;
type DictOf<F extends Fields> = { [K in keyof F]: F[K]['optional'] extends true ? ReturnType<F[K]['decoder']> | undefined : ReturnType<F[K]['decoder']> };

/** A JSON object with known keys, checked in declaration order; unknown keys are refused. */
export const dict = <F extends Fields>(fields: F, o: { allowExtra?: boolean } = {}): Decoder<DictOf<F>> =>
  described<Decoder<DictOf<F>>>((v, path) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof JsonFloat) {
      throw paramError(`${path} is not a dict`);
    }
    const obj = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(fields)) {
      const at = `${path}[${JSON.stringify(key)}]`;
      if (!(key in obj)) {
        if (spec.optional) continue;
        throw paramError(`${at} field is missing: Field required`);
      }
      out[key] = spec.decoder(obj[key], at);
    }
    if (!o.allowExtra) {
      for (const key of Object.keys(obj)) {
        if (!(key in fields)) throw paramError(`Argument "${key}" at ${path}[${JSON.stringify(key)}] is unexpected`);
      }
    }
    return out as DictOf<F>;
  }, dictSchema(fields, o.allowExtra === true));

function dictSchema(fields: Fields, allowExtra: boolean): JsonSchema {
  const entries = Object.entries(fields);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([k, f]) => [k, schemaOf(f.decoder)])),
    required: entries.filter(([, f]) => !f.optional).map(([k]) => k),
    additionalProperties: allowExtra,
  };
}

/** Tries each alternative; the error of the first one is reported when none matches. */
export const oneOf = <T>(...alternatives: Decoder<T>[]): Decoder<T> =>
  described<Decoder<T>>((v, path) => {
    let first: unknown;
    for (const alt of alternatives) {
      try {
        return alt(v, path);
      } catch (e) {
        first ??= e;
      }
    }
    throw first;
  }, { anyOf: alternatives.map(schemaOf) });

export const nullable = <T>(inner: Decoder<T>): Decoder<T | null> =>
  described<Decoder<T | null>>((v, path) => (v === null ? null : inner(v, path)), { anyOf: [schemaOf(inner), { type: 'null' }] });

/** A JSON number written with a fraction or exponent: Python reads it as a float, never an int. */
export class JsonFloat {
  constructor(readonly value: number) {}
}

/**
 * A scan over valid JSON text: a string token (kept as it is, so digits inside strings are
 * never touched) or a number token, which is a float when it has a fraction or an exponent. The
 * string branch is the unrolled `"[^"\\]*(?:\\.[^"\\]*)*"`: on valid JSON every match succeeds
 * at its first attempt, so the scan is linear.
 */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(\.\d+)?([eE][+-]?\d+)?/g;

/**
 * Float tokens are rewritten as strings starting with this mark. Its random part is drawn at
 * start-up, so no client text can spell it and have its own string taken for a float.
 */
const FLOAT_MARK = `${randomBytes(8).toString('hex')}:`;

const unmark = (v: unknown): unknown =>
  typeof v === 'string' && v.startsWith(FLOAT_MARK) ? new JsonFloat(Number(v.slice(FLOAT_MARK.length))) : v;

/** Turns the marked strings of a parsed value back into JsonFloat, without recursion (any depth). */
function unmarkFloats(root: unknown): unknown {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v: unknown = node[i];
        if (typeof v === 'object' && v !== null) stack.push(v);
        else node[i] = unmark(v);
      }
    } else if (typeof node === 'object' && node !== null) {
      const obj = node as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const v = obj[key];
        if (typeof v === 'object' && v !== null) stack.push(v);
        else if (typeof v === 'string' && v.startsWith(FLOAT_MARK)) {
          // defineProperty: an own "__proto__" key stays a plain property.
          Object.defineProperty(obj, key, { value: unmark(v), writable: true, enumerable: true, configurable: true });
        }
      }
    }
  }
  return unmark(root);
}

/**
 * JSON.parse that keeps `5.0` distinguishable from `5`, as Python's json module does (Zulip's
 * `Json[int]` refuses `5.0`). JSON.parse checks and parses the text. Only when the text has a
 * number token with a fraction or an exponent, one native regular-expression scan rewrites those
 * tokens as marked strings (see FLOAT_MARK), JSON.parse reads that text, and a walk turns the
 * marked strings into JsonFloat. Every step is linear in the input, and none recurses, so
 * nesting depth costs no stack. Integers beyond 2^53 stay (rounded) numbers, which the int
 * decoder refuses as "is not an integer", as before.
 *
 * (A reviver is avoided: Node 20's reviver recurses, so deep input overflows the stack, and it
 * is slow. JSON.parse's source-text access, `context.source`, would do all this in one pass
 * but needs Node 21+, and the server supports Node 20.19.)
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!/[.eE]/.test(text)) return value;
  const parts: string[] = [];
  let last = 0;
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m !== null; m = TOKENS.exec(text)) {
    if (m[1] === undefined && m[2] === undefined) continue;
    parts.push(`${text.slice(last, m.index)}"${FLOAT_MARK}${m[0]}"`);
    last = TOKENS.lastIndex;
  }
  if (parts.length === 0) return value;
  parts.push(text.slice(last));
  return unmarkFloats(JSON.parse(parts.join('')));
}
