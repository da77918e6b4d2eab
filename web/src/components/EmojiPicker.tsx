import { useMemo, useState } from 'react';
import type { RealmEmoji } from '../api/types';
import { allEmoji, type EmojiChoice, searchEmoji } from '../emoji/emoji';
import { Popover } from './Popover';

/** The emoji picker: a search box (`Search emoji`; Enter picks the first match) and the emoji as buttons. */
export function EmojiPicker({
  anchor,
  realmEmoji,
  onPick,
  onClose,
}: {
  anchor: HTMLElement;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  onPick: (e: EmojiChoice) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const choices = useMemo(() => allEmoji(realmEmoji), [realmEmoji]);
  const results = useMemo(() => searchEmoji(choices, query, 120), [choices, query]);
  const pick = (e: EmojiChoice) => {
    onClose();
    onPick(e);
  };
  return (
    <Popover anchor={anchor} onClose={onClose} className="emoji-picker" role="dialog" label="Emoji picker">
      <input
        type="search"
        className="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autoFocus
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            const first = searchEmoji(choices, e.currentTarget.value, 1)[0];
            if (first) pick(first);
          }
        }}
      />
      <div className="emoji-grid">
        {results.length === 0 && <p className="muted">No emoji match.</p>}
        {results.map((c) => (
          <button key={`${c.reactionType}:${c.code}`} type="button" className="emoji-choice" aria-label={c.name} title={`:${c.name}:`} onClick={() => pick(c)}>
            {c.url ? <img src={c.url} alt="" className="emoji-img" /> : <span aria-hidden="true">{c.char}</span>}
          </button>
        ))}
      </div>
    </Popover>
  );
}
