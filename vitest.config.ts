import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const domain = fileURLToPath(new URL('./libs/domain/src', import.meta.url));
const alias = [
  { find: /^@app\/domain$/, replacement: `${domain}/index.ts` },
  { find: /^@app\/domain\/(.*)$/, replacement: `${domain}/$1/index.ts` },
];
const plugins = [
  swc.vite({
    module: { type: 'es6' },
    jsc: {
      target: 'es2023',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
    },
  }),
];

export default defineConfig({
  test: {
    projects: [
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['libs/**/*.spec.ts', 'test/unit/**/*.spec.ts'],
          globals: true,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The web app's state logic and components (Testing Library on jsdom).
        plugins: [react()],
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          globals: true,
          sequence: { groupOrder: 0 },
        },
      },
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'db',
          include: ['test/e2e/**/*.e2e-spec.ts', 'test/integration/**/*.int-spec.ts'],
          globals: true,
          pool: 'forks',
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          globalSetup: ['./test/global-setup.ts'],
          setupFiles: ['./test/support/worker-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web app in a real Chromium (Debian's, driven by playwright-core), against a real server.
        plugins,
        resolve: { alias },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser-spec.ts'],
          globals: true,
          pool: 'forks',
          sequence: { groupOrder: 2 },
          maxWorkers: 1,
          globalSetup: ['./test/global-setup.ts'],
          setupFiles: ['./test/support/worker-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
