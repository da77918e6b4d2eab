import { useEffect, useState } from 'react';
import type { Stream } from '../api/types';
import { useAppState, useSession } from './context';
import { Dialog } from './Dialog';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The `Channels` dialog: every channel the user can see, subscribe/unsubscribe, and a form to create one. */
export function ChannelBrowser({ onClose, onOpen }: { onClose: () => void; onOpen: (streamId: number) => void }) {
  const session = useSession();
  const s = useAppState();
  const [streams, setStreams] = useState<Stream[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [rowError, setRowError] = useState<{ id: number; msg: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const load = () =>
    session
      .listStreams()
      .then((list) => setStreams(list.sort((a, b) => a.name.localeCompare(b.name))))
      .catch((e) => setLoadError(errorText(e)));
  useEffect(() => {
    void load();
  }, []);

  // Channels created or subscribed meanwhile (events) show too.
  const known = new Map((streams ?? []).map((st) => [st.stream_id, st]));
  for (const sub of s.subscriptions.values()) if (!known.has(sub.stream_id)) known.set(sub.stream_id, sub);
  const list = [...known.values()].filter((st) => st.name.toLowerCase().includes(filter.trim().toLowerCase())).sort((a, b) => a.name.localeCompare(b.name));

  const toggle = async (st: Stream) => {
    if (busy !== null) return;
    setBusy(st.stream_id);
    setRowError(null);
    try {
      if (s.subscriptions.has(st.stream_id)) await session.unsubscribe(st.name);
      else await session.subscribe(st.name);
    } catch (e) {
      setRowError({ id: st.stream_id, msg: errorText(e) });
    } finally {
      setBusy(null);
    }
  };

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      await session.createChannel(name.trim(), description, isPrivate);
      setName('');
      setDescription('');
      setPrivate(false);
      void load();
    } catch (err) {
      setCreateError(errorText(err));
    } finally {
      setCreating(false);
    }
  };

  return (
    <Dialog title="Channels" onClose={onClose} wide>
      <div className="stack">
        <label className="field">
          <span>Filter channels</span>
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} data-autofocus />
        </label>
        {loadError !== null && (
          <p role="alert" className="form-error">
            {loadError}
          </p>
        )}
        {streams === null && loadError === null && <p className="muted">Loading channels…</p>}
        <ul className="channel-rows">
          {list.map((st) => {
            const subscribed = s.subscriptions.has(st.stream_id);
            const nameId = `channel-row-${st.stream_id}`;
            return (
              <li key={st.stream_id} className="channel-row">
                <div className="channel-row-text">
                  <span className="channel-row-name" id={nameId}>
                    <span aria-hidden="true">{st.invite_only ? '🔒︎ ' : '# '}</span>
                    {subscribed ? (
                      <a
                        href="#"
                        onClick={(e) => {
                          e.preventDefault();
                          onOpen(st.stream_id);
                        }}
                      >
                        {st.name}
                      </a>
                    ) : (
                      st.name
                    )}
                  </span>
                  {st.description !== '' && <span className="channel-row-description">{st.description}</span>}
                  {rowError?.id === st.stream_id && (
                    <span role="alert" className="form-error">
                      {rowError.msg}
                    </span>
                  )}
                </div>
                <button type="button" className={subscribed ? 'secondary' : 'primary'} aria-describedby={nameId} aria-disabled={busy === st.stream_id} onClick={() => void toggle(st)}>
                  {subscribed ? 'Unsubscribe' : 'Subscribe'}
                </button>
              </li>
            );
          })}
        </ul>
        <form className="stack create-channel" onSubmit={create} noValidate>
          <h3>Create a channel</h3>
          <label className="field">
            <span>Channel name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} aria-invalid={createError !== null} aria-describedby={createError !== null ? 'create-channel-error' : undefined} />
          </label>
          {createError !== null && (
            <p role="alert" className="form-error" id="create-channel-error">
              {createError}
            </p>
          )}
          <label className="field">
            <span>Description</span>
            <input value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />
            <span>Private</span>
          </label>
          <div className="form-buttons">
            <button type="submit" className="primary" disabled={creating}>
              Create channel
            </button>
          </div>
        </form>
      </div>
    </Dialog>
  );
}
