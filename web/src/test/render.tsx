import { render } from '@testing-library/react';
import { onTestFinished } from 'vitest';
import { ApiClient } from '../api/client';
import { Session } from '../app/session';
import { SessionContext } from '../components/context';
import { Main } from '../components/Main';
import { type AppState, Store } from '../state/store';
import { ME } from './fixtures';

export interface Call {
  method: string;
  path: string;
  params: URLSearchParams;
}

type Answer = (call: Call) => { status?: number; body: Record<string, unknown> } | undefined;

/**
 * The main screen on a given state, with a fake server: every request recorded, answered by
 * `answer` (default: success with nothing). The events loop is not started.
 */
export function renderMain(state: AppState, answer: Answer = () => undefined) {
  const calls: Call[] = [];
  const client = new ApiClient(async (url, init = {}) => {
    const u = new URL(url, 'http://localhost');
    const method = init.method ?? 'GET';
    const params = method === 'GET' ? u.searchParams : init.body instanceof URLSearchParams ? init.body : new URLSearchParams();
    const call = { method, path: u.pathname, params };
    calls.push(call);
    const a = answer(call) ?? { body: {} };
    const body = a.status && a.status >= 400 ? a.body : { result: 'success', msg: '', ...a.body };
    return new Response(JSON.stringify(body), { status: a.status ?? 200 });
  });
  const session = new Session(client, ME, 'Demo Organization', { onReady: () => undefined, onLoggedOut: () => undefined });
  session.store = new Store(state);
  session.watchLocation();
  onTestFinished(() => session.stop());
  const utils = render(
    <SessionContext.Provider value={session}>
      <Main />
    </SessionContext.Provider>,
  );
  return { ...utils, session, store: session.store, calls };
}

/** The messages of GET /json/messages as the server would answer for a window holding them all. */
export const loaded = (s: AppState, messages: AppState['messages'] extends ReadonlyMap<number, infer M> ? M[] : never) => ({
  type: 'loaded' as const,
  generation: s.view.generation,
  direction: 'initial' as const,
  response: { messages, found_anchor: true, found_oldest: true, found_newest: true },
});
