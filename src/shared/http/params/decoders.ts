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

const FLOAT_KEY = '\u0000svc-float';

/**
 * JSON.parse that keeps `5.0` distinguishable from `5` (as Python's json module does), by
 * wrapping fraction/exponent number tokens in JsonFloat.
 */
export function parseJson(text: string): unknown {
  let marked = '';
  let inString = false;
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      marked += c;
      if (c === '\\') marked += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      marked += c;
      continue;
    }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (m && (c === '-' || (c >= '0' && c <= '9'))) {
      if (m[1] !== undefined || m[2] !== undefined) {
        marked += `{${JSON.stringify(FLOAT_KEY)}:${m[0]}}`;
        changed = true;
      } else marked += m[0];
      i += m[0].length - 1;
      continue;
    }
    marked += c;
  }
  if (!changed) return JSON.parse(text);
  return JSON.parse(marked, (_k, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && FLOAT_KEY in v ? new JsonFloat(v[FLOAT_KEY]) : v,
  );
}
