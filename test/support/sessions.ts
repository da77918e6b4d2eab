import type request from 'supertest';
import { type Account, type Method, type TestApp, withParameters } from './test-app.js';

/**
 * Browser sessions in tests (the web app's contract): log in through POST /accounts/login/ with
 * a CSRF token pair, then call `/json/...` with the cookies and `X-CSRFToken`, as the page does.
 */

/** What a browser holds after logging in: its two cookies, for one organization (Host). */
export interface BrowserSession {
  sessionid: string;
  csrftoken: string;
  host?: string;
}

/** A well-formed token (32 random-looking bytes, base64url) for a CSRF cookie the test makes up. */
export const someToken = (seed = 'x'): string => Buffer.from(seed.repeat(32).slice(0, 32)).toString('base64url');

/** The Set-Cookie headers of an answer, by cookie name: value and attributes (lower-cased names). */
export function setCookies(res: request.Response): Record<string, { value: string; attributes: Record<string, string | true> }> {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const out: Record<string, { value: string; attributes: Record<string, string | true> }> = {};
  for (const line of raw ?? []) {
    const [pair, ...attrs] = line.split(';').map((p) => p.trim());
    const at = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const a of attrs) {
      const eq = a.indexOf('=');
      if (eq < 0) attributes[a.toLowerCase()] = true;
      else attributes[a.slice(0, eq).toLowerCase()] = a.slice(eq + 1);
    }
    out[pair.slice(0, at)] = { value: pair.slice(at + 1), attributes };
  }
  return out;
}

/** The Cookie header of a browser holding these cookies. */
export const cookieHeader = (s: Partial<BrowserSession>): string =>
  [s.sessionid === undefined ? null : `sessionid=${s.sessionid}`, s.csrftoken === undefined ? null : `csrftoken=${s.csrftoken}`].filter((c) => c !== null).join('; ');

/** POST /accounts/login/ as a browser (a CSRF cookie of its own and the header); the raw answer. */
export function postLogin(t: TestApp, username: string, password: string, o: { host?: string; csrftoken?: string; sessionid?: string } = {}): request.Test {
  const csrftoken = o.csrftoken ?? someToken('login');
  let req = t.http.post('/accounts/login/').set('Cookie', cookieHeader({ csrftoken, sessionid: o.sessionid })).set('X-CSRFToken', csrftoken);
  if (o.host) req = req.set('Host', o.host);
  return t.checkedAgainstDocument('post', req.type('form').send({ username, password }));
}

/** Logs in as a browser; the session's cookies. */
export async function logIn(t: TestApp, email: string, password: string, host?: string): Promise<BrowserSession> {
  const res = await postLogin(t, email, password, { host });
  if (res.status !== 200) throw new Error(`browser login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookies = setCookies(res);
  return { sessionid: cookies.sessionid.value, csrftoken: cookies.csrftoken.value, host };
}

const sessions = new WeakMap<TestApp, Map<string, Promise<BrowserSession | null>>>();

/** A browser session of an account that logged in with a password through `t.login` (cached); null for one without (a bot). */
export function sessionOf(t: TestApp, account: Account): Promise<BrowserSession | null> {
  let cache = sessions.get(t);
  if (!cache) sessions.set(t, (cache = new Map()));
  const key = `${account.host ?? ''} ${account.email}`;
  let s = cache.get(key);
  if (s === undefined) {
    const password = t.passwordOf(account);
    s = password === undefined ? Promise.resolve(null) : logIn(t, account.email, password, account.host);
    cache.set(key, s);
  }
  return s;
}

export interface JsonCall {
  form?: Record<string, unknown>;
  query?: Record<string, unknown>;
  multipart?: Record<string, unknown>;
  /** The X-CSRFToken header (default: the session's token; null: none). */
  csrf?: string | null;
  origin?: string;
  host?: string;
}

/** A request of the web app: `/json/<path>` with the browser's cookies and CSRF header, checked against the API reference. */
export function json(t: TestApp, method: Method, path: string, s: Partial<BrowserSession> | null, o: JsonCall = {}): request.Test {
  let req = t.http[method](`/json/${path}`);
  if (s) req = req.set('Cookie', cookieHeader(s));
  const csrf = o.csrf === undefined ? s?.csrftoken : o.csrf;
  if (csrf !== null && csrf !== undefined) req = req.set('X-CSRFToken', csrf);
  if (o.origin) req = req.set('Origin', o.origin);
  const host = o.host ?? s?.host;
  if (host) req = req.set('Host', host);
  return t.checkedAgainstDocument(method, withParameters(req, o));
}
