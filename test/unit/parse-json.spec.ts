import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JsonFloat, parseJson } from '../../src/shared/http/params/decoders.js';

/*
 * Issue 13, finding 9: JSON parameters are parsed by JSON.parse, with Python's int/float
 * distinction kept by checks around it, in time linear in the input (no per-character loop in
 * JavaScript that re-slices the text). No timing is asserted: the linear shape is checked on
 * the source, and the behaviour on a 2 MB input.
 */

const SOURCE = readFileSync(fileURLToPath(new URL('../../src/shared/http/params/decoders.ts', import.meta.url)), 'utf8');
const parseJsonSource = SOURCE.slice(SOURCE.indexOf('export function parseJson'));

describe('parseJson', () => {
  it('keeps 5.0 and 1e3 as floats, 5 as an integer, strings untouched', () => {
    const v = parseJson('{"a": 5, "b": 5.0, "c": [-1e3, 2.5E-1], "d": "1.5 and \\"2.0\\"", "e": 12345678901234567890}') as Record<string, unknown>;
    expect(v.a).toBe(5);
    expect(v.b).toEqual(new JsonFloat(5));
    expect(v.c).toEqual([new JsonFloat(-1000), new JsonFloat(0.25)]);
    expect(v.d).toBe('1.5 and "2.0"');
    // Above 2^53 an integer stays a (rounded) number: the int decoder refuses it as not an integer.
    expect(Number.isSafeInteger(v.e)).toBe(false);
  });

  it('refuses invalid JSON as JSON.parse does', () => {
    for (const bad of ['', '[1,', '{"a":1.}', '"unterminated 1.5', '01', 'NaN', '[1.5]x']) expect(() => parseJson(bad), bad).toThrow();
  });

  it('an object that looks like the float marker is an ordinary object', () => {
    expect(parseJson('{"\\u0000svc-float": "x"}')).toEqual({ '\u0000svc-float': 'x' });
  });

  it('parses a 2 MB array of floats into floats', () => {
    const text = `[${Array.from({ length: 200_000 }, (_, i) => `${i}.125`).join(',')}]`;
    expect(text.length).toBeGreaterThan(2_000_000);
    const v = parseJson(text) as JsonFloat[];
    expect(v).toHaveLength(200_000);
    expect(v[199_999]).toEqual(new JsonFloat(199_999.125));
  });

  it('is JSON.parse plus a single native scan: no per-character loop or re-slicing in JavaScript', () => {
    expect(parseJsonSource).toContain('JSON.parse');
    expect(parseJsonSource).not.toMatch(/for \(let \w+ = 0; \w+ < text\.length/);
    expect(parseJsonSource).not.toMatch(/text\.slice\(/);
  });
});
