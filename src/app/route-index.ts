import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { RouterLayer } from '../shared/http/routes.js';

type Layer = RouterLayer;
type ExpressRouter = ((req: Request, res: Response, next: NextFunction) => void) & { stack: Layer[] };

/** A request path the index can look up: plain characters only (anything else is left to Express's own matching). */
const PLAIN_PATH = /^\/[A-Za-z0-9/_.~-]*$/;
/** A route path with a parameter, a wildcard or an optional part (matched by Express only). */
const PATTERN = /[:*?(){}[\]]/;

/**
 * Express finds a request's route by trying every route layer in order: with the 208 route layers
 * of this API, `GET /api/v1/server_settings` ran 189 path matches per request (11 % of the busy
 * time of that endpoint under `npm run bench`). The index replaces the block of route layers by
 * one layer that looks the request's path up among the literal route paths and runs only the
 * layers that can match it — every layer, literal or with parameters, that matches that path,
 * in their order — so the same route answers as before, with the same 404/405/OPTIONS answers
 * (no other layer can match that path). A path that is not a literal route path (`/messages/42`)
 * goes through every route layer, as before.
 *
 * Returns false (and changes nothing) when the router does not look as expected: route layers
 * not in one block, or a route for OPTIONS.
 */
export function indexRoutes(router: ExpressRouter): boolean {
  const stack = router.stack;
  const first = stack.findIndex((l) => l.route !== undefined);
  if (first < 0) return false;
  let end = first;
  while (end < stack.length && stack[end].route !== undefined) end++;
  if (stack.slice(end).some((l) => l.route !== undefined)) return false;
  const routes = stack.slice(first, end);
  // No route answers OPTIONS (Express's automatic answer is never reached: Nest's 404 handler,
  // after the routes, answers first): an OPTIONS request skips them all, as it did. A route that
  // did answer OPTIONS would need the routers' automatic answer kept out: not indexed then.
  if (routes.some((l) => l.route?.methods.options === true || l.route?.methods._all === true)) return false;
  const subRouter = (layers: Layer[]): ExpressRouter => {
    const r = Router() as unknown as ExpressRouter;
    r.stack = layers;
    return r;
  };
  const every = subRouter(routes);
  const byPath = new Map<string, ExpressRouter>();
  for (const l of routes) {
    const path = l.route?.path;
    if (typeof path !== 'string' || PATTERN.test(path)) continue;
    const key = pathKey(path);
    if (key === null || byPath.has(key)) continue;
    byPath.set(key, subRouter(routes.filter((r) => r.match(key))));
  }
  const holder = Router() as unknown as ExpressRouter & { use(fn: unknown): void };
  const routeIndex = (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return next();
    const key = pathKey(pathOf(req.url));
    ((key === null ? undefined : byPath.get(key)) ?? every)(req, res, next);
  };
  // The route layers it holds, in order (tests).
  holder.use(Object.assign(routeIndex, { routes }));
  stack.splice(first, end - first, holder.stack[0]);
  return true;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** The lookup key of a path as Express matches it: case-insensitive, one trailing slash allowed. */
function pathKey(path: string): string | null {
  if (!PLAIN_PATH.test(path)) return null;
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** Indexes the routes once Nest has registered them all (and its 404 and error handlers after them). */
@Injectable()
export class RouteIndex implements OnApplicationBootstrap {
  constructor(private readonly host: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const app = this.host.httpAdapter?.getInstance() as { router?: ExpressRouter } | undefined;
    if (app?.router !== undefined) indexRoutes(app.router);
  }
}
