import { DomainError } from '../shared/domain-error.js';
import {
  checkLinkifier,
  checkLinkifierOrder,
  expandReverseTemplate,
  type LinkifierDefinition,
  normaliseLinkifier,
  normaliseOptionalText,
  type PatternCompiler,
} from './linkifier.js';
import { pythonRepr, uniqueTogetherMessage } from './model-validation.js';

/** A stand-in for RE2 built on JavaScript's RegExp (the real adapter has its own tests). */
const fakeCompiler: PatternCompiler = (pattern) => {
  let re: RegExp;
  try {
    re = new RegExp(pattern.replaceAll('(?P<', '(?<'), 'u');
  } catch {
    return { ok: false, error: `cannot parse: ${pattern}` };
  }
  const groupNames = [...pattern.matchAll(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]);
  return { ok: true, regex: { groupNames, search: (text) => (re.exec(text)?.groups as Record<string, string>) ?? (re.test(text) ? {} : null), scan: () => [] } };
};

const def = (o: Partial<LinkifierDefinition> = {}): LinkifierDefinition => ({
  pattern: '#(?P<id>[0-9]+)',
  urlTemplate: 'https://github.com/zulip/zulip/issues/{id}',
  exampleInput: null,
  reverseTemplate: null,
  alternativeUrlTemplates: [],
  ...o,
});

function failure(f: () => void): { msg: string; errors: unknown } {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return { msg: e.msg, errors: e.data.errors };
    throw e;
  }
  throw new Error('no error');
}

