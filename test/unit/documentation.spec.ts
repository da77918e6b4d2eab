import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The lists of the documentation that drift when the code changes: the environment variables
 * of docs/configuration.md against the ones the server reads, and the contexts of
 * docs/design.md's layout against the folders with a module (and the lint's dependency graph).
 */
const root = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Standard variables the server reads without making them its settings. */
const NOT_SETTINGS = new Set(['NODE_ENV']);

describe('the documentation', () => {
  it('lists exactly the environment variables the server reads', () => {
    const readByCode = new Set<string>();
    const pattern = /\(env, '([A-Z][A-Z0-9_]+)'|\benv\.([A-Z][A-Z0-9_]+)|process\.env\.([A-Z][A-Z0-9_]+)|\benv\['([A-Z][A-Z0-9_]+)'\]/g;
    for (const file of sourceFiles('src')) {
      for (const m of read(file).matchAll(pattern)) readByCode.add(m[1] ?? m[2] ?? m[3] ?? m[4]);
    }
    for (const name of NOT_SETTINGS) readByCode.delete(name);
    const documented = new Set([...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    expect([...readByCode].filter((n) => !documented.has(n)).sort(), 'read by the server but not in docs/configuration.md').toEqual([]);
    expect([...documented].filter((n) => !readByCode.has(n)).sort(), 'in docs/configuration.md but read nowhere').toEqual([]);
  });

  it('names every context of the layout, as the folders and the lint know them', async () => {
    // @ts-expect-error -- plain JavaScript config
    const { CONTEXT_DEPENDENCIES } = (await import('../../eslint.config.js')) as { CONTEXT_DEPENDENCIES: Record<string, string[]> };
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'app' && readdirSync(join(root, 'src', e.name)).includes(`${e.name}.module.ts`))
      .map((e) => e.name)
      .sort();
    const line = read('docs/design.md')
      .split('\n')
      .find((l) => /^\s+realm\/ /.test(l));
    expect(line, 'the contexts line of the layout in docs/design.md').toBeDefined();
    expect(line!.trim().split(/\s+/).map((c) => c.replace(/\/$/, '')).sort()).toEqual(folders);
    expect(Object.keys(CONTEXT_DEPENDENCIES).sort()).toEqual(folders);
  });

  it('keeps the README to a few screens, linking every document under docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(200);
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
    for (const doc of docs) expect(readme, `README links docs/${doc}`).toContain(`(docs/${doc})`);
  });
});
