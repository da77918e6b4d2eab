import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type ApiClient } from '../api/client';
import type { Me } from '../api/types';
import { Session } from '../app/session';
import { SessionContext } from './context';
import { Login } from './Login';
import { Main } from './Main';

type Phase = { kind: 'loading' } | { kind: 'login' } | { kind: 'error'; message: string } | { kind: 'app'; me: Me };

/** The logged-in app: a session (register + events) and the main screen once the state is in. */
function ChatApp({ client, me, realmName, onLoggedOut }: { client: ApiClient; me: Me; realmName: string; onLoggedOut: () => void }) {
  const [session, setSession] = useState<Session | null>(null);
  const realmNameRef = useRef(realmName);
  useEffect(() => {
    const s = new Session(client, me, realmNameRef.current, { onReady: () => setSession(s), onLoggedOut });
    s.start();
    return () => {
      s.stop();
      setSession(null);
    };
  }, [client, me, onLoggedOut]);
  if (!session) {
    return (
      <main className="boot">
        <p role="status">Loading…</p>
      </main>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Main />
    </SessionContext.Provider>
  );
}

/** Boot: the organization's name, then the session (GET /json/users/me; not logged in → the login form). */
export function App({ client }: { client: ApiClient }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [realmName, setRealmName] = useState('');

  const loadMe = useCallback(async () => {
    try {
      const me = await client.get<Me>('users/me');
      setPhase({ kind: 'app', me });
    } catch (e) {
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) setPhase({ kind: 'login' });
      else setPhase({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }, [client]);

  useEffect(() => {
    client
      .get<{ realm_name?: string }>('/api/v1/server_settings')
      .then((r) => setRealmName(r.realm_name ?? ''))
      .catch(() => undefined);
    void loadMe();
  }, [client, loadMe]);

  useEffect(() => {
    client.onUnauthorized = () => setPhase({ kind: 'login' });
    return () => {
      client.onUnauthorized = null;
    };
  }, [client]);

  useEffect(() => {
    if (phase.kind === 'login') document.title = realmName ? `Log in - ${realmName}` : 'Log in';
  }, [phase.kind, realmName]);

  const onLoggedOut = useCallback(() => setPhase({ kind: 'login' }), []);

  switch (phase.kind) {
    case 'loading':
      return (
        <main className="boot">
          <p role="status">Loading…</p>
        </main>
      );
    case 'error':
      return (
        <main className="boot">
          <p role="alert">{phase.message}</p>
          <button
            type="button"
            className="primary"
            onClick={() => {
              setPhase({ kind: 'loading' });
              void loadMe();
            }}
          >
            Try again
          </button>
        </main>
      );
    case 'login':
      return <Login client={client} realmName={realmName} onLoggedIn={() => void loadMe()} />;
    case 'app':
      return <ChatApp key={phase.me.user_id} client={client} me={phase.me} realmName={realmName} onLoggedOut={onLoggedOut} />;
  }
}
