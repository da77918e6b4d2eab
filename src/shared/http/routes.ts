import { applyDecorators, HttpCode, Post } from '@nestjs/common';

/** POST with Zulip's 200 on success (Nest's default for POST is 201). */
export const ApiPost = (path?: string): MethodDecorator => applyDecorators(Post(path), HttpCode(200));

/** A layer of Express's router (the `router` package, 2.x), as far as this code reads it. */
export interface RouterLayer {
  readonly name?: string;
  readonly route?: { readonly path?: unknown; readonly methods: Record<string, boolean> };
  readonly handle?: { readonly routes?: readonly RouterLayer[] };
  match(path: string): false | { params?: Record<string, string> };
}

/** The route layers of a router's stack, in order, whether they stand in it or behind the route index (src/app/route-index.ts). */
export function routeLayers(stack: readonly RouterLayer[]): RouterLayer[] {
  return stack.flatMap((l) => (l.route !== undefined ? [l] : (l.handle?.routes ?? [])));
}
