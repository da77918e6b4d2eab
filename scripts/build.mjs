// Compiles src/, libs/domain/src/, migrations/, ormconfig.ts and bench/floor/ to dist/ with swc (type-checking
// is `npm run typecheck`), then bundles the web app (web/) into dist/web with Vite. A few seconds in
// all, so `npm start` always rebuilds.
import { transformFile } from '@swc/core';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const inputs = ['src', 'libs/domain/src', 'migrations', 'ormconfig.ts', 'bench/floor'];

export const swcOptions = {
  sourceMaps: true,
  module: { type: 'es6', resolveFully: true },
  jsc: {
    target: 'es2023',
    baseUrl: root,
    paths: {
      '@app/domain': ['./libs/domain/src/index.ts'],
      '@app/domain/*': ['./libs/domain/src/*/index.ts'],
    },
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
};

async function* walk(path) {
  const info = await stat(path).catch(() => null);
  if (info === null) return;
  if (!info.isDirectory()) { yield path; return; }
  const entries = await readdir(path, { withFileTypes: true });
  for (const e of entries) yield* walk(join(path, e.name));
}

await rm(out, { recursive: true, force: true });
let count = 0;
for (const input of inputs) {
  for await (const file of walk(join(root, input))) {
    if (!file.endsWith('.ts') || file.endsWith('.spec.ts') || file.endsWith('.d.ts')) continue;
    const rel = relative(root, file);
    const target = join(out, rel.replace(/\.ts$/, '.js'));
    const { code, map } = await transformFile(file, { ...swcOptions, filename: file, sourceFileName: relative(dirname(target), file) });
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, code + `\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (map) await writeFile(target + '.map', map);
    count += 1;
  }
}
if (process.env.BUILD_VERBOSE) console.log(`built ${count} files into dist/`);

// The web app, served from `/` by the server (dist/web: index.html and hashed assets).
const { build } = await import('vite');
await build({ configFile: join(root, 'web/vite.config.ts'), logLevel: process.env.BUILD_VERBOSE ? 'info' : 'warn' });

// Its scripts and styles also compressed once here (brotli, gzip), so the server sends the smallest
// one a browser accepts without compressing on every request.
const { brotliCompressSync, gzipSync, constants: z } = await import('node:zlib');
const { readFile } = await import('node:fs/promises');
const assets = join(out, 'web', 'assets');
for (const name of await readdir(assets)) {
  if (!/\.(js|css|svg)$/.test(name)) continue;
  const raw = await readFile(join(assets, name));
  await writeFile(join(assets, `${name}.br`), brotliCompressSync(raw, { params: { [z.BROTLI_PARAM_QUALITY]: 11 } }));
  await writeFile(join(assets, `${name}.gz`), gzipSync(raw, { level: 9 }));
}
