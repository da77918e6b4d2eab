import { useLayoutEffect, useRef } from 'react';
import { sanitizeHtml } from '../render/sanitize';

/**
 * The server's rendered HTML of a message, made safe (sanitizeHtml) and inserted as DOM nodes.
 * Spoilers open and close on a click of their header.
 */
export function MessageHtml({ html, className = 'message-content' }: { html: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(sanitizeHtml(html));
  }, [html]);
  const toggle = (target: EventTarget): boolean => {
    const header = (target as Element).closest?.('.spoiler-header');
    const block = header?.closest('.spoiler-block');
    const content = block?.querySelector('.spoiler-content');
    if (!header || !block || !content) return false;
    const open = block.classList.toggle('spoiler-open');
    content.setAttribute('aria-hidden', open ? 'false' : 'true');
    header.setAttribute('aria-expanded', open ? 'true' : 'false');
    return true;
  };
  return (
    <div
      ref={ref}
      className={className}
      onClick={(e) => {
        if ((e.target as Element).closest?.('a')) return;
        toggle(e.target);
      }}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && toggle(e.target)) e.preventDefault();
      }}
    />
  );
}
