import { DomainError } from '../shared/domain-error.js';
import { checkPlayground, checkPygmentsLanguage, isKnownPygmentsLanguage, normalisePlayground, type PlaygroundDefinition } from './playground.js';

const p = (o: Partial<PlaygroundDefinition> = {}): PlaygroundDefinition => ({
  name: 'Python playground',
  pygmentsLanguage: 'Python',
  urlTemplate: 'https://python.example.com{code}',
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

describe('pygments_language', () => {
  it('accepts lexer names and aliases, in any case', () => {
    for (const l of ['Python', 'python', 'py', 'PY', 'JavaScript', 'js', 'C++', 'c++', 'Objective-C', 'text', 'math', 'quote', 'spoiler']) {
      expect(isKnownPygmentsLanguage(l), l).toBe(true);
      checkPygmentsLanguage(l);
    }
    checkPygmentsLanguage('  Python ');
    checkPygmentsLanguage('Python\n');
    checkPygmentsLanguage('');
    checkPygmentsLanguage('   ');
  });

  it('refuses more than 40 characters, then characters outside the allowed set, then unknown languages', () => {
    expect(() => checkPygmentsLanguage('a'.repeat(41))).toThrow('pygments_language is too long (limit: 40 characters)');
    expect(() => checkPygmentsLanguage('a$b$c')).toThrow('Invalid characters in pygments language');
    expect(() => checkPygmentsLanguage('Python\n\n')).toThrow('Invalid characters in pygments language');
    expect(() => checkPygmentsLanguage('é')).toThrow('Invalid characters in pygments language');
    expect(() => checkPygmentsLanguage('Klingon')).toThrow("Invalid pygments language 'Klingon'");
    // "+-." is a range in Zulip's character class, so "," passes that check.
    expect(() => checkPygmentsLanguage('a,b')).toThrow("Invalid pygments language 'a,b'");
    expect(() => checkPygmentsLanguage(' Klingon ')).toThrow("Invalid pygments language 'Klingon'");
  });
});

describe('playground definitions', () => {
  it('accepts a template whose only variable is code', () => {
    expect(() => checkPlayground(p(), false)).not.toThrow();
    expect(() => checkPlayground(p({ urlTemplate: 'https://x.com/?q={code}' }), false)).not.toThrow();
    expect(() => checkPlayground(p({ urlTemplate: 'https://x.com{?code}' }), false)).not.toThrow();
    expect(() => checkPlayground(p({ urlTemplate: 'https://x.com{?code,lang}' }), false)).toThrow('"code" should be the only variable present in the URL template');
  });

  it('trims the three texts', () => {
    expect(normalisePlayground({ name: ' n ', pygmentsLanguage: ' Python ', urlTemplate: ' https://x{code} ' })).toEqual({
      name: 'n',
      pygmentsLanguage: 'Python',
      urlTemplate: 'https://x{code}',
    });
  });

  it('refuses blank fields in field order (URL template, name, language)', () => {
    expect(failure(() => checkPlayground(p({ name: '', pygmentsLanguage: '', urlTemplate: '' }), false))).toEqual({
      msg: 'This field cannot be blank.',
      errors: {
        url_template: ['This field cannot be blank.'],
        name: ['This field cannot be blank.'],
        pygments_language: ['This field cannot be blank.'],
        __all__: ['Missing the required variable "code" in the URL template'],
      },
    });
    expect(failure(() => checkPlayground(p({ name: '' }), false)).errors).toEqual({ name: ['This field cannot be blank.'] });
  });

  it('checks the template', () => {
    expect(failure(() => checkPlayground(p({ urlTemplate: 'https://x.com?test={test' }), false))).toEqual({
      msg: 'Invalid URL template.',
      errors: { url_template: ['Invalid URL template.'] },
    });
    expect(failure(() => checkPlayground(p({ urlTemplate: 'https://x.com{?test}' }), false)).msg).toBe(
      'Missing the required variable "code" in the URL template',
    );
    expect(failure(() => checkPlayground(p({ urlTemplate: 'https://x.com{?test,code}' }), false)).msg).toBe(
      '"code" should be the only variable present in the URL template',
    );
  });

  it('refuses a (language, name) pair the organization already has', () => {
    expect(failure(() => checkPlayground(p(), true))).toEqual({
      msg: 'Realm playground with this Realm, Pygments language and Name already exists.',
      errors: { __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] },
    });
    expect(failure(() => checkPlayground(p({ urlTemplate: 'https://x{?a}' }), true)).errors).toEqual({
      __all__: [
        'Missing the required variable "code" in the URL template',
        'Realm playground with this Realm, Pygments language and Name already exists.',
      ],
    });
  });
});
