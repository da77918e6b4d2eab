import { readFileSync } from 'node:fs';
import { EmojibaseEmojiCatalog } from '../../../src/emoji/catalog/emojibase-emoji-catalog.js';
import { noRenderTargets, type RenderTargets } from '../../../src/messages/application/message-renderer.js';
import { prepareLinkifierPattern } from '../../../src/messages/application/render-targets.resolver.js';
import { MarkdownItRenderer } from '../../../src/messages/rendering/markdown-it-renderer.js';
import { compileRe2 } from '../../../src/realm/infrastructure/re2-pattern-engine.js';

/*
 * Zulip's own Markdown test cases (a vendored subset; the fixture lists the cases left out and
 * why) against this renderer, then what the fixture cannot show: names resolved per
 * organization (channels, custom emoji, linkifiers), image previews, and robustness.
 */

interface Fixture {
  cases: { name: string; input: string; expected_output: string }[];
  skipped: Record<string, string>;
}
const fixture = JSON.parse(readFileSync(new URL('./zulip-markdown-cases.json', import.meta.url), 'utf8')) as Fixture;

const renderer = new MarkdownItRenderer();
const unicodeEmoji = new EmojibaseEmojiCatalog().unicode();
const targets = (extra: Partial<RenderTargets> = {}): RenderTargets => ({ ...noRenderTargets(), unicodeEmoji, realmUrl: 'http://zulip.testserver', ...extra });

/** Insignificant whitespace only: line breaks (and the spaces around them) between tags. */
const normalise = (html: string): string => html.replace(/>\s*\n\s*</g, '><').replace(/\s*\n\s*</g, '<').trim();

describe("Zulip's markdown_test_cases.json", () => {
  it('lists the cases it leaves out, with reasons', () => {
    expect(Object.keys(fixture.skipped).length).toBeGreaterThan(0);
    expect(fixture.cases.length).toBeGreaterThanOrEqual(100);
  });
  for (const c of fixture.cases) {
    it(c.name, () => {
      expect(normalise(renderer.render(c.input, targets()))).toBe(normalise(c.expected_output));
    });
  }
});

describe('names resolved for the organization', () => {
  const channels = new Map([
    ['general', { id: 5, name: 'general' }],
    ['Denmark two', { id: 9, name: 'Denmark two' }],
  ]);

  it('links channels, topics and messages as Zulip does', () => {
    const html = renderer.render('#**general** #**Denmark two>a.b/c** #**general>t@42** #**unknown**', targets({ channelsByName: channels }));
    expect(html).toBe(
      '<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-general">#general</a> ' +
        '<a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-Denmark-two/topic/a.2Eb.2Fc">#Denmark two &gt; a.b/c</a> ' +
        '<a class="message-link" href="/#narrow/channel/5-general/topic/t/near/42">#general &gt; t @ 💬</a> ' +
        '#<strong>unknown</strong></p>',
    );
  });

  it('links the empty topic as "general chat", and only after a space or an opening delimiter', () => {
    expect(renderer.render('#**general>**', targets({ channelsByName: channels }))).toBe(
      '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-general/topic/">#general &gt; <em>general chat</em></a></p>',
    );
    expect(renderer.render('x#**general**', targets({ channelsByName: channels }))).toBe('<p>x#<strong>general</strong></p>');
  });

  it("renders the Notification Bot's notice with its mention and channel link", () => {
    const html = renderer.render(
      '@_**Alice|5** created a new channel #**general**.',
      targets({ channelsByName: channels, usersById: new Map([[5, { id: 5, fullName: 'Alice' }]]) }),
    );
    expect(html).toBe(
      '<p><span class="user-mention silent" data-user-id="5">Alice</span> created a new channel ' +
        '<a class="stream" data-stream-id="5" href="/#narrow/channel/5-general">#general</a>.</p>',
    );
  });

  it('shows custom emoji as images, before Unicode emoji of the same name', () => {
    const customEmoji = new Map([['party_parrot', { name: 'party_parrot', url: '/user_avatars/2/emoji/images/7.gif' }]]);
    expect(renderer.render(':party_parrot: :cat:', targets({ customEmoji }))).toBe(
      '<p><img alt=":party_parrot:" class="emoji" src="/user_avatars/2/emoji/images/7.gif" title="party parrot"> ' +
        '<span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span></p>',
    );
  });

  it("applies linkifiers (RE2, Zulip's boundaries, RFC 6570 templates) in order, not inside links or code", () => {
    const compile = (p: string) => {
      const c = compileRe2(prepareLinkifierPattern(p));
      if (!c.ok) throw new Error(c.error);
      return c.regex;
    };
    const linkifiers = [
      { pattern: compile('#(?P<id>[0-9]+)'), urlTemplate: 'https://github.com/zulip/zulip/issues/{id}' },
      { pattern: compile('RT(?P<q>[a-z]+)'), urlTemplate: 'https://trac.example/search{?q}' },
    ];
    const html = renderer.render('See #123, (#45) x#6 #7a RTabc `#8` [#9](https://x.example) é#10', targets({ linkifiers }));
    expect(html).toBe(
      '<p>See <a href="https://github.com/zulip/zulip/issues/123">#123</a>, (<a href="https://github.com/zulip/zulip/issues/45">#45</a>) ' +
        'x#6 #7a <a href="https://trac.example/search?q=abc">RTabc</a> <code>#8</code> <a href="https://x.example">#9</a> é#10</p>',
    );
  });
});

