import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Message } from '../api/types';
import { describeNarrow, narrowChannelId, narrowDmIds, narrowToSearchText, narrowTopic, parseSearch, type Narrow } from '../narrow/narrow';
import { activeUsers, isAdmin, makeLookup, presenceStatus, userName } from '../state/selectors';
import { type AppState, dmTypingKey, streamTypingKey } from '../state/store';
import { dmKey, dmKeyIds, firstUnreadTopic, messageDmKey, unreadCounts } from '../state/unread';
import { Avatar } from './Avatar';
import { ChannelBrowser } from './ChannelBrowser';
import { Compose } from './Compose';
import { CLOSED_COMPOSE, ComposeContext, type ComposeApi, type ComposeState } from './composeState';
import { useAppState, useSession } from './context';
import { Dialog } from './Dialog';
import { Feed } from './Feed';
import { Sidebar } from './Sidebar';
import { InviteDialog } from './InviteDialog';
import { Menu } from './Popover';
import { SettingsDialog } from './SettingsDialog';

type DialogName = 'channels' | 'settings' | 'invite' | 'shortcuts' | null;

const SHORTCUTS: [string, string][] = [
  ['c', 'New message in this channel or topic'],
  ['x', 'New direct message'],
  ['r', 'Reply to the selected (or last) message'],
  ['n', 'Next unread topic'],
  ['j / k', 'Select the next / previous message'],
  ['/', 'Search'],
  ['Esc', 'Close compose, a menu or a dialog'],
  ['Enter', 'Send (in the message box); Shift+Enter for a new line'],
  ['?', 'This list'],
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable;
}

