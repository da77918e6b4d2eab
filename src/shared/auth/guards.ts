import { DomainError } from '@app/domain/shared';
import {
  type Actor,
  adminRequired,
  botRequired,
  botsNotAllowed,
  guestsNotAllowed,
  isAdmin,
  isGuest,
  isOwner,
  isWellFormedApiKey,
  ownerRequired,
} from '@app/domain/users';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { Clock } from '../application/clock.js';
import { ServerConfig } from '../config/server-config.js';
import type { Requirement } from './decorators.js';
import { routeFlags } from './route-flags.js';
import { BrowserSessions } from '../application/browser-sessions.js';
import { challengeWithSession, cookieValues, isSessionRequest, SESSION_COOKIE, setRequestSession } from '../http/browser-requests.js';
import { checkCsrf, tokenCookie } from './browser-cookies.js';
import { API_BY_IP, API_BY_USER, rateLimited, RateLimiter } from '../application/rate-limiter.js';

const unauthorized = (msg: string) => new DomainError(msg, 'UNAUTHORIZED', 'unauthorized');
const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

/** Decodes the credentials of a Basic header; refuses malformed UTF-8 (stateless: one for all requests). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Authentication: HTTP Basic through passport-http, with Zulip's distinct answers for every way
 * the header can be wrong (the stock guard answers them all with a bare 401); under /json the
 * session cookie instead (after the CSRF check, as Django's middleware runs before the view),
 * and on the routes that accept it (uploads) the session cookie when there is no header.
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard('basic') {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: BrowserSessions,
    private readonly config: ServerConfig,
  ) {
    super();
  }

  // Synchronous for public routes (no promise to await); a failed check rejects, as before.
  override canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    try {
      const req = ctx.switchToHttp().getRequest<Request>();
      const session = isSessionRequest(req);
      const flags = routeFlags(this.reflector, ctx);
      if (session && flags.apiKeyOnly) throw new DomainError('Not Found', 'NOT_FOUND', 'not_found');
      if (session || flags.csrfProtected) checkCsrf(req, this.config);
      if (flags.public) return true;
      const cookieOnly = flags.sessionCookieAccepted && req.headers.authorization === undefined && cookieValues(req, SESSION_COOKIE).length > 0;
      if (session || cookieOnly) return this.authenticateSession(req, session && flags.spectatorAllowed);
      checkAuthorizationHeader(req.headers.authorization);
      return super.canActivate(ctx) as Promise<boolean>;
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw unauthorized('Invalid API key');
    return user;
  }

  /**
   * The `sessionid` cookie → the caller; anything else (none, two, malformed, ended) is "not
   * logged in", or, where spectators are allowed, a request with no caller.
   */
  private async authenticateSession(req: Request, spectatorAllowed: boolean): Promise<true> {
    challengeWithSession(req);
    const token = tokenCookie(req, SESSION_COOKIE);
    const caller = token === null ? null : await this.sessions.authenticate(req.headers.host, token);
    if (caller === null && spectatorAllowed) return true;
    if (caller === null) throw unauthorized(NOT_LOGGED_IN);
    req.user = caller.actor;
    setRequestSession(req, caller.sessionId);
    return true;
  }
}

function checkAuthorizationHeader(header: string | undefined): void {
  if (header === undefined) throw unauthorized(NOT_LOGGED_IN);
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw unauthorized('Invalid authorization header for basic auth');
  if (parts[0].toLowerCase() !== 'basic') {
    throw new DomainError('This endpoint requires HTTP basic authentication.');
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(parts[1]) || parts[1].length % 4 !== 0) {
    throw unauthorized('Invalid authorization header for basic auth');
  }
  let decoded: string;
  try {
    decoded = strictUtf8.decode(Buffer.from(parts[1], 'base64'));
  } catch {
    throw unauthorized('Invalid authorization header for basic auth');
  }
  const pieces = decoded.split(':');
  if (pieces.length !== 2) throw unauthorized('Invalid authorization header for basic auth');
  // passport-http turns an empty half into a bare challenge; answer as Zulip does instead.
  if (!isWellFormedApiKey(pieces[1].trim())) throw unauthorized('Malformed API key');
  if (pieces[0].trim() === '') throw unauthorized('Invalid API key');
}

/**
 * Zulip's api_by_user limits (200/min, 2000/h per user) and, for unauthenticated API requests
 * (logins included, the browser's login form too), its api_by_ip limit (100/min per client
 * address; `req.ip`, which follows X-Forwarded-For only through TRUSTED_PROXIES), with
 * X-RateLimit-* headers.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly config: ServerConfig,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    if (!this.config.rateLimiting) return true;
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request>();
    const actor = req.user as Actor | undefined;
    // Health checks and pages are not counted; the API, spectators' /json requests and the browser's login form are.
    if (actor === undefined && !req.path.startsWith('/api/') && !req.path.startsWith('/json/') && !routeFlags(this.reflector, ctx).csrfProtected) return true;
    return this.count(http, req, actor);
  }

  private async count(http: ReturnType<ExecutionContext['switchToHttp']>, req: Request, actor: Actor | undefined): Promise<boolean> {
    const d =
      actor === undefined
        ? await this.limiter.hit(`ip:${clientAddress(req)}`, API_BY_IP, this.clock.now().getTime())
        : await this.limiter.hit(`user:${actor.userId}`, API_BY_USER, this.clock.now().getTime());
    applyRateLimitHeaders(http.getResponse<Response>(), d);
    if (!d.allowed) throw rateLimited(d.retryAfter);
    return true;
  }
}

/** The client's address: the socket's peer, or what TRUSTED_PROXIES say it is (Express `trust proxy`). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function applyRateLimitHeaders(
  res: Response,
  d: { limit: number; remaining: number; resetAt: number },
): void {
  res.setHeader('X-RateLimit-Limit', String(d.limit));
  res.setHeader('X-RateLimit-Remaining', String(d.remaining));
  res.setHeader('X-RateLimit-Reset', String(d.resetAt));
}


/** The role/kind requirements of @Require(), in Zulip's order (guest before bot). */
@Injectable()
export class RequirementsGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const flags = routeFlags(this.reflector, ctx);
    const required = flags.requirements;
    if (required.length === 0 || flags.public) return true;
    const actor = ctx.switchToHttp().getRequest<Request>().user as Actor;
    for (const r of required) assertRequirement(actor, r);
    return true;
  }
}

function assertRequirement(actor: Actor, r: Requirement): void {
  switch (r) {
    case 'human':
      if (actor.isBot) throw botsNotAllowed();
      return;
    case 'member':
      if (isGuest(actor.role)) throw guestsNotAllowed();
      if (actor.isBot) throw botsNotAllowed();
      return;
    case 'no_guest':
      if (isGuest(actor.role)) throw guestsNotAllowed();
      return;
    case 'admin':
      if (!isAdmin(actor.role)) throw adminRequired();
      return;
    case 'owner':
      if (!isOwner(actor.role)) throw ownerRequired();
      return;
    case 'bot':
      if (!actor.isBot) throw botRequired();
      return;
  }
}