describe('links and image previews', () => {
  it('previews image links after their paragraph, once per URL, with the link text as title', () => {
    const html = renderer.render('look [cat](/user_uploads/2/ab/cat.png) and /user_uploads/2/ab/cat.png\nhttps://x.example/a.jpg', targets());
    expect(normalise(html)).toBe(
      normalise(
        '<p>look <a href="/user_uploads/2/ab/cat.png">cat</a> and /user_uploads/2/ab/cat.png<br>\n<a href="https://x.example/a.jpg">https://x.example/a.jpg</a></p>\n' +
          '<div class="message_inline_image"><a href="/user_uploads/2/ab/cat.png" title="cat"><img src="/user_uploads/2/ab/cat.png"></a></div>' +
          '<div class="message_inline_image"><a href="https://x.example/a.jpg"><img src="https://x.example/a.jpg"></a></div>',
      ),
    );
  });

  it("previews an organization's upload only as the image it is: placeholder, thumbnail, or nothing (Zulip's user_upload_previews)", () => {
    const preview = { animated: false, originalWidth: 1200, originalHeight: 900, contentType: 'image/png', transcoded: null };
    const uploadPreviews = new Map([
      ['2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/cat.png', { ...preview, url: null }],
      ['2/cd/BBBBBBBBBBBBBBBBBBBBBBBB/dog.jpg', { ...preview, url: '/user_uploads/thumbnail/2/cd/BBBBBBBBBBBBBBBBBBBBBBBB/dog.jpg/840x560.webp' }],
      ['2/ef/CCCCCCCCCCCCCCCCCCCCCCCC/photo', { ...preview, url: null }],
    ]);
    const html = renderer.render(
      '[cat](/user_uploads/2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/cat.png) [dog](/user_uploads/2/cd/BBBBBBBBBBBBBBBBBBBBBBBB/dog.jpg) ' +
        '[no](/user_uploads/2/00/DDDDDDDDDDDDDDDDDDDDDDDD/other.png) [photo](/user_uploads/2/ef/CCCCCCCCCCCCCCCCCCCCCCCC/photo)',
      targets({ uploadPreviews }),
    );
    expect(html.split('\n')[1]).toBe(
      '<div class="message_inline_image"><a href="/user_uploads/2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/cat.png" title="cat">' +
        '<img class="image-loading-placeholder" data-original-dimensions="1200x900" src="/static/images/loading/loader-black.svg"></a></div>' +
        '<div class="message_inline_image"><a href="/user_uploads/2/cd/BBBBBBBBBBBBBBBBBBBBBBBB/dog.jpg" title="dog">' +
        '<img data-original-content-type="image/png" data-original-dimensions="1200x900" src="/user_uploads/thumbnail/2/cd/BBBBBBBBBBBBBBBBBBBBBBBB/dog.jpg/840x560.webp"></a></div>' +
        // No extension, but an image: previewed; a .png that is no known image: not.
        '<div class="message_inline_image"><a href="/user_uploads/2/ef/CCCCCCCCCCCCCCCCCCCCCCCC/photo" title="photo">' +
        '<img class="image-loading-placeholder" data-original-dimensions="1200x900" src="/static/images/loading/loader-black.svg"></a></div>',
    );
  });

  it('makes links into the organization relative and never adds target attributes', () => {
    expect(renderer.render('[f](http://zulip.testserver/user_uploads/2/ab/f.pdf) https://elsewhere.example', targets())).toBe(
      '<p><a href="user_uploads/2/ab/f.pdf">f</a> <a href="https://elsewhere.example">https://elsewhere.example</a></p>',
    );
  });

  it('marks code with Pygments classes', () => {
    const html = renderer.render('```python\ndef f():\n    return "x" # c\n```', targets());
    expect(html).toMatch(/^<div class="codehilite" data-code-language="Python"><pre><span><\/span><code><span class="k">def<\/span> <span class="nf">f<\/span>/);
    expect(html).toContain('<span class="s">&quot;x&quot;</span>');
  });
});

