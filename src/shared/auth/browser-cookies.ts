import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@app/domain/shared';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { ServerConfig } from '../config/server-config.js';
import { cookieValues, CSRF_COOKIE, jsonRoutes, SESSION_COOKIE } from '../http/browser-requests.js';

/**
 * The cookies of browser sessions (the contract the web app is built on):
 * - `sessionid`: the session's token (32 random bytes, base64url), HttpOnly, SameSite=Lax,
 *   Path=/, Secure when EXTERNAL_URL is https, Max-Age the session's lifetime; the server keeps
 *   only its SHA-256;
 * - `csrftoken`: a random token page scripts read and send back as `X-CSRFToken` on every
 *   unsafe request (Django's double submit), not HttpOnly; set by the page, rotated on login.
 */

/** 32 random bytes, base64url: what both cookies hold. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Django's CSRF_COOKIE_AGE (a year, in seconds). */
const CSRF_COOKIE_AGE_SECONDS = 31_449_600;
/** The Express setting configureBrowserSessions() leaves for ensureCsrfCookie(): whether cookies are Secure. */
const SECURE_COOKIES = 'svc:secure-cookies';
/** Methods that change nothing (RFC 9110's safe methods): no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export const newBrowserToken = (): string => randomBytes(32).toString('base64url');

/** The one well-formed value of a cookie; null when it is absent, sent twice, or not a token. */
export function tokenCookie(req: Request, name: string): string | null {
  const values = cookieValues(req, name);
  return values.length === 1 && TOKEN.test(values[0]) ? values[0] : null;
}

function cookieOptions(secure: boolean, maxAgeSeconds: number, httpOnly: boolean): CookieOptions {
  return { path: '/', sameSite: 'lax', secure, httpOnly, maxAge: maxAgeSeconds * 1000 };
}

/** Installs the /json routes and remembers whether cookies are Secure (called once, by configureApp). */
export function configureBrowserSessions(app: { use(handler: RequestHandler): unknown; set(setting: string, value: unknown): unknown }, config: ServerConfig): void {
  app.set(SECURE_COOKIES, config.secureCookies);
  app.use(jsonRoutes());
}

/**
 * For the page that hosts the web app (GET /): gives the browser a `csrftoken` cookie when it
 * has no well-formed one; returns the token the browser holds.
 */
export function ensureCsrfCookie(req: Request, res: Response): string {
  const current = tokenCookie(req, CSRF_COOKIE);
  if (current !== null) return current;
  return setCsrfCookie(res, req.app.get(SECURE_COOKIES) === true);
}

/** A new `csrftoken` (on login, as Django's rotate_token). */
export function setCsrfCookie(res: Response, secure: boolean): string {
  const token = newBrowserToken();
  res.cookie(CSRF_COOKIE, token, cookieOptions(secure, CSRF_COOKIE_AGE_SECONDS, false));
  return token;
}

export function setSessionCookie(res: Response, token: string, config: ServerConfig): void {
  res.cookie(SESSION_COOKIE, token, cookieOptions(config.secureCookies, config.sessionLifetimeSeconds, true));
}

export function clearSessionCookie(res: Response, config: ServerConfig): void {
  res.clearCookie(SESSION_COOKIE, { path: '/', sameSite: 'lax', secure: config.secureCookies, httpOnly: true });
}

/** Zulip's CsrfFailureError: 403 `CSRF error: <reason>`, with the reason as Django words it. */
export const csrfFailure = (reason: string) => new DomainError(`CSRF error: ${reason}`, 'CSRF_FAILED', 'forbidden', { reason });

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The request's own origin: its Host, over https when EXTERNAL_URL is (behind a proxy the socket may be http). */
function ownOrigin(req: Request, config: ServerConfig): string {
  const scheme = config.secureCookies ? 'https' : req.protocol;
  return `${scheme}://${(req.headers.host ?? '').toLowerCase()}`;
}

/**
 * Django's CSRF check (CsrfViewMiddleware), for an unsafe method: a present Origin must be the
 * request's own; then the `csrftoken` cookie must be set and `X-CSRFToken` must equal it.
 */
export function checkCsrf(req: Request, config: ServerConfig): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin(req, config)) {
    throw csrfFailure(`Origin checking failed - ${origin} does not match any trusted origins.`);
  }
  const cookies = cookieValues(req, CSRF_COOKIE).filter((v) => v !== '');
  if (cookies.length === 0) throw csrfFailure('CSRF cookie not set.');
  const header = req.headers['x-csrftoken'];
  const sent = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (sent === '') throw csrfFailure('CSRF token missing.');
  const cookie = tokenCookie(req, CSRF_COOKIE);
  if (cookie === null || !sameToken(cookie, sent)) throw csrfFailure('CSRF token incorrect.');
}
