import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusableIn(el: HTMLElement): HTMLElement[] {
  return [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => !e.hasAttribute('inert') && e.getClientRects().length > 0 || e === document.activeElement);
}

/** Open dialogs, the topmost last; everything outside them is inert while one is open. */
const openDialogs: HTMLElement[] = [];
function setBackgroundInert(): void {
  const root = document.getElementById('root');
  if (!root) return;
  if (openDialogs.length > 0) root.setAttribute('inert', '');
  else root.removeAttribute('inert');
}

/**
 * A modal dialog: named by its title, focus moved in and kept in (Tab cycles), Esc closes,
 * focus given back to where it was on close.
 */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const el = ref.current!;
    openDialogs.push(el);
    setBackgroundInert();
    const first = el.querySelector<HTMLElement>('[data-autofocus]') ?? focusableIn(el).find((e) => e.tagName !== 'BUTTON' || !e.classList.contains('dialog-close')) ?? el;
    first.focus();
    // Keys are handled at the document, so Esc and Tab work even when focus fell out (e.g. onto a button that went away).
    const onKeyDown = (e: KeyboardEvent) => {
      if (openDialogs.at(-1) !== el) return;
      if (e.key === 'Escape') {
        e.stopPropagation();
        e.preventDefault();
        onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusableIn(el);
      if (items.length === 0) return;
      const firstItem = items[0];
      const last = items[items.length - 1];
      const inside = el.contains(document.activeElement);
      if (!inside) {
        e.preventDefault();
        (e.shiftKey ? last : firstItem).focus();
      } else if (e.shiftKey && document.activeElement === firstItem) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      openDialogs.splice(openDialogs.indexOf(el), 1);
      setBackgroundInert();
      if (previous && document.contains(previous)) previous.focus();
    };
  }, []);

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onCloseRef.current();
      }}
    >
      <div ref={ref} role="dialog" aria-modal="true" aria-labelledby={titleId} className={wide ? 'dialog dialog-wide' : 'dialog'} tabIndex={-1}>
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button dialog-close" aria-label="Close" onClick={() => onCloseRef.current()}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