describe('robustness', () => {
  const alphabet = ['*', '_', '~', '`', '$', '#', '>', '<', ':', '@', '[', ']', '(', ')', '!', '|', '-', '\n', ' ', 'a', '1', 'é', '💩', '\u200d', '\ufe0f', '\\', '{', '}', '"', "'", '&', 'time:', 'http://x.y/', '```', '~~~', 'quote', 'spoiler', 'math', '**', '$$', ':cat:', '#**general**'];
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const channels = new Map([['general', { id: 5, name: 'general' }]]);
  const linkifier = compileRe2(prepareLinkifierPattern('#(?P<id>[0-9]+)'));
  const t = targets({ channelsByName: channels, linkifiers: linkifier.ok ? [{ pattern: linkifier.regex, urlTemplate: 'https://x.example/{id}' }] : [] });

  it('never throws on thousands of random and malformed inputs, and balances its tags', { timeout: 60_000 }, () => {
    for (let n = 0; n < 3000; n++) {
      const len = Math.floor(random() * 60);
      let s = '';
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(random() * alphabet.length)];
      const html = renderer.render(s, t);
      for (const tag of ['p', 'blockquote', 'div', 'code', 'a', 'em', 'strong', 'del', 'ul', 'ol', 'li']) {
        const opens = (html.match(new RegExp(`<${tag}[ >]`, 'g')) ?? []).length;
        const closes = (html.match(new RegExp(`</${tag}>`, 'g')) ?? []).length;
        expect({ input: s, tag, opens }).toEqual({ input: s, tag, opens: closes });
      }
      expect(html).not.toMatch(/<script/i);
    }
  });

  // No timed assertion (speed belongs in benchmarks): this proves neither input throws or hangs.
  it('renders deep nesting and long inputs', { timeout: 60_000 }, () => {
    const deep = `${'```quote\n'.repeat(50)}x${'\n```'.repeat(50)}`;
    expect(() => renderer.render(deep, t)).not.toThrow();
    const long = 'word *em* :cat: #1 $$x$$ '.repeat(400);
    expect(renderer.render(long, t)).toContain('<em>em</em>');
  });
});
