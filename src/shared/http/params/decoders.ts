import { badRequest, DomainError } from '@app/domain/shared';
import { codePointLength } from '@app/domain/shared';

/**
 * Typed decoding of request parameters with Zulip's exact error texts (typed_endpoint.py's
 * ERROR_TEMPLATES). A decoder receives an already JSON-parsed value (or the raw string of a
 * plain-string parameter) and the parameter path used in messages, e.g. `subs[0]["name"]`.
 */
export type Decoder<T> = (value: unknown, path: string) => T;

export const paramError = (msg: string): DomainError => badRequest(msg);

export const str =
  (o: { maxLength?: number; notBlank?: boolean; minLength?: number } = {}): Decoder<string> =>
  (v, path) => {
    if (typeof v !== 'string') throw paramError(`${path} is not a string`);
    if (o.notBlank && v.trim() === '') throw paramError(`${path} cannot be blank`);
    if (o.minLength !== undefined && codePointLength(v) < o.minLength) throw paramError(`${path} is too short.`);
    if (o.maxLength !== undefined && codePointLength(v) > o.maxLength) {
      throw paramError(`${path} is too long (limit: ${o.maxLength} characters)`);
    }
    return v;
  };

/**
 * The one rule for text: a NUL byte (which PostgreSQL cannot store in text) or an unpaired
 * UTF-16 surrogate (which has no UTF-8 form) anywhere in a parameter's text is refused.
 */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const invalidText = (path: string): DomainError => paramError(`Invalid characters in ${path}`);

/**
 * Checks every string of a decoded parameter value (a plain string, or the strings and keys
 * inside a JSON value), naming the first bad one by its path. `allowNul` leaves NUL to a
 * domain rule that has Zulip's own text for it (message content, topics).
 */
export function checkText(value: unknown, path: string, o: { allowNul?: boolean } = {}): void {
  const bad = { test: (s: string) => (!o.allowNul && s.includes('\u0000')) || UNPAIRED_SURROGATE.test(s) };
  const visit = (v: unknown, at: string): void => {
    if (typeof v === 'string') {
      if (bad.test(v)) throw invalidText(at);
    } else if (Array.isArray(v)) {
      v.forEach((e, i) => visit(e, `${at}[${i}]`));
    } else if (typeof v === 'object' && v !== null && !(v instanceof JsonFloat)) {
      for (const [k, e] of Object.entries(v)) {
        if (bad.test(k)) throw invalidText(at);
        visit(e, `${at}[${JSON.stringify(k)}]`);
      }
    }
  };
  visit(value, path);
}

/** The id columns are PostgreSQL `integer` (serial): an id outside them names nothing. */
export const ID_MIN = -2_147_483_648;
export const ID_MAX = 2_147_483_647;

/**
 * The one rule for ids: an integer within the id columns' range. (Zulip's sentinels such as
 * `-1` for "none" stay accepted; a negative id that names nothing gets the endpoint's own
 * not-found error.)
 */
export const id = (): Decoder<number> => int({ min: ID_MIN, max: ID_MAX });

/** Numbers in a free-form value (a narrow operand) are ids: each must fit the id columns. */
export function checkIds(value: unknown, path: string): void {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value > ID_MAX) throw paramError(`${path} is too large`);
    if (Number.isInteger(value) && value < ID_MIN) throw paramError(`${path} is too small`);
  } else if (Array.isArray(value)) {
    value.forEach((e, i) => checkIds(e, `${path}[${i}]`));
  }
}

export const bool = (): Decoder<boolean> => (v, path) => {
  if (typeof v !== 'boolean') throw paramError(`${path} is not a boolean`);
  return v;
};

export const int =
  (o: { min?: number; max?: number; oneOf?: readonly number[] } = {}): Decoder<number> =>
  (v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw paramError(`${path} is not an integer`);
    if (o.oneOf && !o.oneOf.includes(v)) throw paramError(`Invalid ${path}`);
    if (o.min !== undefined && v < o.min) throw paramError(`${path} is too small`);
    if (o.max !== undefined && v > o.max) throw paramError(`${path} is too large`);
    return v;
  };

export const float = (): Decoder<number> => (v, path) => {
  const n = v instanceof JsonFloat ? v.value : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw paramError(`${path} is not a float`);
  return n;
};

export const literal =
  <T extends string>(values: readonly T[]): Decoder<T> =>
  (v, path) => {
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw paramError(`Invalid ${path}`);
    return v as T;
  };

export const list =
  <T>(elem: Decoder<T>, o: { maxItems?: number } = {}): Decoder<T[]> =>
  (v, path) => {
    if (!Array.isArray(v)) throw paramError(`${path} is not a list`);
    if (o.maxItems !== undefined && v.length > o.maxItems) throw paramError(`${path} is too long`);
    return v.map((e, i) => elem(e, `${path}[${i}]`));
  };

type Fields = Record<string, { decoder: Decoder<unknown>; optional?: boolean }>;
type DictOf<F extends Fields> = { [K in keyof F]: F[K]['optional'] extends true ? ReturnType<F[K]['decoder']> | undefined : ReturnType<F[K]['decoder']> };

/** A JSON object with known keys, checked in declaration order; unknown keys are refused. */
export const dict =
  <F extends Fields>(fields: F, o: { allowExtra?: boolean } = {}): Decoder<DictOf<F>> =>
  (v, path) => {
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
  };

/** Tries each alternative; the error of the first one is reported when none matches. */
export const oneOf =
  <T>(...alternatives: Decoder<T>[]): Decoder<T> =>
  (v, path) => {
    let first: unknown;
    for (const alt of alternatives) {
      try {
        return alt(v, path);
      } catch (e) {
        first ??= e;
      }
    }
    throw first;
  };

export const nullable =
  <T>(inner: Decoder<T>): Decoder<T | null> =>
  (v, path) =>
    v === null ? null : inner(v, path);

/** A JSON number written with a fraction or exponent: Python reads it as a float, never an int. */
export class JsonFloat {
  constructor(readonly value: number) {}
}

/**
 * One left-to-right native scan over the text: a JSON string (kept as it is, so digits inside
 * strings are never touched) or a number token. The string branch is the unrolled
 * `"[^"\\]*(?:\\.[^"\\]*)*"`, so no per-character backtracking state is kept.
 */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(\.\d+)?([eE][+-]?\d+)?/g;

/** Marks a float token: an array `[MARK, value]` that no JSON text produces from a string key. */
const FLOAT_MARK = '\u0000svc-float';

/**
 * JSON.parse that keeps `5.0` distinguishable from `5` (as Python's json module does). The
 * text is checked and parsed by JSON.parse; before that, one regular-expression pass wraps each
 * fraction/exponent number token as `["\u0000svc-float",<token>]`, and JSON.parse's reviver
 * turns those into JsonFloat. Linear in the input. Integers above 2^53 stay (rounded) numbers,
 * which the int decoder refuses as "is not an integer".
 */
export function parseJson(text: string): unknown {
  let floats = 0;
  const marked = text.replace(TOKENS, (token: string, fraction?: string, exponent?: string) => {
    if (fraction === undefined && exponent === undefined) return token;
    floats++;
    return `[${JSON.stringify(FLOAT_MARK)},${token}]`;
  });
  if (floats === 0) return JSON.parse(text);
  const value: unknown = JSON.parse(marked, (_k, v: unknown) =>
    Array.isArray(v) && v.length === 2 && v[0] === FLOAT_MARK && typeof v[1] === 'number' ? new JsonFloat(v[1]) : v,
  );
  return value;
}
