import { int, JsonFloat, parseJson } from '../../src/shared/http/params/decoders.js';

/*
 * Issue 13, finding 9: JSON parameters are parsed by JSON.parse, and Python's int/float
 * distinction (`5` is an int, `5.0` and `1e3` are floats) is kept by checks around it, in time
 * linear in the input. No timing is asserted here; `node scripts/bench-parse-json.mjs` prints
 * the time per input size.
 */

describe('parseJson', () => {
  it('keeps 5.0 and 1e3 as floats and 5 as an integer; strings are untouched', () => {
    const v = parseJson('{"a": 5, "b": 5.0, "c": [-1e3, 2.5E-1, 0, -7], "d": "1.5 and \\"2.0\\" \\\\", "e": "\\u0031.5", "f": {"1.5": 1.5}}');
    expect(v).toEqual({
      a: 5,
      b: new JsonFloat(5),
      c: [new JsonFloat(-1000), new JsonFloat(0.25), 0, -7],
      d: '1.5 and "2.0" \\',
      e: '1.5',
      f: { '1.5': new JsonFloat(1.5) },
    });
  });

  it('parses scalars and empty containers as JSON.parse does', () => {
    for (const text of ['0', '-0', '"x"', 'true', 'null', '[]', '{}', ' [ 1 , 2 ] ', '"\\u2028"']) {
      expect(parseJson(text), text).toEqual(JSON.parse(text));
    }
    expect(parseJson('1.0')).toEqual(new JsonFloat(1));
  });

  it('refuses invalid JSON as JSON.parse does', () => {
    for (const bad of ['', '[1,', '{"a":1.}', '"unterminated 1.5', '01', 'NaN', '[1.5]x', '1.', '.5', '-', '"\\"\\"\\"']) {
      expect(() => parseJson(bad), bad).toThrow(SyntaxError);
    }
  });

  it('a client value shaped like the internal float marker stays what it is', () => {
    // The float marker is internal: a client cannot produce a JsonFloat by sending its shape.
    expect(parseJson('[1.5, {"\\u0000svc-float": 2}]')).toEqual([new JsonFloat(1.5), { '\u0000svc-float': 2 }]);
    expect(parseJson('[1.5, ["\\u0000svc-float", 2]]')).toEqual([new JsonFloat(1.5), ['\u0000svc-float', 2]]);
    expect(parseJson('{"\\u0000svc-float": 2}')).toEqual({ '\u0000svc-float': 2 });
  });

  it('integers beyond 2^53 keep the wire rule: the int decoder refuses them as not integers', () => {
    const v = parseJson('[9007199254740991, 12345678901234567890]') as number[];
    expect(int()(v[0], 'x')).toBe(9007199254740991);
    expect(() => int()(v[1], 'x')).toThrow('x is not an integer');
  });

  it('parses a 2 MB array of floats into floats', () => {
    const text = `[${Array.from({ length: 200_000 }, (_, i) => `${i}.125`).join(',')}]`;
    expect(text.length).toBeGreaterThan(2_000_000);
    const v = parseJson(text) as JsonFloat[];
    expect(v).toHaveLength(200_000);
    expect(v[0]).toEqual(new JsonFloat(0.125));
    expect(v[199_999]).toEqual(new JsonFloat(199_999.125));
  });

  it('parses any nesting depth JSON.parse takes, floats included, without overflowing the stack', () => {
    const depth = 100_000;
    let v: unknown = parseJson(`${'['.repeat(depth)}1.5${']'.repeat(depth)}`);
    for (let i = 0; i < depth; i++) v = (v as unknown[])[0];
    expect(v).toEqual(new JsonFloat(1.5));
  });

  it('an own "__proto__" key stays a plain property', () => {
    const v = parseJson('{"__proto__": 1.5, "a": 1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual(new JsonFloat(1.5));
  });

  it('parses long strings full of digits and escapes', () => {
    const s = '1.5e3 \\" '.repeat(100_000);
    expect(parseJson(`["${s}", 2.5]`)).toEqual([JSON.parse(`"${s}"`), new JsonFloat(2.5)]);
  });
});
