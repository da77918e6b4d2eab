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
  const sent: string[] = [];
  for (const source of [req.body, req.query]) {
    if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
      for (const k in source) if (Object.hasOwn(source, k)) sent.push(k);
    }
  }
  // Most requests (every GET without parameters) send nothing: no sets to build.
  if (sent.length === 0) return [];
  const read = (req as WithRead)[READ] ?? new Set<string>();
  const params = req.params ?? {};
  const ignored = [...new Set(sent)].filter((k) => !read.has(k) && !Object.hasOwn(params, k));
  return ignored.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
