import 'reflect-metadata';
import type { Request } from 'express';
import { DomainError } from '../../libs/domain/src/shared/index.js';
import {
  bool,
  decodeJsonParam,
  dict,
  ignoredParams,
  int,
  JsonParam,
  MAX_JSON_DEPTH,
  LenientJsonParam,
  list,
  MaxChars,
  NotBlank,
  OneOfValues,
  parseParams,
  PlainParam,
  str,
} from '../../src/shared/http/params/index.js';

class Dto {
  @PlainParam(str()) @MaxChars(5) @NotBlank() name: string;
  @JsonParam(bool(), { default: false }) flag: boolean;
  @JsonParam(int(), { optional: true }) @OneOfValues([100, 400]) role?: number;
  @PlainParam(str(), { optional: true, aliases: ['subject'] }) topic?: string;
  @JsonParam(list(dict({ stream_id: { decoder: int() }, value: { decoder: bool(), optional: true } })), { default: [] })
  data: { stream_id: number; value?: boolean }[];
  @LenientJsonParam((v, p) => (typeof v === 'number' || typeof v === 'string' ? v : bool()(v, p)), { optional: true })
  retention?: number | string;
}

const req = (body: Record<string, unknown>, query: Record<string, unknown> = {}) =>
  ({ body, query, params: {}, is: () => false }) as unknown as Request;

function error(body: Record<string, unknown>, query: Record<string, unknown> = {}) {
  try {
    parseParams(req(body, query), Dto);
  } catch (e) {
    const d = e as DomainError;
    return { msg: d.msg, code: d.code, ...d.data };
  }
  throw new Error('no error');
}