describe('linkifier definitions', () => {
  it('accepts a pattern whose groups and template variables agree', () => {
    expect(() => checkLinkifier(def(), fakeCompiler, false)).not.toThrow();
    expect(() => checkLinkifier(def({ pattern: 'no-groups', urlTemplate: '$not_a_url$' }), fakeCompiler, false)).not.toThrow();
    const github = def({
      pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)',
      urlTemplate: 'https://github.com/{org}/{repo}/issues/{id}',
      exampleInput: 'zulip/zulip#123',
      reverseTemplate: '{org}/{repo}#{id}',
      alternativeUrlTemplates: ['https://github.com/{org}/{repo}/pull/{id}'],
    });
    expect(() => checkLinkifier(github, fakeCompiler, false)).not.toThrow();
    // The same definition with its pattern taken is refused: the accepting calls above can fail.
    expect(failure(() => checkLinkifier(github, fakeCompiler, true)).msg).toBe('Realm filter with this Realm and Pattern already exists.');
  });

  it('trims pattern and templates and turns empty optional texts into null', () => {
    expect(
      normaliseLinkifier({
        pattern: '  #(?P<id>\\d+) ',
        urlTemplate: ' https://x/{id}\n',
        exampleInput: '   ',
        reverseTemplate: ' #{id} ',
        alternativeUrlTemplates: [' https://y/{id} '],
      }),
    ).toEqual({
      pattern: '#(?P<id>\\d+)',
      urlTemplate: 'https://x/{id}',
      exampleInput: null,
      reverseTemplate: '#{id}',
      alternativeUrlTemplates: ['https://y/{id}'],
    });
    expect(normaliseOptionalText(undefined)).toBeNull();
    expect(normaliseOptionalText('')).toBeNull();
  });

  it('reports blank fields before problems of the whole object, with every problem in errors', () => {
    expect(failure(() => checkLinkifier(def({ pattern: '' }), fakeCompiler, false))).toEqual({
      msg: 'This field cannot be blank.',
      errors: {
        pattern: ['This field cannot be blank.'],
        __all__: ["Group 'id' in URL template is not present in linkifier pattern."],
      },
    });
    expect(failure(() => checkLinkifier(def({ urlTemplate: '' }), fakeCompiler, false))).toEqual({
      msg: 'This field cannot be blank.',
      errors: {
        url_template: ['This field cannot be blank.'],
        __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
      },
    });
  });

  it('refuses an invalid URL template and then skips the variable checks', () => {
    expect(failure(() => checkLinkifier(def({ urlTemplate: '{id' }), fakeCompiler, false))).toEqual({
      msg: 'Invalid URL template.',
      errors: { url_template: ['Invalid URL template.'] },
    });
    // The field problem comes first even when the pattern does not compile.
    expect(failure(() => checkLinkifier(def({ pattern: '(foo', urlTemplate: '{bar++}' }), fakeCompiler, false))).toEqual({
      msg: 'Invalid URL template.',
      errors: { url_template: ['Invalid URL template.'], __all__: ['Bad regular expression: cannot parse: (foo'] },
    });
  });

  it('checks every alternative URL template', () => {
    expect(failure(() => checkLinkifier(def({ alternativeUrlTemplates: ['https://ok/{id}', '{id'] }), fakeCompiler, false)).msg).toBe(
      'Invalid URL template.',
    );
    expect(failure(() => checkLinkifier(def({ alternativeUrlTemplates: [''] }), fakeCompiler, false)).errors).toEqual({
      alternative_url_templates: ['Invalid URL template.'],
    });
  });

  it('reports the compiler’s text for a bad pattern', () => {
    expect(failure(() => checkLinkifier(def({ pattern: '(foo' }), fakeCompiler, false)).msg).toBe('Bad regular expression: cannot parse: (foo');
  });

  it('names the smallest variable missing from the pattern, then the smallest group missing from the template', () => {
    const msg = (pattern: string, urlTemplate: string) => failure(() => checkLinkifier(def({ pattern, urlTemplate }), fakeCompiler, false)).msg;
    expect(msg('ZUL-(?P<id>\\d+)', 'https://x/{hello}')).toBe("Group 'hello' in URL template is not present in linkifier pattern.");
    expect(msg('ZUL-(?P<id>\\d+)', 'https://x/{zeta}{beta}')).toBe("Group 'beta' in URL template is not present in linkifier pattern.");
    expect(msg('ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', 'https://x/{hello}')).toBe("Group 'id' in linkifier pattern is not present in URL template.");
    expect(msg('(?P<b>x)(?P<a>y)', '$fgfg')).toBe("Group 'a' in linkifier pattern is not present in URL template.");
    expect(msg('(?P<B>x)(?P<a>y)', '{a}')).toBe("Group 'B' in linkifier pattern is not present in URL template.");
  });

  it('refuses a pattern the organization already has, unless the pattern itself is blank', () => {
    expect(failure(() => checkLinkifier(def(), fakeCompiler, true))).toEqual({
      msg: 'Realm filter with this Realm and Pattern already exists.',
      errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
    });
    expect(failure(() => checkLinkifier(def({ pattern: '', urlTemplate: 'https://x' }), fakeCompiler, true)).errors).toEqual({
      pattern: ['This field cannot be blank.'],
    });
    // Both a problem of the object and the clash are listed.
    expect(failure(() => checkLinkifier(def({ urlTemplate: 'https://x' }), fakeCompiler, true)).errors).toEqual({
      __all__: [
        "Group 'id' in linkifier pattern is not present in URL template.",
        'Realm filter with this Realm and Pattern already exists.',
      ],
    });
  });

  describe('example input and auto-conversion field', () => {
    const check = (o: Partial<LinkifierDefinition>) => checkLinkifier(def(o), fakeCompiler, false);

    it('needs an example input for a reverse template (a plain error, before anything else of the object)', () => {
      expect(failure(() => check({ reverseTemplate: '#{id}' }))).toEqual({
        msg: 'Example text is required when auto-conversion field is set.',
        errors: undefined,
      });
    });

    it('requires the pattern to match the example input somewhere', () => {
      check({ exampleInput: 'see #12 there' });
      expect(failure(() => check({ exampleInput: 'no number' })).msg).toBe('Example input does not match the linkifier pattern.');
    });

    it('requires the reverse template to give back the example input exactly', () => {
      check({ exampleInput: '#12', reverseTemplate: '#{id}' });
      expect(failure(() => check({ exampleInput: 'see #12', reverseTemplate: '#{id}' })).msg).toBe(
        'Example text does not match auto-conversion field.',
      );
      expect(failure(() => check({ exampleInput: '#12', reverseTemplate: '#{id}!' })).msg).toBe('Example text does not match auto-conversion field.');
    });

    it('reports malformed reverse templates', () => {
      expect(failure(() => check({ exampleInput: '#12', reverseTemplate: '#{id' })).msg).toBe(
        "Invalid auto-conversion field: missing '}' character.",
      );
      expect(failure(() => check({ exampleInput: '#12', reverseTemplate: '#{}' })).msg).toBe('Invalid auto-conversion field: empty field name.');
      expect(failure(() => check({ exampleInput: '#12', reverseTemplate: '#{num}' })).msg).toBe(
        "Group 'num' in auto-conversion field is not present in linkifier pattern.",
      );
    });

    it('reads {{ and }} as literal braces', () => {
      const groups = new Set(['id']);
      expect(expandReverseTemplate('{{#{id}}}', { id: '7' }, groups)).toBe('{#7}');
      expect(expandReverseTemplate('}}x{{', {}, groups)).toBe('}x{');
      expect(expandReverseTemplate('a}b', {}, groups)).toBe('a}b');
      expect(expandReverseTemplate('{id}', {}, groups)).toBe('');
      check({ pattern: '\\{(?P<id>[0-9]+)\\}', urlTemplate: 'https://x/{id}', exampleInput: '{12}', reverseTemplate: '{{{id}}}' });
    });
  });
});

describe('linkifier order', () => {
  it('needs every existing linkifier exactly once', () => {
    checkLinkifierOrder([3, 1, 2], [1, 2, 3]);
    checkLinkifierOrder([], []);
    expect(() => checkLinkifierOrder([1, 1, 2], [1, 2])).toThrow('The ordered list must not contain duplicated linkifiers');
    expect(() => checkLinkifierOrder([1], [1, 2])).toThrow('The ordered list must enumerate all existing linkifiers exactly once');
    expect(() => checkLinkifierOrder([1, 2, 3], [1, 2])).toThrow('The ordered list must enumerate all existing linkifiers exactly once');
    expect(() => checkLinkifierOrder([1, 4], [1, 2])).toThrow('The ordered list must enumerate all existing linkifiers exactly once');
  });
});

describe('Django-style texts', () => {
  it('writes unique_together clashes and Python reprs like Zulip', () => {
    expect(uniqueTogetherMessage('Realm playground', ['Realm', 'Pygments language', 'Name'])).toBe(
      'Realm playground with this Realm, Pygments language and Name already exists.',
    );
    expect(uniqueTogetherMessage('X', ['A'])).toBe('X with this A already exists.');
    expect(pythonRepr('id')).toBe("'id'");
    expect(pythonRepr("it's")).toBe('"it\'s"');
    expect(pythonRepr('a\\b\n')).toBe("'a\\\\b\\n'");
  });
});
