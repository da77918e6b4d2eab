#!/usr/bin/env node
// The admin command line (`npx svc-admin --help`); runs the built code (`npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/src/admin-cli.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('svc-admin: the server is not built yet; run `npm run build` first');
  process.exit(1);
}
await import(entry);
