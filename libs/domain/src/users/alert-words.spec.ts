import { alertWordText, cleanAlertWords, containsAlertWord, newAlertWords } from './alert-words.js';

const alerts = (content: string, word: string) => containsAlertWord(alertWordText(content), word.toLowerCase());

describe('cleanAlertWords', () => {
  it('strips the words and drops blank ones (Zulip’s clean_alert_words)', () => {
    expect(cleanAlertWords(['one ', '\n two', 'three', '   ', ''])).toEqual(['one', 'two', 'three']);
  });
});

describe('newAlertWords', () => {
  it('keeps only words whose lower case is new, one per lower case', () => {
    expect(newAlertWords(['alert', 'multi-word word', '☃'], ['ALert', 'ALERT', 'fresh'])).toEqual(['fresh']);
  });

  it('spells a word as last sent, in the order first sent', () => {
    expect(newAlertWords([], ['Milk', 'cookies', 'MILK', 'milk'])).toEqual(['milk', 'cookies']);
  });

  it('adds nothing for nothing', () => {
    expect(newAlertWords(['a'], [])).toEqual([]);
  });
});

describe('matching (Zulip’s test_alert_flags)', () => {
  it.each([
    ['Normal alert one time', 'one'],
    ['Normal alert one', 'one'],
    ['two normal alerts', 'two'],
    ['This one? should alert', 'one'],
    ['Definitely time for three.', 'three'],
    ["One two three o'clock", 'one'],
    ["One o'clock", 'one'],
    ["Case of ONE, won't stop me", 'one'],
    ['a multi-word word here', 'multi-word word'],
    ['snow ☃ man', '☃'],
    ['(one)', 'one'],
    ['[one]', 'one'],
    ['"one', 'one'],
    ['>one!', 'one'],
    ['*one*', 'one'],
    ['`one`', 'one'],
    ["it's one;", 'one'],
    ['one:', 'one'],
    ['x\tone', 'one'],
    ['x\r\none', 'one'],
  ])('alerts on %j for %j', (content, word) => {
    expect(alerts(content, word)).toBe(true);
  });

  it.each([
    ["Don't alert on http://t.co/one/ URLs", 'one'],
    ["Don't alert on http://t.co/one URLs", 'one'],
    ["Don't alert on clone, twofold or seventytwofold", 'one'],
    ["Don't alert on clone, twofold or seventytwofold", 'two'],
    ['say "one"', 'one'], // `"` is not allowed after a word
    ['x one(', 'one'],
    ['x one-two', 'one'],
    ['x {one}', 'one'],
    ['nothing here', 'one'],
  ])('does not alert on %j for %j', (content, word) => {
    expect(alerts(content, word)).toBe(false);
  });

  it('checks every occurrence, overlapping ones included', () => {
    expect(alerts('clone and one', 'one')).toBe(true);
    expect(alerts('aaa aa', 'aa')).toBe(true);
    expect(alerts('xaaaa', 'aa')).toBe(false);
  });

  it('needs the start of the text or an allowed character before a match (not Zulip’s off-by-one at the second character)', () => {
    expect(alerts('one.', 'one')).toBe(true);
    expect(alerts('Done.', 'one')).toBe(false);
    expect(alerts('😀one', 'one')).toBe(false);
    expect(alerts('xDone.', 'one')).toBe(false);
  });
});

describe('alertWordText', () => {
  it('lower-cases and leaves plain text alone', () => {
    expect(alertWordText('Hello\nWORLD')).toBe('hello\nworld');
  });

  it('drops STX/ETX and normalises line ends first, as Python-Markdown does', () => {
    expect(alertWordText('a\u0002b\u0003c\r\nd\re')).toBe('abc\nd\ne');
    expect(alerts('xx\u0002one', 'one')).toBe(false);
    expect(alerts('x \u0002one', 'one')).toBe(true);
  });

  it('takes fenced code and math blocks out, closed or not', () => {
    expect(alerts('```\none\n```', 'one')).toBe(false);
    expect(alerts('~~~ python\nx = one\n~~~', 'one')).toBe(false);
    expect(alerts('```math\none\n```', 'one')).toBe(false);
    expect(alerts('look:\n```\none', 'one')).toBe(false);
    expect(alerts('```\ncode\n```\none after', 'one')).toBe(true);
    expect(alerts('````\n```\none\n````', 'one')).toBe(false);
  });

  it('keeps quote and spoiler blocks, their header included, and code inside them out', () => {
    expect(alerts('```quote\nsomeone said one\n```', 'one')).toBe(true);
    expect(alerts('```quoted\none\n```', 'one')).toBe(true);
    expect(alerts('```spoiler Guess one\nnothing\n```', 'one')).toBe(true);
    expect(alerts('```spoiler title\nthe one\n```', 'one')).toBe(true);
    expect(alerts('```quote\n~~~\none\n~~~\n```', 'one')).toBe(false);
    expect(alertWordText('```quote\na\nb\n```')).toBe('\n> a\n> b\n');
  });

  it('needs the fence at the start of the line, and inline code still counts', () => {
    expect(alerts(' ```\none\n```', 'one')).toBe(true);
    expect(alerts('use `one` here', 'one')).toBe(true);
    expect(alerts('``` `\none', 'one')).toBe(true);
  });

  it('expands tabs to the next multiple of four columns', () => {
    expect(alertWordText('a\tb\n\tc')).toBe('a   b\n    c');
  });
});
