import { memo, useEffect, useRef, useState } from 'react';
import type { Message, RealmEmoji, User } from '../api/types';
import { reactionDisplay } from '../emoji/emoji';
import { Avatar } from './Avatar';
import { useSession } from './context';
import { Dialog } from './Dialog';
import { EmojiPicker } from './EmojiPicker';
import { MessageHtml } from './MessageHtml';
import { Menu } from './Popover';
import { groupReactions } from './reactions';

export type RecipientHeader =
  | { kind: 'stream'; channel: string; channelHash: string; topic: string; topicHash: string; date: string }
  | { kind: 'dm'; names: string; hash: string; date: string };

export interface MessageItemProps {
  message: Message;
  /** Its place in the feed (aria-posinset; the size is unknown: more load on scrolling). */
  position: number;
  header: RecipientHeader | null;
  continued: boolean;
  senderName: string;
  mine: boolean;
  selected: boolean;
  myId: number;
  users: ReadonlyMap<number, User>;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  onSelect: (id: number) => void;
  onReply: (m: Message) => void;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function timeOf(ts: number): { short: string; full: string; iso: string } {
  const d = new Date(ts * 1000);
  return {
    short: d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }),
    full: d.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' }),
    iso: d.toISOString(),
  };
}

function Header({ header }: { header: RecipientHeader }) {
  return (
    <div className="recipient-header">
      {header.kind === 'stream' ? (
        <span className="recipient-names">
          <a href={header.channelHash} className="recipient-channel">
            #{header.channel}
          </a>
          <span aria-hidden="true" className="recipient-sep">
            {' '}
            ›{' '}
          </span>
          <a href={header.topicHash} className="recipient-topic">
            {header.topic}
          </a>
        </span>
      ) : (
        <span className="recipient-names">
          <a href={header.hash}>You and {header.names}</a>
        </span>
      )}
      <span className="recipient-date">{header.date}</span>
    </div>
  );
}

function EditForm({ message, onDone }: { message: Message; onDone: () => void }) {
  const session = useSession();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    let live = true;
    session
      .rawContent(message.id)
      .then((raw) => {
        if (live) setText((t) => t ?? raw);
      })
      .catch((e) => {
        if (live) {
          setError(errorText(e));
          setText((t) => t ?? '');
        }
      });
    return () => {
      live = false;
    };
  }, [session, message.id]);
  const loaded = text !== null;
  useEffect(() => {
    if (loaded) ref.current?.focus();
  }, [loaded]);
  const save = async () => {
    if (text === null || saving) return;
    setSaving(true);
    setError(null);
    try {
      await session.edit(message.id, text);
      onDone();
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };
  return (
    <form
      className="edit-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <textarea
        ref={ref}
        aria-label="Edit message"
        className="edit-box"
        value={text ?? ''}
        disabled={text === null}
        placeholder={text === null ? 'Loading…' : undefined}
        aria-invalid={error !== null}
        aria-describedby={error !== null ? `edit-error-${message.id}` : undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onDone();
          }
        }}
        rows={Math.min(12, Math.max(3, (text ?? '').split('\n').length + 1))}
      />
      {error !== null && (
        <p role="alert" className="form-error" id={`edit-error-${message.id}`}>
          {error}
        </p>
      )}
      <div className="form-buttons">
        <button type="submit" className="primary" disabled={text === null || saving}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function MoveDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const session = useSession();
  const [topic, setTopic] = useState(message.subject);
  const [mode, setMode] = useState<'change_one' | 'change_later' | 'change_all'>('change_all');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title="Move messages" onClose={onClose}>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await session.moveTopic(message.id, topic, mode);
            onClose();
          } catch (err) {
            setError(errorText(err));
            setBusy(false);
          }
        }}
      >
        <label className="field">
          <span>New topic name</span>
          <input
            value={topic}
            data-autofocus
            onChange={(e) => setTopic(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? 'move-error' : undefined}
          />
        </label>
        {error !== null && (
          <p role="alert" className="form-error" id="move-error">
            {error}
          </p>
        )}
        <label className="field">
          <span>Which messages</span>
          <select value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
            <option value="change_one">Only this message</option>
            <option value="change_later">This and all later messages</option>
            <option value="change_all">All messages in this topic</option>
          </select>
        </label>
        <div className="form-buttons">
          <button type="submit" className="primary" disabled={busy}>
            Move
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title="Delete message?" onClose={onClose}>
      <p>Deleting a message removes it for everyone.</p>
      {error !== null && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <div className="form-buttons">
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await session.deleteMessage(message.id);
              onClose();
            } catch (err) {
              setError(errorText(err));
              setBusy(false);
            }
          }}
        >
          Delete
        </button>
        <button type="button" onClick={onClose} data-autofocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

