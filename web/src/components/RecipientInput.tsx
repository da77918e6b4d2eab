import { useId, useState } from 'react';
import type { User } from '../api/types';
import { matchUsers } from '../state/selectors';

/**
 * Direct-message recipients: chosen people as removable pills, and a combobox `To` that
 * completes names and emails (Enter, Tab or a comma picks the highlighted person).
 */
export function RecipientInput({
  users,
  value,
  onChange,
  inputRef,
  onDone,
  invalid,
  describedBy,
}: {
  users: readonly User[];
  value: number[];
  onChange: (ids: number[]) => void;
  inputRef: React.RefObject<HTMLInputElement | null>;
  onDone: () => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const byId = new Map(users.map((u) => [u.user_id, u]));
  const candidates = users.filter((u) => !value.includes(u.user_id));
  const matches = (q: string) => (q.trim() === '' ? [] : matchUsers(candidates, q, 8));
  const shown = matches(query);
  const expanded = shown.length > 0;
  const pick = (u: User) => {
    onChange([...value, u.user_id]);
    setQuery('');
    setActive(0);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    const current = matches(e.currentTarget.value);
    if ((e.key === 'Enter' || e.key === 'Tab' || e.key === ',') && current.length > 0) {
      e.preventDefault();
      pick(current[Math.min(active, current.length - 1)]);
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      if (value.length > 0 && e.currentTarget.value.trim() === '') onDone();
    } else if (e.key === 'ArrowDown' && current.length > 0) {
      e.preventDefault();
      setActive((a) => (a + 1) % current.length);
    } else if (e.key === 'ArrowUp' && current.length > 0) {
      e.preventDefault();
      setActive((a) => (a - 1 + current.length) % current.length);
    } else if (e.key === 'Backspace' && e.currentTarget.value === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      e.stopPropagation();
      setQuery('');
    }
  };
  return (
    <div className="recipients">
      {value.map((id) => {
        const name = byId.get(id)?.full_name ?? `User ${id}`;
        return (
          <span key={id} className="pill">
            {name}
            <button type="button" className="pill-remove" aria-label={`Remove ${name}`} onClick={() => onChange(value.filter((v) => v !== id))}>
              <span aria-hidden="true">×</span>
            </button>
          </span>
        );
      })}
      <div className="combo">
        <input
          ref={inputRef}
          role="combobox"
          aria-label="To"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded ? `${listId}-${Math.min(active, shown.length - 1)}` : undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          placeholder={value.length === 0 ? 'Add one or more people' : ''}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label="People" className={expanded ? 'completions' : 'completions hidden'}>
          {shown.map((u, i) => (
            <li
              key={u.user_id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === Math.min(active, shown.length - 1)}
              className="completion"
              onMouseDown={(e) => {
                e.preventDefault();
                pick(u);
              }}
            >
              <span className="completion-name">{u.full_name}</span> <span className="completion-detail">{u.email}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
