import type { ExecutionContext, Type } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { API_KEY_ONLY, CSRF_PROTECTED, PUBLIC, REQUIRE, type Requirement, SESSION_COOKIE_ACCEPTED, SPECTATOR_ALLOWED } from './decorators.js';

/** What the auth decorators say of one route (its handler, then its controller class). */
export interface RouteFlags {
  readonly public: boolean;
  readonly csrfProtected: boolean;
  readonly sessionCookieAccepted: boolean;
  readonly apiKeyOnly: boolean;
  readonly spectatorAllowed: boolean;
  readonly requirements: readonly Requirement[];
}

type Handler = (...args: never[]) => unknown;

/**
 * The flags of each (controller class, handler) pair, read once: decorator metadata is set when
 * the classes are defined and never changes, so the guards need no Reflector lookups per request.
 * Keyed by class and handler (an inherited handler may be served by classes with different
 * class-level decorators).
 */
const cache = new WeakMap<Type<unknown>, WeakMap<Handler, RouteFlags>>();

export function readRouteFlags(reflector: Reflector, handler: Handler, cls: Type<unknown>): RouteFlags {
  const targets = [handler, cls];
  const flag = (key: string) => reflector.getAllAndOverride<boolean>(key, targets) === true;
  return Object.freeze({
    public: flag(PUBLIC),
    csrfProtected: flag(CSRF_PROTECTED),
    sessionCookieAccepted: flag(SESSION_COOKIE_ACCEPTED),
    apiKeyOnly: flag(API_KEY_ONLY),
    spectatorAllowed: flag(SPECTATOR_ALLOWED),
    requirements: Object.freeze([...(reflector.getAllAndOverride<Requirement[] | undefined>(REQUIRE, targets) ?? [])]),
  });
}

/** The route's flags (cached per class and handler). */
export function routeFlags(reflector: Reflector, ctx: ExecutionContext): RouteFlags {
  const cls = ctx.getClass();
  const handler = ctx.getHandler() as Handler;
  let byHandler = cache.get(cls);
  if (byHandler === undefined) {
    byHandler = new WeakMap();
    cache.set(cls, byHandler);
  }
  let flags = byHandler.get(handler);
  if (flags === undefined) {
    flags = readRouteFlags(reflector, handler, cls);
    byHandler.set(handler, flags);
  }
  return flags;
}
