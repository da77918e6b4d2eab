import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Recipient } from '../app/session';
import { allEmoji, type EmojiChoice, searchEmoji } from '../emoji/emoji';
import { activeUsers, matchUsers } from '../state/selectors';
import type { User } from '../api/types';
import { useAppState, useSession } from './context';
import { completionAt, linkText, useCompose } from './composeState';
import { MessageHtml } from './MessageHtml';
import { RecipientInput } from './RecipientInput';

const TYPING_REFRESH_MS = 10_000;
const TYPING_IDLE_MS = 5_000;

type Completion = { kind: 'mention'; start: number; items: User[] } | { kind: 'emoji'; start: number; items: EmojiChoice[] };

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The compose box: channel + `Topic`, or `To` people; `Message` (Enter sends, Shift+Enter breaks
 * the line; `@` and `:` complete people and emoji); `Attach files` (also by drop or paste);
 * `Preview`; `Send`. Closed, it is a `New message` button.
 */
export function Compose() {
  const session = useSession();
  const s = useAppState();
  const { compose, update, close, openHere, registerUploader } = useCompose();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [completion, setCompletion] = useState<Completion | null>(null);
  const [active, setActive] = useState(0);
  const textRef = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once the text a completion wrote is in the box (before the next key is read). */
  const caretAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = textRef.current;
    const pos = caretAfterRender.current;
    if (el === null || pos === null) return;
    caretAfterRender.current = null;
    el.focus();
    el.setSelectionRange(pos, pos);
  });
  const topicRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const typingRef = useRef<{ to: Recipient; at: number; timer: ReturnType<typeof setTimeout> | null } | null>(null);
  const errorId = useId();
  const listId = useId();
  const users = useMemo(() => activeUsers(s.users), [s.users]);
  const emoji = useMemo(() => allEmoji(s.realmEmoji), [s.realmEmoji]);
  const subs = useMemo(() => [...s.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name)), [s.subscriptions]);

  // Focus the field asked for when compose opens.
  useEffect(() => {
    if (!compose.open || !compose.focus) return;
    const el = compose.focus.field === 'to' ? toRef.current : compose.focus.field === 'topic' ? topicRef.current : textRef.current;
    el?.focus();
  }, [compose.open, compose.focus]);

  const recipient = (): Recipient | null => {
    if (compose.kind === 'stream') return compose.streamId === null ? null : { kind: 'stream', streamId: compose.streamId, topic: compose.topic };
    return compose.to.length === 0 ? null : { kind: 'dm', userIds: compose.to };
  };

  const stopTyping = useCallback(() => {
    const t = typingRef.current;
    if (!t) return;
    if (t.timer) clearTimeout(t.timer);
    session.typing('stop', t.to);
    typingRef.current = null;
  }, [session]);

  useEffect(() => () => stopTyping(), [stopTyping]);
  useEffect(() => {
    if (!compose.open) stopTyping();
  }, [compose.open, stopTyping]);

  const noteTyping = (content: string) => {
    const to = recipient();
    if (!to || content.trim() === '') return stopTyping();
    const now = Date.now();
    const t = typingRef.current;
    const same = t && JSON.stringify(t.to) === JSON.stringify(to);
    if (!same) stopTyping();
    if (!same || now - typingRef.current!.at > TYPING_REFRESH_MS) {
      session.typing('start', to);
      typingRef.current = { to, at: now, timer: null };
    }
    const cur = typingRef.current!;
    if (cur.timer) clearTimeout(cur.timer);
    cur.timer = setTimeout(stopTyping, TYPING_IDLE_MS);
  };

  const send = () => {
    const to = recipient();
    const content = compose.content;
    if (content.trim() === '') return;
    if (!to) {
      setError(compose.kind === 'stream' ? 'Choose a channel.' : 'Choose at least one recipient.');
      return;
    }
    if (content.includes('[Uploading ')) {
      setError('Wait for the upload to finish.');
      return;
    }
    setError(null);
    setPreview(null);
    setPreviewing(false);
    setCompletion(null);
    stopTyping();
    update((c) => ({ ...c, content: '' }));
    session.send(to, content).catch((e) => {
      setError(errorText(e));
      update((c) => (c.content.trim() === '' ? { ...c, content } : c));
    });
  };

  // Uploads: a placeholder at the caret, then the link.
  const uploadFiles = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const placeholder = `[Uploading ${linkText(file.name)}…]()`;
        const el = textRef.current;
        update((c) => {
          const at = el && document.activeElement === el ? el.selectionStart : c.content.length;
          const before = c.content.slice(0, at);
          const sep = before === '' || before.endsWith('\n') || before.endsWith(' ') ? '' : ' ';
          return { ...c, content: `${before}${sep}${placeholder} ${c.content.slice(at)}` };
        });
        session
          .upload(file)
          .then((r) => {
            const url = r.url ?? r.uri ?? '';
            const link = `[${linkText(r.filename ?? file.name)}](${url})`;
            update((c) => ({ ...c, content: c.content.replace(placeholder, link) }));
          })
          .catch((e) => {
            setError(errorText(e));
            update((c) => ({ ...c, content: c.content.replace(`${placeholder} `, '').replace(placeholder, '') }));
          });
      }
    },
    [session, update],
  );

  useEffect(() => {
    registerUploader(uploadFiles);
    return () => registerUploader(null);
  }, [registerUploader, uploadFiles]);

  const refreshCompletion = (text: string, caret: number) => {
    const at = completionAt(text, caret);
    if (!at) return setCompletion(null);
    if (at.kind === 'mention') {
      const items = matchUsers(users, at.query, 6);
      setCompletion(items.length > 0 ? { kind: 'mention', start: at.start, items } : null);
    } else {
      const items = searchEmoji(emoji, at.query, 6);
      setCompletion(items.length > 0 ? { kind: 'emoji', start: at.start, items } : null);
    }
    setActive(0);
  };

  const applyCompletion = (index: number) => {
    const el = textRef.current;
    if (!completion || !el) return;
    const caret = el.selectionStart;
    let insert: string;
    if (completion.kind === 'mention') {
      const u = completion.items[index];
      const twin = users.filter((x) => x.full_name === u.full_name).length > 1;
      insert = `@**${u.full_name}${twin ? `|${u.user_id}` : ''}** `;
    } else insert = `:${completion.items[index].name}: `;
    const text = compose.content.slice(0, completion.start) + insert + compose.content.slice(caret);
    update((c) => ({ ...c, content: text }));
    setCompletion(null);
    // Set as React writes the new text (a frame later, keys typed meanwhile went before the caret).
    caretAfterRender.current = completion.start + insert.length;
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (completion) {
      const n = completion.items.length;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        applyCompletion(active);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setCompletion(null);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  const togglePreview = async () => {
    if (previewing) {
      setPreviewing(false);
      setPreview(null);
      requestAnimationFrame(() => textRef.current?.focus());
      return;
    }
    setPreviewing(true);
    setPreview(null);
    try {
      setPreview(compose.content.trim() === '' ? '<p>Nothing to preview.</p>' : await session.render(compose.content));
    } catch (e) {
      setError(errorText(e));
      setPreviewing(false);
    }
  };

  if (!compose.open) {
    return (
      <section className="compose compose-closed" aria-label="Compose">
        <button
          type="button"
          className="compose-open primary"
          onClick={openHere}
        >
          New message
        </button>
      </section>
    );
  }

  const describedBy = error !== null ? errorId : undefined;
  return (
    <section
      className="compose"
      aria-label="Compose"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault();
      }}
      onDrop={(e) => {
        if (e.dataTransfer.files.length > 0) {
          e.preventDefault();
          e.stopPropagation();
          uploadFiles([...e.dataTransfer.files]);
        }
      }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <div className="compose-recipient">
          {compose.kind === 'stream' ? (
            <>
              <select
                aria-label="Channel"
                className="compose-channel"
                value={compose.streamId ?? ''}
                onChange={(e) => update((c) => ({ ...c, streamId: e.target.value === '' ? null : Number(e.target.value) }))}
              >
                {compose.streamId === null && <option value="">Choose a channel</option>}
                {subs.map((sub) => (
                  <option key={sub.stream_id} value={sub.stream_id}>
                    #{sub.name}
                  </option>
                ))}
              </select>
              <span aria-hidden="true" className="compose-sep">
                ›
              </span>
              <input
                ref={topicRef}
                className="compose-topic"
                aria-label="Topic"
                placeholder="Topic"
                autoComplete="off"
                maxLength={60}
                value={compose.topic}
                onChange={(e) => update((c) => ({ ...c, topic: e.target.value }))}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    textRef.current?.focus();
                  } else if (e.key === 'Escape') {
                    e.preventDefault();
                    e.stopPropagation();
                    close();
                  }
                }}
              />
            </>
          ) : (
            <RecipientInput
              users={users}
              value={compose.to}
              onChange={(to) => update((c) => ({ ...c, to }))}
              inputRef={toRef}
              onDone={() => textRef.current?.focus()}
              invalid={error !== null && compose.to.length === 0}
              describedBy={describedBy}
            />
          )}
          <button type="button" className="icon-button compose-close" aria-label="Close compose" title="Close (Esc)" onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="compose-body">
          {completion && (
            <ul id={listId} role="listbox" aria-label={completion.kind === 'mention' ? 'People' : 'Emoji'} className="completions compose-completions">
              {completion.items.map((item, i) => (
                <li
                  key={completion.kind === 'mention' ? (item as User).user_id : (item as EmojiChoice).name}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className="completion"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    applyCompletion(i);
                  }}
                >
                  {completion.kind === 'mention' ? (
                    <>
                      <span className="completion-name">{(item as User).full_name}</span> <span className="completion-detail">{(item as User).email}</span>
                    </>
                  ) : (
                    <>
                      <span aria-hidden="true">{(item as EmojiChoice).char}</span> <span className="completion-name">:{(item as EmojiChoice).name}:</span>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          <textarea
            ref={textRef}
            className={previewing ? 'compose-text hidden' : 'compose-text'}
            aria-label="Message"
            placeholder={compose.kind === 'stream' ? 'Message (Enter sends, Shift+Enter for a new line)' : 'Direct message (Enter sends)'}
            aria-autocomplete="list"
            aria-controls={completion ? listId : undefined}
            aria-activedescendant={completion ? `${listId}-${active}` : undefined}
            aria-invalid={error !== null || undefined}
            aria-describedby={describedBy}
            value={compose.content}
            rows={3}
            onChange={(e) => {
              const text = e.target.value;
              update((c) => ({ ...c, content: text }));
              refreshCompletion(text, e.target.selectionStart);
              noteTyping(text);
            }}
            onKeyDown={onKeyDown}
            onClick={(e) => refreshCompletion(e.currentTarget.value, e.currentTarget.selectionStart)}
            onBlur={() => setCompletion(null)}
            onPaste={(e) => {
              const files = [...e.clipboardData.files];
              if (files.length > 0) {
                e.preventDefault();
                uploadFiles(files);
              }
            }}
          />
          {previewing && (
            <div className="compose-preview" aria-live="polite">
              {preview === null ? <p className="muted">Rendering preview…</p> : <MessageHtml html={preview} />}
            </div>
          )}
        </div>
        {error !== null && (
          <p role="alert" className="form-error" id={errorId}>
            {error}
          </p>
        )}
        <div className="compose-controls">
          <label className="attach icon-button" title="Attach files">
            <input
              type="file"
              multiple
              aria-label="Attach files"
              className="file-input"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                e.target.value = '';
                if (files.length > 0) uploadFiles(files);
              }}
            />
            <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />
            </svg>
          </label>
          <button type="button" className="secondary" aria-pressed={previewing} onClick={() => void togglePreview()}>
            Preview
          </button>
          <span className="compose-hint">Shift+Enter for a new line</span>
          <button type="submit" className="primary">
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
