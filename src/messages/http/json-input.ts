import type { JsonInput } from '@app/domain/messages';
import { badText, jsonMayHoldBadText, nestsDeeperThan, parseJson } from '../../shared/http/params/index.js';

/** orjson's nesting limit: deeper text is not JSON to Zulip. */
const ORJSON_MAX_DEPTH = 1024;

/**
 * A parameter that Zulip reads with orjson.loads inside the use case (after its own checks):
 * parsed here, judged there. Not JSON: what JSON.parse refuses, what nests deeper than orjson
 * allows, and a string with an unpaired surrogate (orjson refuses such escapes). Numbers written
 * with a fraction or an exponent stay floats (JsonFloat), apart from integers, as in Python.
 */
export function jsonInput(text: string): JsonInput {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return { ok: false };
  }
  if (text.length > 2 * ORJSON_MAX_DEPTH && nestsDeeperThan(value, ORJSON_MAX_DEPTH)) return { ok: false };
  // NUL is valid in a JSON string (the text itself holds an escape): only surrogates are refused.
  if (jsonMayHoldBadText(text) && badText(value, '', true) !== null) return { ok: false };
  return { ok: true, value };
}
