import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { Message } from '../api/types';
import { isSearchNarrow, narrowToHash } from '../narrow/narrow';
import { dmNames, makeLookup, messageChannelName } from '../state/selectors';
import type { AppState } from '../state/store';
import { messageDmKey } from '../state/unread';
import { useAppState, useSession } from './context';
import { MessageItem, type RecipientHeader } from './MessageItem';

/** Within this distance (px) of an end of the list, more messages are loaded. */
const LOAD_MARGIN = 600;

function recipientKey(m: Message, myId: number): string {
  return m.type === 'stream' ? `s:${m.stream_id}:${m.subject.toLowerCase()}` : `d:${messageDmKey(m, myId)}`;
}

const dayOf = (ts: number) => new Date(ts * 1000).toDateString();

function headerFor(s: AppState, m: Message): RecipientHeader {
  const lookup = makeLookup(s);
  const date = new Date(m.timestamp * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
  if (m.type === 'stream' && m.stream_id !== undefined) {
    const channel = { operator: 'channel', operand: String(m.stream_id) };
    return {
      kind: 'stream',
      channel: messageChannelName(s, m),
      channelHash: narrowToHash([channel], lookup),
      topic: m.subject,
      topicHash: narrowToHash([channel, { operator: 'topic', operand: m.subject }], lookup),
      date,
    };
  }
  const key = messageDmKey(m, s.me.user_id);
  return { kind: 'dm', names: dmNames(s, key), hash: narrowToHash([{ operator: 'dm', operand: key }], lookup), date };
}

/**
 * The open view's messages: role `feed` named `Messages`, one `article` each, grouped under
 * channel › topic or conversation headers. Opens at the first unread message, loads older
 * messages near the top and newer near the bottom (the window keeps at most a few hundred),
 * keeps the reading position when messages are added or dropped, marks what is seen as read.
 */
export function Feed({ selectedId, onSelect, onReply }: { selectedId: number | null; onSelect: (id: number) => void; onReply: (m: Message) => void }) {
  const session = useSession();
  const s = useAppState();
  const { view } = s;
  const ref = useRef<HTMLDivElement>(null);
  const stateRef = useRef(s);
  // The latest state for the scroll handlers and the layout effect below (which runs before effects).
  stateRef.current = s;
  const position = useRef<{ id: string; offset: number } | null>(null);
  const atBottom = useRef(true);
  const placedGeneration = useRef(-1);

  const record = useCallback(() => {
    const c = ref.current;
    if (!c) return;
    atBottom.current = c.scrollHeight - c.scrollTop - c.clientHeight < 40;
    position.current = null;
    for (const el of c.querySelectorAll<HTMLElement>('article[data-id]')) {
      if (el.offsetTop + el.offsetHeight > c.scrollTop) {
        position.current = { id: el.dataset.id!, offset: el.offsetTop - c.scrollTop };
        break;
      }
    }
  }, []);

  const checkSeen = useCallback(() => {
    const c = ref.current;
    const st = stateRef.current;
    if (!c || c.clientHeight === 0 || document.visibilityState !== 'visible' || st.view.loading || isSearchNarrow(st.view.narrow)) return;
    const top = c.scrollTop;
    const bottom = top + c.clientHeight;
    const seen: number[] = [];
    for (const el of c.querySelectorAll<HTMLElement>('article[data-unread="true"]')) {
      const t = el.offsetTop;
      const b = t + el.offsetHeight;
      const whole = t >= top - 2 && b <= bottom + 2;
      const tall = el.offsetHeight > c.clientHeight / 2 && t < bottom && b > top;
      if (whole || tall) seen.push(Number(el.dataset.id));
    }
    if (seen.length > 0) session.markSeen(seen);
  }, [session]);

  const loadMore = useCallback(() => {
    const c = ref.current;
    const { view: v } = stateRef.current;
    if (!c || c.clientHeight === 0 || v.loading) return;
    if (c.scrollTop < LOAD_MARGIN && !v.foundOldest) void session.loadOlder();
    if (c.scrollHeight - c.scrollTop - c.clientHeight < LOAD_MARGIN && !v.foundNewest) void session.loadNewer();
  }, [session]);

  // Place the window: at the first unread message when it opens, else where the reader was.
  useLayoutEffect(() => {
    const c = ref.current;
    if (!c || view.loading) return;
    if (placedGeneration.current !== view.generation) {
      placedGeneration.current = view.generation;
      const anchor = view.anchor !== null ? stateRef.current.messages.get(view.anchor) : undefined;
      const el = anchor ? c.querySelector<HTMLElement>(`article[data-id="${anchor.id}"]`) : null;
      if (el && anchor && !anchor.flags.includes('read')) c.scrollTop = Math.max(0, el.offsetTop - Math.round(c.clientHeight / 3));
      else c.scrollTop = c.scrollHeight;
    } else if (atBottom.current && view.foundNewest) {
      c.scrollTop = c.scrollHeight;
    } else if (position.current) {
      const el = c.querySelector<HTMLElement>(`article[data-id="${position.current.id}"]`);
      if (el) c.scrollTop = el.offsetTop - position.current.offset;
    }
    record();
    loadMore();
    checkSeen();
  }, [view.ids, view.loading, view.generation, view.anchor, view.foundNewest, record, loadMore, checkSeen]);

  // Things that change what is visible without a scroll: the tab shown again, images loaded.
  useEffect(() => {
    const c = ref.current;
    const onVisible = () => checkSeen();
    const onLoad = () => {
      if (atBottom.current && stateRef.current.view.foundNewest && c) c.scrollTop = c.scrollHeight;
      record();
      checkSeen();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    c?.addEventListener('load', onLoad, true);
    // The feed resized (compose opened or closed, the window): keep the bottom in view if it was.
    const resize = typeof ResizeObserver !== 'undefined' && c ? new ResizeObserver(onLoad) : null;
    if (resize && c) resize.observe(c);
    return () => {
      resize?.disconnect();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
      c?.removeEventListener('load', onLoad, true);
    };
  }, [checkSeen, record]);

  const frame = useRef(0);
  const onScroll = () => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      record();
      loadMore();
      checkSeen();
    });
  };

  const messages = view.ids.map((id) => s.messages.get(id)).filter((m): m is Message => m !== undefined);
  const myId = s.me.user_id;
  const empty = !view.loading && messages.length === 0;
  return (
    <>
      {view.error !== null && (
        <p role="alert" className="feed-error">
          {view.error}
        </p>
      )}
      <div ref={ref} className="feed" role="feed" aria-label="Messages" aria-busy={view.loading || messages.length === 0} onScroll={onScroll}>
        {view.foundOldest && messages.length > 0 && <div className="feed-edge">Start of the conversation</div>}
        {!view.foundOldest && messages.length > 0 && <div className="feed-edge">Loading older messages…</div>}
        {messages.map((m, i) => {
          const prev = messages[i - 1];
          const newGroup = !prev || recipientKey(prev, myId) !== recipientKey(m, myId) || dayOf(prev.timestamp) !== dayOf(m.timestamp);
          const continued = !newGroup && prev.sender_id === m.sender_id && m.timestamp - prev.timestamp < 600;
          return (
            <MessageItem
              key={m.local_id ?? m.id}
              position={i + 1}
              message={m}
              header={newGroup ? headerFor(s, m) : null}
              continued={continued}
              senderName={s.users.get(m.sender_id)?.full_name ?? m.sender_full_name}
              mine={m.sender_id === myId}
              selected={selectedId === m.id}
              myId={myId}
              users={s.users}
              realmEmoji={s.realmEmoji}
              onSelect={onSelect}
              onReply={onReply}
            />
          );
        })}
        {!view.foundNewest && messages.length > 0 && <div className="feed-edge">Loading newer messages…</div>}
      </div>
      {view.loading && <p className="feed-status">Loading messages…</p>}
      {empty && view.error === null && <p className="feed-status">No messages here yet.</p>}
    </>
  );
}
