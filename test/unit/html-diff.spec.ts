import { LxmlStyleHtmlDiffer } from '../../src/messages/rendering/html-diff.js';
import { parseFragment, serialize } from '../../src/messages/rendering/html-tree.js';
import { SequenceMatcher } from '../../src/messages/rendering/sequence-matcher.js';

const diff = (a: string, b: string) => new LxmlStyleHtmlDiffer().diff(a, b);

describe('content_html_diff (Zulip highlight_html_differences over lxml htmldiff)', () => {
  it('gives the example of Zulip API documentation for a replaced paragraph', () => {
    expect(diff('<p>Hello!</p>', '<p>Howdy!</p>')).toBe(
      '<div><p><span class="highlight_text_inserted">Howdy!</span></p> <p><span class="highlight_text_deleted">Hello!</span></p></div>',
    );
  });

  it('marks an inserted and a deleted word inside a paragraph', () => {
    expect(diff('<p>Hello world</p>', '<p>Hello brave world</p>')).toBe('<div><p>Hello <span class="highlight_text_inserted">brave</span> world</p></div>');
    expect(diff('<p>Hello brave world</p>', '<p>Hello world</p>')).toBe('<div><p>Hello <span class="highlight_text_deleted">brave</span> world</p></div>');
  });

  it('leaves identical renderings unmarked', () => {
    expect(diff('<p>same <strong>text</strong></p>', '<p>same <strong>text</strong></p>')).toBe('<div><p>same <strong>text</strong></p></div>');
  });

  it('shows a changed link target once, as lxml does', () => {
    const out = diff('<p><a href="https://a.example">site</a></p>', '<p><a href="https://b.example">site</a></p>');
    expect(out).toContain('<span class="highlight_text_inserted"> Link: https://b.example</span>');
    expect(out).toContain('<span class="highlight_text_deleted"> Link: https://a.example</span>');
  });
});

describe('the HTML tree', () => {
  it('parses and serializes like lxml (entities decoded, text re-escaped, void elements unclosed)', () => {
    const root = parseFragment('<p>a &amp; b<br>\nc &quot;d&quot;</p>\n<hr>');
    expect(serialize(root, false)).toBe('<div><p>a &amp; b<br>\nc "d"</p>\n<hr></div>');
  });

  it('drops blank text where libxml2 does: leading, after elements that take no text, in tables', () => {
    expect(serialize(parseFragment('  <hr>\n<p>x</p>'), false)).toBe('<div><hr><p>x</p></div>');
    expect(serialize(parseFragment('<table>\n<tr><td>1</td></tr>\n</table>'), false)).toBe('<div><table><tr><td>1</td></tr></table></div>');
    expect(serialize(parseFragment('<ul>\n<li>a</li>\n</ul>'), false)).toBe('<div><ul>\n<li>a</li>\n</ul></div>');
  });
});

describe('SequenceMatcher (difflib)', () => {
  it('finds difflib opcodes', () => {
    const words = 'so the quick brown fox jumps over the lazy dog'.split(' ');
    const changed = 'so the quick red fox jumps over the lazy cat'.split(' ');
    expect(new SequenceMatcher(words, changed).opcodes()).toEqual([
      ['equal', 0, 3, 0, 3],
      ['replace', 3, 4, 3, 4],
      ['equal', 4, 9, 4, 9],
      ['replace', 9, 10, 9, 10],
    ]);
  });

  it('ignores equal runs too short to matter amid changes (lxml InsensitiveSequenceMatcher)', () => {
    expect(new SequenceMatcher(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd']).opcodes()).toEqual([
      ['replace', 0, 2, 0, 2],
      ['equal', 2, 4, 2, 4],
    ]);
  });
});
