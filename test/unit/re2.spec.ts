import { checkLinkifier, type LinkifierDefinition } from '@app/domain/realm';
import { compileRe2, spellNamedGroupsForRe2 } from '../../src/realm/infrastructure/re2-pattern-engine.js';
import { prepareLinkifierPattern } from '../../src/messages/application/render-targets.resolver.js';

const errorOf = (pattern: string): string | null => {
  const r = compileRe2(pattern);
  return r.ok ? null : r.error;
};

describe('RE2 patterns', () => {
  it('gives RE2’s own error texts', () => {
    expect(errorOf('(foo')).toBe('missing ): (foo');
    expect(errorOf('ZUL-(?P<id>\\d????)')).toBe('bad repetition operator: ????');
    expect(errorOf('a/(b')).toBe('missing ): a/(b');
    expect(errorOf('[a')).toBe('missing ]: [a');
    expect(errorOf('x**')).toBe('bad repetition operator: **');
    expect(errorOf('a{2,1}')).toBe('invalid repetition size: {2,1}');
    expect(errorOf('\\')).toBe('trailing \\');
    expect(errorOf('(?=x)')).toBe('invalid perl operator: (?=');
    expect(errorOf('\\1')).toBe('invalid escape sequence: \\1');
    expect(errorOf('\\u0041')).toBe('invalid escape sequence: \\u');
    expect(errorOf('(?P<a-b>x)')).toBe('invalid named capture group: (?P<a-b>');
  });

  it('lists named groups, (?<name>) included', () => {
    const r = compileRe2('(?P<org>[a-z]+)/(?<repo>[a-z]+)#(\\d+)');
    expect(r.ok && r.regex.groupNames).toEqual(['org', 'repo']);
    expect(compileRe2('').ok).toBe(true);
  });

  it('searches anywhere and reports each named group', () => {
    const r = compileRe2('#(?P<id>[0-9]+)(?P<suffix>x)?');
    if (!r.ok) throw new Error(r.error);
    expect(r.regex.search('see #123 there')).toEqual({ id: '123', suffix: undefined });
    expect(r.regex.search('no number')).toBeNull();
    const u = compileRe2('(?P<w>é+)');
    expect(u.ok && u.regex.search('aaéé€')).toEqual({ w: 'éé' });
  });

  it('keeps RE2 semantics: . does not cross lines, ^ anchors at the start only', () => {
    const dot = compileRe2('a.b');
    expect(dot.ok && dot.regex.search('a\nb')).toBeNull();
    const caret = compileRe2('^b');
    expect(caret.ok && caret.regex.search('a\nb')).toBeNull();
  });

  it('spells (?<name> as (?P<name> only where it is a group', () => {
    expect(spellNamedGroupsForRe2('(?<a>x)(?<=y)(?<!z)')).toBe('(?P<a>x)(?<=y)(?<!z)');
    expect(spellNamedGroupsForRe2('[(?<a>]\\(?<b>')).toBe('[(?<a>]\\(?<b>');
    expect(spellNamedGroupsForRe2('[]](?<a>x)[^]](?<b>y)')).toBe('[]](?P<a>x)[^]](?P<b>y)');
    expect(spellNamedGroupsForRe2('\\Q(?<a>\\E(?<b>x)')).toBe('\\Q(?<a>\\E(?P<b>x)');
    expect(spellNamedGroupsForRe2('\\Q(?<a>')).toBe('\\Q(?<a>');
    expect(spellNamedGroupsForRe2('[\\[](?<a>x)')).toBe('[\\[](?P<a>x)');
    const quoted = compileRe2('\\Q(?<a>\\E(?<b>x)');
    expect(quoted.ok && quoted.regex.groupNames).toEqual(['b']);
  });

  it('drives the linkifier checks with the spec’s examples', () => {
    const def = (pattern: string): LinkifierDefinition => ({
      pattern,
      urlTemplate: 'https://x/{id}',
      exampleInput: null,
      reverseTemplate: null,
      alternativeUrlTemplates: [],
    });
    expect(() => checkLinkifier(def('(foo'), compileRe2, false)).toThrow('Bad regular expression: missing ): (foo');
    expect(() => checkLinkifier(def('ZUL-(?P<id>\\d????)'), compileRe2, false)).toThrow(
      'Bad regular expression: bad repetition operator: ????',
    );
    checkLinkifier(def('ZUL-(?P<id>\\d+)'), compileRe2, false);
  });

  it('frees what it compiles (many compilations stay cheap)', () => {
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 300; i++) {
      const r = compileRe2(`#(?P<id>[0-9]+)-${i}`);
      if (r.ok) r.regex.search(`#1-${i}`);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });
  it('keeps rendering however many times patterns are compiled and scanned (no WebAssembly heap exhaustion)', () => {
    // Every message rendering compiles the organization's linkifiers and scans with them; the
    // RE2 objects of those scans must not pile up until a garbage collection that may come too
    // late: the WebAssembly heap does not grow, and once exhausted RE2 aborts for good.
    const pattern = prepareLinkifierPattern('#(?P<id>[0-9]+)');
    for (let i = 0; i < 3000; i++) {
      const r = compileRe2(pattern);
      if (!r.ok) throw new Error(r.error);
      expect(r.regex.scan(`see #${i} now`, (m) => m.end)).toHaveLength(1);
    }
  }, 60_000);
});
