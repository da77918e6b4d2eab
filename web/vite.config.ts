import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app: built by `npm run build` into dist/web, served from `/` by the server itself
// (hashed names under /assets/, cached for a year; index.html never cached).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    // No inline <script> (the page's Content-Security-Policy has no 'unsafe-inline' for scripts).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
