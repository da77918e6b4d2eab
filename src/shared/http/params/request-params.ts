import type { Request } from 'express';

const READ = Symbol('svc:read-params');
type WithRead = Request & { [READ]?: Set<string> };

export function markParamsRead(req: Request, names: Iterable<string>): void {
  const r = req as WithRead;
  r[READ] ??= new Set();
  for (const n of names) r[READ].add(n);
}

/** Sorted names of the request's parameters (body and query) that no part of the endpoint read. */
export function ignoredParams(req: Request): string[] {
  const read = (req as WithRead)[READ] ?? new Set<string>();
  const sent = new Set<string>();
  for (const source of [req.body, req.query]) {
    if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
      for (const k of Object.keys(source)) sent.add(k);
    }
  }
  for (const k of Object.keys(req.params ?? {})) read.add(k);
  return [...sent].filter((k) => !read.has(k)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
