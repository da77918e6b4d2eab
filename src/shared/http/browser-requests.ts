import type { NextFunction, Request, Response } from 'express';

/**
 * Requests of the web app (Zulip's convention): `/json/<path>` is `/api/v1/<path>` authenticated
 * by the `sessionid` cookie instead of HTTP Basic. `jsonRoutes()` rewrites the URL before the
 * router sees it and marks the request; the auth guard then takes the session (and checks CSRF),
 * the error filter challenges with `Session` instead of `Basic`, and the request log names the
 * `/json` route.
 */

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const WWW_AUTHENTICATE_BASIC = 'Basic realm="zulip"';
/** Zulip's challenge on a 401 of a session-authenticated endpoint (no browser login dialog). */
export const WWW_AUTHENTICATE_SESSION = 'Session realm="zulip"';

const JSON_PREFIX = '/json';
const API_PREFIX = '/api/v1';
const SESSION_REQUEST = Symbol('svc:session-request');
const SESSION_ID = Symbol('svc:session-id');
const SESSION_CHALLENGE = Symbol('svc:session-challenge');

type Marked = Request & { [SESSION_REQUEST]?: true; [SESSION_ID]?: string; [SESSION_CHALLENGE]?: true };

/** Whether this request came in under /json (session authentication, CSRF-checked). */
export function isSessionRequest(req: Request): boolean {
  return (req as Marked)[SESSION_REQUEST] === true;
}

/** The session that authenticated this request (its id), or null when it was not one. */
export function requestSession(req: Request): string | null {
  return (req as Marked)[SESSION_ID] ?? null;
}

export function setRequestSession(req: Request, sessionId: string): void {
  (req as Marked)[SESSION_ID] = sessionId;
}

/** This request was authenticated (or refused) by its session cookie: a 401 challenges with `Session`. */
export function challengeWithSession(req: Request): void {
  (req as Marked)[SESSION_CHALLENGE] = true;
}

/** The WWW-Authenticate of a 401: `Session` for session-authenticated requests (Zulip's), else `Basic`. */
export function wwwAuthenticateFor(req: Request): string {
  return isSessionRequest(req) || (req as Marked)[SESSION_CHALLENGE] === true ? WWW_AUTHENTICATE_SESSION : WWW_AUTHENTICATE_BASIC;
}

/** The route pattern as the client named it: `/json/messages` for a request that came in under /json. */
export function clientRoute(req: Request, pattern: string): string {
  return isSessionRequest(req) && pattern.startsWith(`${API_PREFIX}/`) ? `${JSON_PREFIX}${pattern.slice(API_PREFIX.length)}` : pattern;
}

/**
 * The routes whose answer is the user's own API key: never served under /json, so the key never
 * reaches page scripts (their /json path is an unknown route). Compared on the decoded,
 * lower-cased path without repeated or trailing slashes, as the router would match it.
 */
const API_KEY_ROUTES = new Set(['/fetch_api_key', '/users/me/api_key/regenerate']);

function normalizedPath(rest: string): string {
  let path = rest.split('?')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // Left as sent: the router will not match it either.
  }
  return path.toLowerCase().replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
}

/** Express middleware: `/json/x` → `/api/v1/x`, marked as a session request; its Authorization header is dropped. */
export function jsonRoutes() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const url = req.url;
    if (!(url.startsWith(`${JSON_PREFIX}/`) || url === JSON_PREFIX || url.startsWith(`${JSON_PREFIX}?`))) return next();
    const rest = url.slice(JSON_PREFIX.length);
    if (API_KEY_ROUTES.has(normalizedPath(rest))) return next();
    (req as Marked)[SESSION_REQUEST] = true;
    // Under /json only the session cookie authenticates: nothing downstream may read other credentials.
    delete req.headers.authorization;
    req.url = `${API_PREFIX}${rest}`;
    next();
  };
}

/**
 * Every value of one cookie in the request's Cookie header(s), in order (a name sent twice has
 * two). No decoding: the cookies read here are tokens of base64url characters.
 */
export function cookieValues(req: Request, name: string): string[] {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header === '') return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    values.push(pair.slice(at + 1).trim());
  }
  return values;
}
