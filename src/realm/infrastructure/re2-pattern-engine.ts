import type { CompiledPattern, PatternCompiler, PatternMatch } from '@app/domain/realm';
import { createRequire } from 'node:module';
import { PatternEngine } from '../application/realm.ports.js';

/*
 * RE2 (Google's C++ library, compiled to WebAssembly by the `re2-wasm` package) for the
 * patterns organizations define, so syntax, semantics and error texts are RE2's, as in Zulip
 * (which compiles linkifier patterns with RE2's Python binding). The package's JS wrapper
 * rewrites patterns from JavaScript syntax first; this uses the underlying RE2 object
 * directly so patterns are read exactly as RE2 reads them.
 */

interface CppVector<V> {
  get(i: number): V;
  size(): number;
  delete(): void;
}
interface CppMap<K, V> {
  keys(): CppVector<K>;
  get(k: K): V;
  delete(): void;
}
interface WrappedRE2 {
  ok(): boolean;
  error(): string;
  match(input: string, start: number, getCapturingGroups: boolean): { match: string; index: number; groups: (string | undefined)[] };
  capturingGroupNames(): CppMap<number, string>;
  delete(): void;
}
type WrappedRE2Constructor = new (pattern: string, ignoreCase: boolean, multiline: boolean, dotAll: boolean) => WrappedRE2;

const { WrappedRE2 } = createRequire(import.meta.url)('re2-wasm/build/wasm/re2.js') as { WrappedRE2: WrappedRE2Constructor };

/**
 * Current RE2 also reads `(?<name>...)` as a named group; the RE2 build inside re2-wasm
 * predates that, so such groups (outside character classes, not escaped) are spelled
 * `(?P<name>...)` for it.
 */
export function spellNamedGroupsForRe2(pattern: string): string {
  let out = '';
  let inClass = false;
  let classStart = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (pattern.startsWith('\\Q', i)) {
      // \Q...\E quotes everything up to \E (or the end) literally.
      const end = pattern.indexOf('\\E', i + 2);
      const stop = end < 0 ? pattern.length : end + 2;
      out += pattern.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i += 1;
      continue;
    }
    if (inClass) {
      // A "]" right after "[" or "[^" is a literal member, not the end of the class.
      const body = out.slice(classStart);
      if (c === ']' && body !== '' && body !== '^') inClass = false;
    } else if (c === '[') {
      inClass = true;
      classStart = out.length + 1;
    } else if (pattern.startsWith('(?<', i) && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
      out += '(?P<';
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}

/** Runs `use` on a freshly compiled RE2 object and frees it (WebAssembly memory is not garbage-collected). */
function withRe2<T>(pattern: string, use: (re: WrappedRE2) => T): T {
  const re = new WrappedRE2(spellNamedGroupsForRe2(pattern), false, false, false);
  try {
    return use(re);
  } finally {
    re.delete();
  }
}

/** Group number → name of every named group. */
function groupNamesOf(re: WrappedRE2): Map<number, string> {
  const map = re.capturingGroupNames();
  const keys = map.keys();
  try {
    const out = new Map<number, string>();
    for (let i = 0; i < keys.size(); i++) out.set(keys.get(i), map.get(keys.get(i)));
    return out;
  } finally {
    keys.delete();
    map.delete();
  }
}

/** Frees the RE2 objects of patterns that are gone (unless released earlier: the token is the object). */
const freeWhenCollected = new FinalizationRegistry<WrappedRE2>((re) => re.delete());
/** Bounds the work one scan does on hostile input. */
const MAX_SCAN_MATCHES = 10_000;

/** The UTF-16 index of every code point index (and of the end). */
function utf16Indices(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < text.length) {
    out.push(i);
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  out.push(text.length);
  return out;
}

/** The code point index of a UTF-16 index. */
function codePointIndex(text: string, utf16: number): number {
  let n = 0;
  for (let i = 0; i < utf16 && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)) n++;
  }
  return n;
}

