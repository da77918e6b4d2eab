import { useMemo } from 'react';
import { narrowChannelId, narrowDmIds, narrowKey, narrowToHash, narrowTopic, type Term } from '../narrow/narrow';
import { dmNames, makeLookup, presenceStatus } from '../state/selectors';
import { dmKey, dmKeyIds, topicKey, unreadCounts } from '../state/unread';
import { useAppState } from './context';

const label = (name: string, count: number) => (count > 0 ? `${name} ${count}` : name);

/** The unread count; a space before it, so the link's visible text reads like its name ("general 3"). */
function Count({ n }: { n: number }) {
  return n > 0 ? (
    <>
      {' '}
      <span className="count">{n}</span>
    </>
  ) : null;
}

/**
 * The left side: views (All messages, Mentions, Starred), the `Channels` navigation (one link
 * per subscribed channel, named with its unread count), the open channel's topics, and the
 * `Direct messages` navigation with a `New direct message` button.
 */
export function Sidebar({ onBrowseChannels, onNewDm }: { onBrowseChannels: () => void; onNewDm: () => void }) {
  const s = useAppState();
  const lookup = makeLookup(s);
  const muted = useMemo(() => new Set([...s.subscriptions.values()].filter((x) => x.is_muted).map((x) => x.stream_id)), [s.subscriptions]);
  const counts = useMemo(() => unreadCounts(s.unread, muted), [s.unread, muted]);
  const current = s.view.key;
  const at = (terms: Term[]) => (narrowKey(terms) === current ? 'page' : undefined);
  const openChannel = narrowChannelId(s.view.narrow);
  const openTopic = narrowTopic(s.view.narrow);
  const openDm = narrowDmIds(s.view.narrow);
  const subs = [...s.subscriptions.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name));
  const topics = openChannel !== undefined && s.subscriptions.has(openChannel) ? (s.topics.get(openChannel) ?? []) : [];
  const unreadTopics = new Map<string, string>();
  for (const e of s.unread.values()) if (e.kind === 'stream' && e.streamId === openChannel) unreadTopics.set(e.topic.toLowerCase(), e.topic);
  const topicNames = [...topics.map((t) => t.name)];
  for (const [lower, name] of unreadTopics) if (!topicNames.some((t) => t.toLowerCase() === lower)) topicNames.push(name);
  const dms = [...s.dms].sort((a, b) => b[1] - a[1]).slice(0, 30);
  const now = Date.now() / 1000;
  const views: { terms: Term[]; name: string; count: number; icon: string }[] = [
    { terms: [], name: 'All messages', count: counts.total, icon: '≡' },
    { terms: [{ operator: 'is', operand: 'mentioned' }], name: 'Mentions', count: counts.mentions, icon: '@' },
    { terms: [{ operator: 'is', operand: 'starred' }], name: 'Starred', count: 0, icon: '★' },
  ];
  return (
    <>
      <nav aria-label="Views" className="sidebar-section">
        <ul className="nav-list">
          {views.map((v) => (
            <li key={v.name}>
              <a href={narrowToHash(v.terms, lookup)} aria-current={at(v.terms)} aria-label={label(v.name, v.count)} className="nav-link">
                <span className="nav-icon" aria-hidden="true">
                  {v.icon}
                </span>
                <span className="nav-name">{v.name}</span>
                <Count n={v.count} />
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Channels" className="sidebar-section">
        <div className="sidebar-heading">
          <h2>Channels</h2>
          <button type="button" className="icon-button" aria-label="Browse channels" title="Browse channels" onClick={onBrowseChannels}>
            <span aria-hidden="true">⊕</span>
          </button>
        </div>
        {subs.length === 0 && <p className="muted sidebar-empty">You are not subscribed to any channel.</p>}
        <ul className="nav-list">
          {subs.map((sub) => {
            const terms = [{ operator: 'channel', operand: String(sub.stream_id) }];
            const n = counts.byStream.get(sub.stream_id) ?? 0;
            return (
              <li key={sub.stream_id}>
                <a
                  href={narrowToHash(terms, lookup)}
                  aria-current={at(terms) ?? (openChannel === sub.stream_id ? 'location' : undefined)}
                  aria-label={label(sub.name, n)}
                  className={sub.is_muted ? 'nav-link muted-channel' : 'nav-link'}
                >
                  <span className="channel-swatch" aria-hidden="true" style={{ color: sub.color }}>
                    {sub.invite_only ? '🔒︎' : '#'}
                  </span>
                  <span className="nav-name">{sub.name}</span>
                  <Count n={n} />
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      {openChannel !== undefined && s.subscriptions.has(openChannel) && (
        <nav aria-label="Topics" className="sidebar-section topics-section">
          <h2 className="sidebar-subheading">Topics in #{s.subscriptions.get(openChannel)!.name}</h2>
          {topicNames.length === 0 && <p className="muted sidebar-empty">No topics yet.</p>}
          <ul className="nav-list">
            {topicNames.slice(0, 40).map((name) => {
              const terms = [
                { operator: 'channel', operand: String(openChannel) },
                { operator: 'topic', operand: name },
              ];
              const n = counts.byTopic.get(topicKey(openChannel, name)) ?? 0;
              return (
                <li key={name.toLowerCase()}>
                  <a
                    href={narrowToHash(terms, lookup)}
                    aria-current={openTopic !== undefined && openTopic.toLowerCase() === name.toLowerCase() ? 'page' : undefined}
                    aria-label={label(name, n)}
                    className="nav-link topic-link"
                  >
                    <span className="nav-name">{name}</span>
                    <Count n={n} />
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      )}
      <nav aria-label="Direct messages" className="sidebar-section">
        <div className="sidebar-heading">
          <h2>Direct messages</h2>
          <button type="button" className="icon-button" aria-label="New direct message" title="New direct message (x)" onClick={onNewDm}>
            <span aria-hidden="true">✎</span>
          </button>
        </div>
        {dms.length === 0 && <p className="muted sidebar-empty">No conversations yet.</p>}
        <ul className="nav-list">
          {dms.map(([key]) => {
            const terms = [{ operator: 'dm', operand: key }];
            const n = counts.byDm.get(key) ?? 0;
            const ids = dmKeyIds(key);
            const status = ids.length === 1 ? presenceStatus(s.presence.get(ids[0]), now) : null;
            const current = openDm !== undefined && dmKey(openDm, s.me.user_id) === key;
            return (
              <li key={key}>
                <a href={narrowToHash(terms, lookup)} aria-current={current ? 'page' : undefined} aria-label={label(dmNames(s, key), n)} className="nav-link">
                  <span className={`presence-dot ${status ?? 'group'}`} aria-hidden="true" title={status ?? undefined} />
                  <span className="nav-name">{dmNames(s, key)}</span>
                  <Count n={n} />
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}
