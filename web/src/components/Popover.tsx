import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

/**
 * A floating box next to an anchor element (menus, the emoji picker), in a portal so the feed's
 * scrolling does not clip it; closes on Esc and on a press outside. Focus goes back to the anchor.
 */
export function Popover({
  anchor,
  onClose,
  children,
  className,
  role,
  label,
}: {
  anchor: HTMLElement;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  role?: string;
  label?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useLayoutEffect(() => {
    const place = () => {
      const a = anchor.getBoundingClientRect();
      const el = ref.current;
      const w = el?.offsetWidth ?? 0;
      const h = el?.offsetHeight ?? 0;
      const vw = document.documentElement.clientWidth;
      const vh = document.documentElement.clientHeight;
      let top = a.bottom + 4;
      if (top + h > vh - 8) top = Math.max(8, a.top - h - 4);
      const left = Math.max(8, Math.min(a.right - w, vw - w - 8));
      setPos({ top, left });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [anchor]);

  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (ref.current?.contains(t) || anchor.contains(t)) return;
      onCloseRef.current();
    };
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('mousedown', onDown);
      if (document.activeElement === document.body || ref.current?.contains(document.activeElement) || !document.activeElement) anchor.focus();
    };
  }, [anchor]);

  return createPortal(
    <div
      ref={ref}
      className={`popover ${className ?? ''}`}
      role={role}
      aria-label={label}
      style={{ top: pos?.top ?? -9999, left: pos?.left ?? -9999 }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          e.preventDefault();
          onCloseRef.current();
        }
      }}
    >
      {children}
    </div>,
    document.body,
  );
}

/** A menu of actions (role menu, items role menuitem; arrows move, Enter picks, Esc closes). */
export function Menu({ anchor, onClose, label, items }: { anchor: HTMLElement; onClose: () => void; label: string; items: { label: string; onSelect: () => void; danger?: boolean }[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);
  const move = (e: React.KeyboardEvent) => {
    const list = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = list.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (e.key === 'ArrowDown') next = (i + 1) % list.length;
    else if (e.key === 'ArrowUp') next = (i - 1 + list.length) % list.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = list.length - 1;
    else if (e.key === 'Tab') {
      onClose();
      return;
    }
    if (next >= 0) {
      e.preventDefault();
      list[next].focus();
    }
  };
  return (
    <Popover anchor={anchor} onClose={onClose} className="menu-popover">
      <div ref={ref} role="menu" aria-label={label} onKeyDown={move}>
        {items.map((item) => (
          <button
            key={item.label}
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={item.danger ? 'menu-item danger' : 'menu-item'}
            onClick={() => {
              onClose();
              item.onSelect();
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
    </Popover>
  );
}
