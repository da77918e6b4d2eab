import { highlightString, matchLocations, searchFields, searchWords } from './search-highlight.js';

describe('search highlighting (Zulip highlight_string / get_search_fields)', () => {
  it('takes the words of non-negated search terms', () => {
    expect(
      searchWords([
        { text: 'pizza  party', negated: false },
        { text: 'pasta', negated: true },
        { text: ' ', negated: false },
      ]),
    ).toEqual(['pizza', 'party']);
  });

  it('finds the words case-insensitively, in order, without overlaps', () => {
    expect(matchLocations('Pizza pizzas PIZZA', ['pizza'])).toEqual([
      [0, 5],
      [6, 5],
      [13, 5],
    ]);
    expect(matchLocations('abcd', ['abc', 'bcd'])).toEqual([[0, 3]]);
    expect(matchLocations('a.b axb', ['a.b'])).toEqual([[0, 3]]);
  });

  it('wraps matches in highlight spans, except inside tags', () => {
    const html = '<p><a href="https://pizza.example">pizza</a></p>';
    expect(highlightString(html, matchLocations(html, ['pizza']))).toBe('<p><a href="https://pizza.example"><span class="highlight">pizza</span></a></p>');
  });

  it('gives the rendering and the escaped topic unchanged without search words', () => {
    expect(searchFields('<p>x</p>', 'fish & chips', [])).toEqual({ match_content: '<p>x</p>', match_subject: 'fish &amp; chips' });
    expect(searchFields('<p>fish</p>', 'Fish & chips', ['fish'])).toEqual({
      match_content: '<p><span class="highlight">fish</span></p>',
      match_subject: '<span class="highlight">Fish</span> &amp; chips',
    });
  });
});
