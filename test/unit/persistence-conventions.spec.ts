import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * ARCHITECTURE §8 and issue 26, item 2, kept true: every statement's result has a declared row
 * type (no `Record<string, unknown>` read and cast at the use site in src/*\/persistence), and
 * every persistence adapter (each class a persistence folder exports) is named by an
 * integration test in test/integration, which runs it against the real PostgreSQL.
 */
const root = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function files(dir: string, suffix: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), suffix) : e.name.endsWith(suffix) ? [join(dir, e.name)] : [],
  );
}

const persistenceFiles = readdirSync(join(root, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && readdirSync(join(root, 'src', e.name)).includes('persistence'))
  .flatMap((e) => files(join('src', e.name, 'persistence'), '.ts'));

/**
 * Where a generic row is the honest type: the organization archiver writes `SELECT *` dumps of
 * whole tables as they are (every field it reads is named by a row type there).
 */
const GENERIC_ROWS = new Map([[join('src', 'exports', 'persistence', 'typeorm-organization-archiver.ts'), 1]]);

describe('persistence adapters', () => {
  it('are found', () => {
    expect(persistenceFiles.length).toBeGreaterThan(60);
  });

  it('read no query result as Record<string, unknown>', () => {
    const offenders = persistenceFiles.flatMap((f) => {
      const lines = read(f)
        .split('\n')
        .map((line, i) => ({ line, at: `${f}:${i + 1}` }))
        .filter(({ line }) => line.includes('Record<string, unknown>'));
      // The allowed files may keep their one declared generic type, and no more.
      return lines.length <= (GENERIC_ROWS.get(f) ?? 0) ? [] : lines.map(({ at, line }) => `${at}: ${line.trim()}`);
    });
    expect(offenders).toEqual([]);
  });

  it('each have an integration test that names them', () => {
    const tests = files(join('test', 'integration'), '.int-spec.ts').map(read).join('\n');
    const untested = persistenceFiles.flatMap((f) =>
      [...read(f).matchAll(/^export (?:abstract )?class (\w+)/gm)].map((m) => m[1]).filter((name) => !new RegExp(`\\b${name}\\b`).test(tests)).map((name) => `${f}: ${name}`),
    );
    expect(untested).toEqual([]);
  });
});
