import { RequestMethod } from '@nestjs/common';
import type { ModulesContainer } from '@nestjs/core';
import { PUBLIC, REQUIRE } from '../../shared/auth/decorators.js';
import { RAW_RESPONSE } from '../../shared/http/envelope.interceptor.js';
import type { RouteInfo } from '../../shared/http/openapi/openapi-document.js';
import { declaredParamsOf } from '../../shared/http/params/zulip-params.js';

const normalize = (...parts: string[]) =>
  `/${parts.join('/')}`
    .replace(/\/+/g, '/')
    .replace(/(.)\/$/, '$1');

type Ctor = new (...args: unknown[]) => unknown;

function routesOf(ctrl: Ctor): RouteInfo[] {
  const bases = [Reflect.getMetadata('path', ctrl) ?? ''].flat() as string[];
  const out: RouteInfo[] = [];
  for (const handler of Object.getOwnPropertyNames(ctrl.prototype)) {
    const fn = (ctrl.prototype as Record<string, unknown>)[handler];
    if (handler === 'constructor' || typeof fn !== 'function') continue;
    const paths = Reflect.getMetadata('path', fn) as string | string[] | undefined;
    if (paths === undefined) continue;
    const method = RequestMethod[Reflect.getMetadata('method', fn) as number];
    const types = (Reflect.getMetadata('design:paramtypes', ctrl.prototype, handler) ?? []) as unknown[];
    const meta = <T>(key: string): T | undefined => (Reflect.getMetadata(key, fn) ?? Reflect.getMetadata(key, ctrl)) as T | undefined;
    for (const base of bases) {
      for (const p of [paths].flat()) {
        out.push({
          method,
          path: normalize(base, p),
          params: types.flatMap((t) => declaredParamsOf(t)),
          public: meta<boolean>(PUBLIC) === true,
          raw: meta<boolean>(RAW_RESPONSE) === true,
          tag: ctrl.name.replace(/Controller$/, ''),
          handler,
          requires: meta<string[]>(REQUIRE) ?? [],
        });
      }
    }
  }
  return out;
}

/** Every route of every controller of the application, sorted by path then method. */
export function collectRoutes(modules: ModulesContainer): RouteInfo[] {
  const seen = new Set<Ctor>();
  const routes: RouteInfo[] = [];
  for (const mod of modules.values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype as Ctor | null;
      if (!ctrl || seen.has(ctrl)) continue;
      seen.add(ctrl);
      routes.push(...routesOf(ctrl));
    }
  }
  return routes.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path < b.path ? -1 : 1));
}
