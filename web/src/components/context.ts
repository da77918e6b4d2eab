import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Session } from '../app/session';
import type { AppState } from '../state/store';

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a session');
  return s;
}

/** The whole state; the component renders again on every change. */
export function useAppState(): AppState {
  const session = useSession();
  const store = session.store!;
  return useSyncExternalStore(store.subscribe, store.getState);
}
