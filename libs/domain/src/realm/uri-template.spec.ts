import { isValidUriTemplate, parseUriTemplate } from './uri-template.js';

describe('RFC 6570 URI templates', () => {
  it.each([
    '$not_a_url$',
    'https://example.com/%ba/{id}',
    'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    'http://example.com/',
    'https://user:password@example.com/',
    'https://example.com/@user/thing',
    'https://example.com/!path',
    'https://example.com/foo[bar]',
    'https://example.com/{foo}{bars}',
    'https://example.com/?foo={foo}',
    'https://example.com/words%20with%20spaces',
    'https://example.com/encoded%2Fwith%2Fupper',
    'https://example.com{/foo,bar,baz}',
    'https://example.com/{?foo*}',
    'https://example.com/{+foo,bar}',
    'https://chat{.domain}.com/{#foo}',
    'https://x/{;a}{&b}{a.b}{%41b}{var:9999}',
    'https://例え.jp/{id}',
    '',
  ])('accepts %j', (t) => expect(isValidUriTemplate(t)).toBe(true));

  it.each([
    '{id',
    'https://example.com/{foo',
    'https://x/{{}',
    'https://example.com/{//foo}',
    '{bar++}',
    'https://x.com?test={test',
    'id}',
    '{}',
    '{,a}',
    '{=a}',
    '{!a}',
    '{@a}',
    '{|a}',
    '{a,}',
    '{a.}',
    '{.}',
    '{a..b}',
    '{a:0}',
    '{a:10000}',
    '{a:}',
    '{a*:3}',
    '{a b}',
    '{a-b}',
    '{%4}',
    'https://x/a b',
    'https://x/"a"',
    "https://x/'a'",
    'https://x/<a>',
    'https://x/a\\b',
    'https://x/a^b',
    'https://x/a`b',
    'https://x/a|b',
    'https://example.com/%%',
    'https://example.com/%zz',
    'https://x/\u0007',
    'https://x/\ud800',
  ])('refuses %j', (t) => expect(isValidUriTemplate(t)).toBe(false));

  it('lists the variable names once each, in order of appearance', () => {
    expect(
      parseUriTemplate('https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}')?.variableNames,
    ).toEqual(['zone', 'domain', 'location', 'id', 'name', 'chapter', 'fragment']);
    expect(parseUriTemplate('{a}{+a,b*}{x.y}{%41}')?.variableNames).toEqual(['a', 'b', 'x.y', '%41']);
    expect(parseUriTemplate('$fgfg')?.variableNames).toEqual([]);
  });
});