describe('Zulip parameter parsing', () => {
  it('reads the body first, then the query string, with defaults', () => {
    const p = parseParams(req({ name: 'ann' }, { name: 'bob', flag: 'true' }), Dto);
    expect(p).toMatchObject({ name: 'ann', flag: true, data: [] });
    expect(p.role).toBeUndefined();
  });
  it('reports a missing parameter with var_name', () => {
    expect(error({})).toEqual({ msg: "Missing 'name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'name' });
  });
  it.each([
    [{ name: 'a', flag: 'True' }, 'flag is not valid JSON'],
    [{ name: 'a', flag: '1' }, 'flag is not a boolean'],
    [{ name: 'a', flag: '"true"' }, 'flag is not a boolean'],
    [{ name: 'a', role: '5.0' }, 'role is not an integer'],
    [{ name: 'a', role: '"100"' }, 'role is not an integer'],
    [{ name: 'a', role: '200' }, 'Invalid role'],
    [{ name: 'abcdef' }, 'name is too long (limit: 5 characters)'],
    [{ name: '  ' }, 'name cannot be blank'],
    [{ name: 'a', data: '{}' }, 'data is not a list'],
    [{ name: 'a', data: '[{"stream_id":"x"}]' }, 'data[0]["stream_id"] is not an integer'],
    [{ name: 'a', data: '[{"value":true}]' }, 'data[0]["stream_id"] field is missing: Field required'],
    [{ name: 'a', data: '[{"stream_id":1,"x":1}]' }, 'Argument "x" at data[0]["x"] is unexpected'],
  ])('%j → %s', (body, msg) => {
    expect(error(body)).toMatchObject({ msg, code: 'BAD_REQUEST' });
  });
  it('reports the first failing parameter in declaration order', () => {
    // name's length problem comes before flag's type problem.
    expect(error({ name: 'abcdefgh', flag: 'nope' }).msg).toBe('name is too long (limit: 5 characters)');
    expect(error({ name: 'ok', flag: 'nope', role: '7' }).msg).toBe('flag is not valid JSON');
  });
  it('counts code points for lengths', () => {
    expect(parseParams(req({ name: '😀😀😀😀😀' }), Dto).name).toBe('😀😀😀😀😀');
  });
  it('refuses two names of one parameter', () => {
    expect(error({ name: 'a', topic: 'x' }, { subject: 'y' })).toEqual({
      msg: "Can't decide between 'topic' and 'subject' arguments",
      code: 'REQUEST_CONFUSING_VAR',
      var_name1: 'topic',
      var_name2: 'subject',
    });
    expect(parseParams(req({ name: 'a', subject: 'y' }), Dto).topic).toBe('y');
  });
  it('takes the last of repeated keys', () => {
    expect(parseParams(req({ name: ['x', 'y'] }), Dto).name).toBe('y');
  });
  it('reads "string or integer" values leniently', () => {
    expect(parseParams(req({ name: 'a', retention: 'unlimited' }), Dto).retention).toBe('unlimited');
    expect(parseParams(req({ name: 'a', retention: '"unlimited"' }), Dto).retention).toBe('unlimited');
    expect(parseParams(req({ name: 'a', retention: '30' }), Dto).retention).toBe(30);
  });
  it('lists unread parameters, sorted, counting aliases and path parameters as read', () => {
    const r = req({ name: 'a', zeta: '1', subject: 's', message_id: '3' }, { alpha: '2' });
    (r as { params: Record<string, string> }).params = { message_id: '3' };
    parseParams(r, Dto);
    expect(ignoredParams(r)).toEqual(['alpha', 'zeta']);
  });
  it('decodes a JSON parameter taken raw, later (decodeJsonParam)', () => {
    expect(decodeJsonParam('away', undefined, bool())).toBeUndefined();
    expect(decodeJsonParam('away', 'true', bool())).toBe(true);
    expect(decodeJsonParam('away', false, bool())).toBe(false);
    expect(() => decodeJsonParam('away', 'yes', bool())).toThrow('away is not valid JSON');
    expect(() => decodeJsonParam('away', '1', bool())).toThrow('away is not a boolean');
    expect(() => decodeJsonParam('away', 1, bool())).toThrow('away is not a boolean');
  });
});

class TextDto {
  @PlainParam(str()) title: string;
  @PlainParam(str(), { optional: true, domainNul: true }) content?: string;
  @JsonParam((v) => v, { optional: true }) narrow?: unknown;
  @JsonParam((v) => v, { optional: true, domainNul: ['name'] }) subs?: unknown;
}

/** A JSON request body: its arrays are values, not repeated keys. */
const jsonReq = (body: Record<string, unknown>) => ({ body, query: {}, params: {}, is: () => true }) as unknown as Request;

function textError(body: Record<string, unknown>, json = false): string {
  try {
    parseParams(json ? jsonReq(body) : req(body), TextDto);
  } catch (e) {
    return (e as DomainError).msg;
  }
  return 'no error';
}

describe('the one rule for text (issue 13, finding 12)', () => {
  it.each([
    [{ title: 'a\u0000b' }, 'Invalid characters in title'],
    [{ title: 'a\ud800b' }, 'Invalid characters in title'],
    [{ title: 'a\udc00' }, 'Invalid characters in title'],
    [{ title: 't', narrow: '[["search", "a\\u0000"]]' }, 'Invalid characters in narrow[0][1]'],
    [{ title: 't', narrow: '[{"operator": "topic", "operand": "\\udbff"}]' }, 'Invalid characters in narrow[0]["operand"]'],
    [{ title: 't', narrow: '{"a\\u0000": 1}' }, 'Invalid characters in narrow'],
    [{ title: 't', content: 'a\ud800' }, 'Invalid characters in content'],
    [{ title: 't', subs: '[{"name": "x", "description": "a\\u0000"}]' }, 'Invalid characters in subs[0]["description"]'],
  ])('%j → %s', (body, msg) => {
    expect(textError(body)).toBe(msg);
  });

  it('keeps surrogate pairs, and NUL where a domain rule answers for it', () => {
    expect(textError({ title: '😀 \ud83d\ude00' })).toBe('no error');
    expect(textError({ title: 't', narrow: '["\\ud83d\\ude00"]' })).toBe('no error');
    expect(textError({ title: 't', content: 'a\u0000b' })).toBe('no error');
    expect(textError({ title: 't', subs: '[{"name": "a\\u0000"}]' })).toBe('no error');
  });

  it('checks a JSON request body\'s parsed values too', () => {
    expect(textError({ title: 't', narrow: [['search', 'a\u0000']] }, true)).toBe('Invalid characters in narrow[0][1]');
  });

  it('every other parameter error answers first, as in Zulip (which only fails at the database)', () => {
    expect(error({ name: 'abcdef\u0000' }).msg).toBe('name is too long (limit: 5 characters)');
    expect(error({ name: 'a\u0000', flag: 'nope' }).msg).toBe('flag is not valid JSON');
    expect(error({ name: 'a\u0000', flag: 'true' }).msg).toBe('Invalid characters in name');
  });
});

describe('JSON nesting', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses more as Zulip does ("is not valid JSON")`, () => {
    expect(textError({ title: 't', narrow: nested(MAX_JSON_DEPTH) })).toBe('no error');
    expect(textError({ title: 't', narrow: nested(MAX_JSON_DEPTH + 1) })).toBe('narrow is not valid JSON');
    expect(textError({ title: 't', narrow: nested(100_000) })).toBe('narrow is not valid JSON');
    expect(textError({ title: 't', narrow: JSON.parse(nested(MAX_JSON_DEPTH + 1)) }, true)).toBe('narrow is not valid JSON');
  });
});