function Reactions({ message, myId, users, realmEmoji, onError }: Pick<MessageItemProps, 'message' | 'myId' | 'users' | 'realmEmoji'> & { onError: (e: string) => void }) {
  const session = useSession();
  const groups = groupReactions(message.reactions, myId);
  if (groups.length === 0) return null;
  return (
    <div className="reactions">
      {groups.map((g) => {
        const shown = reactionDisplay({ emoji_name: g.name, emoji_code: g.code, reaction_type: g.type }, realmEmoji);
        const who = g.userIds.map((id) => (id === myId ? 'You' : (users.get(id)?.full_name ?? 'Someone'))).join(', ');
        return (
          <button
            key={`${g.type}:${g.code}`}
            type="button"
            className={g.mine ? 'reaction mine' : 'reaction'}
            aria-pressed={g.mine}
            aria-label={`${g.name} ${g.count}`}
            title={`${who} reacted with :${g.name}:`}
            onClick={() => session.toggleReaction(message, { name: g.name, code: g.code, type: g.type }).catch((e) => onError(errorText(e)))}
          >
            {shown.url ? <img src={shown.url} alt="" className="emoji-img" /> : <span aria-hidden="true">{shown.char || `:${g.name}:`}</span>}
            <span aria-hidden="true" className="reaction-count">
              {g.count}
            </span>
          </button>
        );
      })}
    </div>
  );
}

/** One message: an `article` holding its sender's name, time, content, reactions and actions. */
export const MessageItem = memo(function MessageItem(p: MessageItemProps) {
  const session = useSession();
  const { message: m } = p;
  const [picker, setPicker] = useState<HTMLElement | null>(null);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<'move' | 'delete' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const echo = m.local_id !== undefined;
  const time = timeOf(m.timestamp);
  const starred = m.flags.includes('starred');
  const unread = !m.flags.includes('read');
  const act = (f: () => Promise<void>) => {
    setError(null);
    f().catch((e) => setError(errorText(e)));
  };
  const marker = echo ? 'Sending…' : m.last_edit_timestamp !== undefined ? '(edited)' : m.last_moved_timestamp !== undefined ? '(moved)' : null;
  const markers = marker !== null ? <span className="edited-marker">{marker}</span> : null;
  const menuItems = [
    { label: 'Reply', onSelect: () => p.onReply(m) },
    ...(p.mine ? [{ label: 'Edit', onSelect: () => setEditing(true) }] : []),
    ...(m.type === 'stream' ? [{ label: 'Move messages', onSelect: () => setDialog('move') }] : []),
    { label: starred ? 'Unstar' : 'Star', onSelect: () => act(() => session.toggleStar(m)) },
    ...(p.mine ? [{ label: 'Delete', onSelect: () => setDialog('delete'), danger: true }] : []),
  ];
  return (
    <article
      className={['message', p.continued ? 'continued' : '', p.selected ? 'selected' : '', echo ? 'local-echo' : '', p.header ? 'first-in-group' : ''].join(' ')}
      data-id={m.id}
      aria-posinset={p.position}
      aria-setsize={-1}
      data-unread={unread ? 'true' : undefined}
      onClick={() => p.onSelect(m.id)}
    >
      {p.header && <Header header={p.header} />}
      <div className="message-row">
        <div className="message-avatar">{!p.continued && <Avatar url={m.avatar_url} name={p.senderName} />}</div>
        <div className="message-main">
          {p.continued && <span className="sr-only">{p.senderName}</span>}
          <div className={p.continued ? 'message-meta continued-meta' : 'message-meta'}>
            {!p.continued && <span className="sender-name">{p.senderName}</span>}
            <time dateTime={time.iso} title={time.full} className="message-time">
              {time.short}
            </time>
            {!p.continued && markers}
          </div>
          {editing ? (
            <EditForm message={m} onDone={() => setEditing(false)} />
          ) : echo ? (
            <div className="message-content">
              <p className="echo-text">{m.raw}</p>
            </div>
          ) : (
            <MessageHtml html={m.match_content ?? m.content} />
          )}
          {p.continued && markers && <div className="continued-markers">{markers}</div>}
          <Reactions message={m} myId={p.myId} users={p.users} realmEmoji={p.realmEmoji} onError={setError} />
          {error !== null && (
            <p role="alert" className="form-error">
              {error}
            </p>
          )}
        </div>
        {!echo && !editing && (
          <div className="message-actions">
            <button type="button" className="icon-button" aria-label="Add reaction" title="Add reaction" aria-haspopup="dialog" aria-expanded={picker !== null} onClick={(e) => setPicker(e.currentTarget)}>
              <span aria-hidden="true">☺</span>
            </button>
            <button type="button" className={starred ? 'icon-button star starred' : 'icon-button star'} aria-label="Star" title={starred ? 'Unstar this message' : 'Star this message'} aria-pressed={starred} onClick={() => act(() => session.toggleStar(m))}>
              <span aria-hidden="true">{starred ? '★' : '☆'}</span>
            </button>
            <button type="button" className="icon-button" aria-label="Message actions" title="Message actions" aria-haspopup="menu" aria-expanded={menu !== null} onClick={(e) => setMenu(e.currentTarget)}>
              <span aria-hidden="true">⋯</span>
            </button>
          </div>
        )}
      </div>
      {picker && (
        <EmojiPicker
          anchor={picker}
          realmEmoji={p.realmEmoji}
          onClose={() => setPicker(null)}
          onPick={(e) => {
            const mine = m.reactions.some((r) => r.user_id === p.myId && r.emoji_code === e.code && r.reaction_type === e.reactionType);
            if (!mine) act(() => session.toggleReaction(m, { name: e.name, code: e.code, type: e.reactionType }));
          }}
        />
      )}
      {menu && <Menu anchor={menu} label="Message actions" onClose={() => setMenu(null)} items={menuItems} />}
      {dialog === 'move' && <MoveDialog message={m} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteDialog message={m} onClose={() => setDialog(null)} />}
    </article>
  );
});
