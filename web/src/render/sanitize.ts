import { emojiChar } from '../emoji/emoji';

/**
 * The server's rendered message HTML made safe to insert: parsed in an inert <template>, then
 * scripts, frames, forms, event handler attributes and `javascript:` (and other script-bearing)
 * URLs removed. The server sanitizes already; this is the page's own guard. Emoji spans get the
 * emoji character (the server sends `:name:` text for an image sheet this app does not load).
 */

const DROP_ELEMENTS = new Set(['SCRIPT', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'FORM', 'INPUT', 'BUTTON', 'TEXTAREA', 'SELECT', 'LINK', 'META', 'BASE', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'svg', 'MATH-SCRIPT']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'srcset', 'poster', 'background', 'data', 'cite', 'ping']);

/** Whether a URL is safe in a link or image: not javascript:, vbscript:, or data: (other than images in src). */
export function isSafeUrl(value: string, attribute = 'href'): boolean {
  // Browsers ignore control characters and whitespace inside the scheme.
  // eslint-disable-next-line no-control-regex
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1];
  if (scheme === undefined) return true;
  if (scheme === 'javascript' || scheme === 'vbscript') return false;
  if (scheme === 'data') return attribute === 'src' && /^data:image\/(png|gif|jpe?g|webp);/.test(compact);
  return true;
}

function cleanElement(el: Element): void {
  for (const attr of [...el.attributes]) {
    const name = attr.name.toLowerCase();
    if (name.startsWith('on') || name === 'style' && /expression|url\s*\(\s*['"]?\s*javascript/i.test(attr.value)) {
      el.removeAttribute(attr.name);
    } else if (URL_ATTRIBUTES.has(name) && !isSafeUrl(attr.value, name === 'src' ? 'src' : 'href')) {
      el.removeAttribute(attr.name);
    } else if (name === 'srcdoc') {
      el.removeAttribute(attr.name);
    }
  }
  // Spoiler headers open their spoiler (MessageHtml): a button for the keyboard and screen readers.
  if (el.classList.contains('spoiler-header')) {
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', '0');
    el.setAttribute('aria-expanded', 'false');
  }
  // Images the server shows (inline previews) are named after their link's title (the file name).
  if (el.tagName === 'IMG' && !el.hasAttribute('alt')) {
    el.setAttribute('alt', el.closest('a')?.getAttribute('title') ?? '');
  }
  if (el.tagName === 'A') {
    const href = el.getAttribute('href');
    if (href !== null && !href.startsWith('#') && !href.startsWith('/')) {
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    }
  }
}

/** `emoji emoji-1f419` spans: their text becomes the character. */
function fillEmoji(el: Element): void {
  if (!el.classList.contains('emoji') || el.tagName !== 'SPAN' || el.querySelector('img')) return;
  const cls = [...el.classList].find((c) => /^emoji-[0-9a-f]+(-[0-9a-f]+)*$/.test(c));
  if (!cls) return;
  const char = emojiChar(cls.slice('emoji-'.length));
  if (char !== '') el.textContent = char;
}

/** A safe fragment of the given HTML. */
export function sanitizeHtml(html: string, doc: Document = document): DocumentFragment {
  const template = doc.createElement('template');
  template.innerHTML = html;
  const fragment = template.content;
  const walk = (parent: ParentNode) => {
    for (const node of [...parent.childNodes]) {
      if (node.nodeType === Node.COMMENT_NODE) {
        node.remove();
        continue;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      const el = node as Element;
      if (DROP_ELEMENTS.has(el.tagName) || DROP_ELEMENTS.has(el.tagName.toUpperCase())) {
        el.remove();
        continue;
      }
      cleanElement(el);
      fillEmoji(el);
      walk(el);
    }
  };
  walk(fragment);
  return doc.importNode(fragment, true);
}
