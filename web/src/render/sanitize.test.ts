import { isSafeUrl, sanitizeHtml } from './sanitize';

const html = (s: string) => {
  const div = document.createElement('div');
  div.append(sanitizeHtml(s));
  return div;
};

describe('message HTML', () => {
  it('removes javascript: and vbscript: links but keeps the text', () => {
    const div = html('<p><a href="javascript:alert(1)">click</a> <a href=" JaVa\tScRiPt:alert(2)">two</a> <a href="vbscript:x">three</a></p>');
    expect(div.querySelectorAll('a[href]')).toHaveLength(0);
    expect(div.textContent).toBe('click two three');
  });

  it('keeps ordinary links, opening outside ones in a new tab', () => {
    const div = html('<p><a href="https://example.com/">out</a> <a href="/user_uploads/1/ab/x.png">file</a> <a href="#narrow/channel/10-general">in</a></p>');
    const [out, file, inside] = div.querySelectorAll('a');
    expect(out.getAttribute('target')).toBe('_blank');
    expect(out.getAttribute('rel')).toBe('noopener noreferrer');
    expect(file.getAttribute('href')).toBe('/user_uploads/1/ab/x.png');
    expect(inside.hasAttribute('target')).toBe(false);
  });

  it('drops scripts, frames, forms and event handlers', () => {
    const div = html('<p onclick="x()">a<script>window.pwned=1</script><iframe src="https://e.com"></iframe><img src="x" onerror="pwned=2"><form><input></form><svg><script>1</script></svg></p>');
    expect(div.querySelector('script, iframe, form, input, svg')).toBeNull();
    expect(div.querySelector('[onclick], [onerror]')).toBeNull();
    expect(div.querySelector('img')?.getAttribute('src')).toBe('x');
  });

  it('keeps images from data: only for pictures', () => {
    expect(isSafeUrl('data:image/png;base64,AAAA', 'src')).toBe(true);
    expect(isSafeUrl('data:text/html;base64,AAAA', 'src')).toBe(false);
    expect(isSafeUrl('data:image/png;base64,AAAA', 'href')).toBe(false);
    expect(isSafeUrl('https://example.com')).toBe(true);
    expect(isSafeUrl('/relative')).toBe(true);
  });

  it('shows escaped markup as text', () => {
    const div = html('<p>Look &lt;b&gt;bold&lt;/b&gt; &lt;script&gt;window.pwned = 1&lt;/script&gt;</p>');
    expect(div.querySelector('b, script')).toBeNull();
    expect(div.textContent).toBe('Look <b>bold</b> <script>window.pwned = 1</script>');
  });

  it('gives inline images a text alternative (the file name)', () => {
    const div = html('<div class="message_inline_image"><a href="/user_uploads/1/ab/dot.png" title="dot.png"><img src="/user_uploads/1/ab/dot.png"></a></div><p><img src="/x.png"></p>');
    const [preview, other] = div.querySelectorAll('img');
    expect(preview.getAttribute('alt')).toBe('dot.png');
    expect(other.getAttribute('alt')).toBe('');
  });

  it('puts the emoji character in emoji spans', () => {
    const div = html('<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>');
    expect(div.textContent).toBe('🐙');
    expect(div.querySelector('span')?.getAttribute('aria-label')).toBe('octopus');
  });
});

describe('spoilers', () => {
  it('get a button header', () => {
    const div = html('<div class="spoiler-block"><div class="spoiler-header"><p>Spoiler</p></div><div class="spoiler-content" aria-hidden="true"><p>Hidden</p></div></div>');
    const header = div.querySelector('.spoiler-header')!;
    expect(header.getAttribute('role')).toBe('button');
    expect(header.getAttribute('aria-expanded')).toBe('false');
  });
});