/**
 * Compiled patterns by source, most recently used last. Every message rendering compiles the
 * organization's linkifiers: without this, each rendering left one RE2 object per linkifier
 * in WebAssembly memory until a garbage collection freed it, and that memory does not grow:
 * a burst of messages in an organization with a few dozen linkifiers exhausted it, after
 * which RE2 aborts for good and every rendering (message sends) failed. Bounded; an evicted
 * pattern's scanning object is freed at once (a holder that scans again gets a new one).
 */
const compiledBySource = new Map<string, { result: ReturnType<PatternCompiler>; release: () => void }>();
const MAX_CACHED_PATTERNS = 200;

export const compileRe2: PatternCompiler = (pattern) => {
  const hit = compiledBySource.get(pattern);
  if (hit !== undefined) {
    compiledBySource.delete(pattern);
    compiledBySource.set(pattern, hit);
    return hit.result;
  }
  const fresh = compileUncached(pattern);
  compiledBySource.set(pattern, fresh);
  if (compiledBySource.size > MAX_CACHED_PATTERNS) {
    const [oldest, entry] = compiledBySource.entries().next().value!;
    compiledBySource.delete(oldest);
    entry.release();
  }
  return fresh.result;
};

function compileUncached(pattern: string): { result: ReturnType<PatternCompiler>; release: () => void } {
  const compiled = withRe2(pattern, (re): { names: Map<number, string> } | { error: string } =>
    re.ok() ? { names: groupNamesOf(re) } : { error: re.error() },
  );
  if ('error' in compiled) return { result: { ok: false, error: compiled.error }, release: () => {} };
  const ordered = [...compiled.names].sort((a, b) => a[0] - b[0]);
  // Scanning (message rendering) keeps one compiled RE2 object while the pattern is cached;
  // WebAssembly memory is not garbage-collected, so it is freed on eviction, or when the
  // pattern is collected if it was scanned with after its eviction.
  let persistent: WrappedRE2 | undefined;
  const newPersistent = (): WrappedRE2 => {
    const re = new WrappedRE2(spellNamedGroupsForRe2(pattern), false, false, false);
    freeWhenCollected.register(regex, re, re);
    return re;
  };
  const release = () => {
    if (persistent === undefined) return;
    freeWhenCollected.unregister(persistent);
    persistent.delete();
    persistent = undefined;
  };
  const regex: CompiledPattern = {
    groupNames: [...new Set(compiled.names.values())],
    search: (text) =>
      withRe2(pattern, (re) => {
        const m = re.match(text, 0, true);
        if (m.index < 0) return null;
        const groups: Record<string, string | undefined> = {};
        // With a duplicated name the leftmost group counts, as in RE2's NamedCapturingGroups.
        for (const [number, name] of [...compiled.names].sort((a, b) => a[0] - b[0])) {
          if (!(name in groups)) groups[name] = m.groups[number - 1];
        }
        return groups;
      }),
    scan: (text, resume) => {
      const re = (persistent ??= newPersistent());
      const utf16 = utf16Indices(text);
      const matches: PatternMatch[] = [];
      let from = 0;
      while (from <= text.length && matches.length < MAX_SCAN_MATCHES) {
        const m = re.match(text, codePointIndex(text, from), true);
        if (m.index < 0) break;
        const index = utf16[m.index];
        const groups: Record<string, string | undefined> = {};
        for (const [number, name] of ordered) if (!(name in groups)) groups[name] = m.groups[number - 1];
        const found = { index, end: index + m.match.length, groups };
        matches.push(found);
        from = Math.max(resume(found), index + 1);
      }
      return matches;
    },
  };
  return { result: { ok: true, regex }, release };
}

/** The PatternEngine port, backed by RE2. */
export class Re2PatternEngine extends PatternEngine {
  readonly compile = compileRe2;
}