/** "Pat is typing…" for the open conversation. */
function typingText(s: AppState): string | null {
  const n = s.view.narrow;
  const channel = narrowChannelId(n);
  const topic = narrowTopic(n);
  const dm = narrowDmIds(n);
  let keys: (k: string) => boolean;
  if (dm) {
    const key = dmTypingKey(dmKey(dm, s.me.user_id));
    keys = (k) => k === key;
  } else if (channel !== undefined && topic !== undefined) {
    const key = streamTypingKey(channel, topic);
    keys = (k) => k === key;
  } else if (channel !== undefined) {
    const prefix = streamTypingKey(channel, '');
    keys = (k) => k.startsWith(prefix);
  } else return null;
  const names = [...new Set(s.typing.filter((t) => keys(t.key)).map((t) => userName(s, t.senderId)))];
  if (names.length === 0) return null;
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length <= 3) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are typing…`;
  return 'Several people are typing…';
}

function PeopleList({ onOpen }: { onOpen: (userId: number) => void }) {
  const s = useAppState();
  const people = useMemo(() => activeUsers(s.users).filter((u) => !u.is_bot), [s.users]);
  const now = Date.now() / 1000;
  return (
    <aside className="people" aria-label="People">
      <h2 className="sidebar-subheading">People</h2>
      <ul className="nav-list">
        {people.map((u) => {
          const status = u.user_id === s.me.user_id ? 'active' : presenceStatus(s.presence.get(u.user_id), now);
          return (
            <li key={u.user_id}>
              <button type="button" className="nav-link person" onClick={() => onOpen(u.user_id)}>
                <span className={`presence-dot ${status}`} aria-hidden="true" />
                <span className="nav-name">{u.full_name}</span>
                <span className="sr-only">({status})</span>
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

/** The main screen: top bar (organization, search, personal menu), the left side, the feed and compose. */
export function Main() {
  const session = useSession();
  const s = useAppState();
  const [compose, setCompose] = useState<ComposeState>(CLOSED_COMPOSE);
  const [dialog, setDialog] = useState<DialogName>(null);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [personalMenu, setPersonalMenu] = useState<HTMLElement | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const uploader = useRef<((files: File[]) => void) | null>(null);
  const pendingFiles = useRef<File[]>([]);
  const focusToken = useRef(0);
  const lookup = makeLookup(s);
  const title = describeNarrow(s.view.narrow, lookup);

  const counts = useMemo(() => unreadCounts(s.unread, new Set([...s.subscriptions.values()].filter((x) => x.is_muted).map((x) => x.stream_id))), [s.unread, s.subscriptions]);
  useEffect(() => {
    document.title = `${counts.total > 0 ? `(${counts.total}) ` : ''}${title} - ${s.realmName}`;
  }, [counts.total, title, s.realmName]);

  // A new narrow: the search box shows it, the phone's menu closes, an empty compose closes.
  useEffect(() => {
    setSearch(s.view.narrow.length === 0 ? '' : narrowToSearchText(s.view.narrow, makeLookup(session.state)));
    setSidebarOpen(false);
    setSelected(null);
    setCompose((c) => (c.open && c.content.trim() === '' ? { ...c, open: false } : c));
  }, [s.view.key, session]);

  const composeHereRef = useRef<(forceDm?: boolean) => void>(() => undefined);
  const composeApi: ComposeApi = useMemo(() => {
    const token = () => (focusToken.current += 1);
    return {
      compose,
      update: (f) => setCompose(f),
      openStream: (streamId, topic, field = 'content') =>
        setCompose((c) => ({ ...c, open: true, kind: 'stream', streamId, topic, focus: { field, token: token() } })),
      openDm: (to, field = 'content') => setCompose((c) => ({ ...c, open: true, kind: 'dm', to, focus: { field, token: token() } })),
      close: () => setCompose((c) => ({ ...c, open: false, focus: null })),
      openHere: () => composeHereRef.current(),
      upload: (files) => {
        if (uploader.current) uploader.current(files);
        else pendingFiles.current.push(...files);
      },
      registerUploader: (f) => {
        uploader.current = f;
        if (f && pendingFiles.current.length > 0) {
          const files = pendingFiles.current;
          pendingFiles.current = [];
          f(files);
        }
      },
    };
  }, [compose]);

  const narrowTo = useCallback((n: Narrow) => session.narrowTo(n), [session]);

  /** Compose for the open narrow: its channel and topic, or its conversation. */
  const composeHere = useCallback(
    (forceDm = false) => {
      const st = session.state;
      const dm = narrowDmIds(st.view.narrow);
      if (forceDm || dm) {
        composeApi.openDm(dm ?? [], dm ? 'content' : 'to');
        return;
      }
      const channel = narrowChannelId(st.view.narrow);
      const topic = narrowTopic(st.view.narrow);
      const streamId = channel !== undefined && st.subscriptions.has(channel) ? channel : (compose.streamId ?? [...st.subscriptions.keys()][0] ?? null);
      composeApi.openStream(streamId, topic ?? (channel === compose.streamId ? compose.topic : ''), topic !== undefined ? 'content' : 'topic');
    },
    [session, composeApi, compose.streamId, compose.topic],
  );

  useEffect(() => {
    composeHereRef.current = composeHere;
  });

  const reply = useCallback(
    (m: Message) => {
      setSelected(m.id);
      if (m.type === 'stream' && m.stream_id !== undefined) composeApi.openStream(m.stream_id, m.subject, 'content');
      else composeApi.openDm(dmKeyIds(messageDmKey(m, session.state.me.user_id)), 'content');
    },
    [composeApi, session],
  );
  const replyRef = useRef(reply);
  useEffect(() => {
    replyRef.current = reply;
  });
  const stableReply = useCallback((m: Message) => replyRef.current(m), []);

  // Keyboard shortcuts.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      if (e.key === 'Escape') {
        if (sidebarOpen) setSidebarOpen(false);
        else if (compose.open && !isTyping(e.target)) composeApi.close();
        else setSelected(null);
        return;
      }
      if (isTyping(e.target)) return;
      const st = session.state;
      const ids = st.view.ids;
      switch (e.key) {
        case 'c':
          e.preventDefault();
          composeHere();
          break;
        case 'x':
          e.preventDefault();
          composeHere(true);
          break;
        case 'r':
        case 'R': {
          const id = selected !== null && ids.includes(selected) ? selected : ids.findLast((x) => Number.isInteger(x));
          const m = id !== undefined ? st.messages.get(id) : undefined;
          if (m) {
            e.preventDefault();
            reply(m);
          }
          break;
        }
        case 'n': {
          const ch = narrowChannelId(st.view.narrow);
          const tp = narrowTopic(st.view.narrow);
          const next = firstUnreadTopic(st.unread, ch !== undefined && tp !== undefined ? { streamId: ch, topic: tp } : null, (id) => st.subscriptions.has(id));
          if (next) {
            e.preventDefault();
            narrowTo([
              { operator: 'channel', operand: String(next.streamId) },
              { operator: 'topic', operand: next.topic },
            ]);
          }
          break;
        }
        case 'j':
        case 'k': {
          if (ids.length === 0) break;
          e.preventDefault();
          const i = selected !== null ? ids.indexOf(selected) : -1;
          const next = e.key === 'j' ? Math.min(ids.length - 1, i + 1) : i < 0 ? ids.length - 1 : Math.max(0, i - 1);
          setSelected(ids[next]);
          document.querySelector(`article[data-id="${ids[next]}"]`)?.scrollIntoView({ block: 'nearest' });
          break;
        }
        case '/':
          e.preventDefault();
          searchRef.current?.focus();
          break;
        case '?':
          e.preventDefault();
          setDialog('shortcuts');
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [session, compose.open, composeApi, composeHere, reply, selected, sidebarOpen, narrowTo]);

  const typing = typingText(s);
  const admin = isAdmin(s);
  const menuItems = [
    { label: 'Settings', onSelect: () => setDialog('settings') },
    ...(admin ? [{ label: 'Invite people', onSelect: () => setDialog('invite') }] : []),
    { label: 'Keyboard shortcuts', onSelect: () => setDialog('shortcuts') },
    { label: 'Log out', onSelect: () => void session.logout().catch(() => undefined) },
  ];

  return (
    <ComposeContext.Provider value={composeApi}>
      <div
        className={sidebarOpen ? 'app sidebar-is-open' : 'app'}
        onClickCapture={(e) => {
          // Following a narrow link (even to the open narrow) closes an empty compose box, as a new narrow does.
          const link = (e.target as Element).closest?.('a[href^="#"]');
          if (!link) return;
          setCompose((c) => (c.open && c.content.trim() === '' ? { ...c, open: false, focus: null } : c));
          setSidebarOpen(false);
        }}
      >
        <header className="topbar">
          <button type="button" className="icon-button menu-button" aria-label="Menu" aria-expanded={sidebarOpen} aria-controls="sidebar" onClick={() => setSidebarOpen((o) => !o)}>
            <span aria-hidden="true">☰</span>
          </button>
          <a className="brand" href="#feed">
            {s.realmName}
          </a>
          <form
            role="search"
            className="search"
            onSubmit={(e) => {
              e.preventDefault();
              narrowTo(parseSearch(search));
              searchRef.current?.blur();
            }}
          >
            <input
              ref={searchRef}
              type="search"
              aria-label="Search"
              placeholder="Search (channel:, topic:, dm:, sender:, is:starred…)"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  e.currentTarget.blur();
                }
              }}
            />
          </form>
          <button
            type="button"
            className="personal-button"
            aria-label="Personal menu"
            aria-haspopup="menu"
            aria-expanded={personalMenu !== null}
            title={s.me.full_name}
            onClick={(e) => setPersonalMenu(personalMenu ? null : e.currentTarget)}
          >
            <Avatar url={s.users.get(s.me.user_id)?.avatar_url ?? s.me.avatar_url} name={s.me.full_name} size={30} />
          </button>
        </header>
        {s.connection === 'reconnecting' && (
          <div role="status" className="banner">
            Reconnecting to the server…
          </div>
        )}
        <div className="layout">
          <div id="sidebar" className="sidebar">
            <Sidebar onBrowseChannels={() => setDialog('channels')} onNewDm={() => composeApi.openDm([], 'to')} />
          </div>
          {sidebarOpen && <div className="sidebar-scrim" aria-hidden="true" onClick={() => setSidebarOpen(false)} />}
          <main
            className="center"
            onDragOver={(e) => {
              if (e.dataTransfer.types.includes('Files')) e.preventDefault();
            }}
            onDrop={(e) => {
              if (e.dataTransfer.files.length === 0) return;
              e.preventDefault();
              if (!compose.open) composeHere();
              composeApi.upload([...e.dataTransfer.files]);
            }}
          >
            <h1 className="narrow-title">{title}</h1>
            <Feed selectedId={selected} onSelect={setSelected} onReply={stableReply} />
            <div className="typing-notice" aria-live="polite">
              {typing ?? ''}
            </div>
            <Compose />
          </main>
          <PeopleList onOpen={(id) => narrowTo([{ operator: 'dm', operand: String(id) }])} />
        </div>
      </div>
      {personalMenu && <Menu anchor={personalMenu} label="Personal menu" onClose={() => setPersonalMenu(null)} items={menuItems} />}
      {dialog === 'channels' && (
        <ChannelBrowser
          onClose={() => setDialog(null)}
          onOpen={(id) => {
            setDialog(null);
            narrowTo([{ operator: 'channel', operand: String(id) }]);
          }}
        />
      )}
      {dialog === 'settings' && <SettingsDialog onClose={() => setDialog(null)} />}
      {dialog === 'invite' && <InviteDialog onClose={() => setDialog(null)} />}
      {dialog === 'shortcuts' && (
        <Dialog title="Keyboard shortcuts" onClose={() => setDialog(null)}>
          <dl className="shortcuts">
            {SHORTCUTS.map(([k, d]) => (
              <div key={k}>
                <dt>
                  <kbd>{k}</kbd>
                </dt>
                <dd>{d}</dd>
              </div>
            ))}
          </dl>
        </Dialog>
      )}
    </ComposeContext.Provider>
  );
}
