// @ts-check
/*
 * The lint that keeps the layering of ARCHITECTURE.md honest (it runs in `npm test`).
 *
 *   composition (src/app, src/main.ts, ormconfig.ts)   knows every context and wires them
 *        │
 *   context modules (src/<ctx>/<ctx>.module.ts)        their own context + the shared kernel
 *        │
 *   http ─────────┐   persistence / adapters           (driving and driven adapters)
 *        ▼        ▼
 *   application (src/<ctx>/application)                use cases, ports, event views
 *        │
 *   domain (libs/domain)                               the rules; imports nothing else
 *
 * `src/shared` is the kernel every context may use; it imports no context. A context reaches
 * another only through that context's `index.ts`, and only along CONTEXT_DEPENDENCIES below,
 * which is checked to be acyclic when this file loads.
 */
import js from '@eslint/js';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Which contexts each context may use (through their index.ts). Must stay a DAG. */
export const CONTEXT_DEPENDENCIES = {
  realm: [],
  emoji: ['realm'],
  users: ['realm', 'emoji'],
  channels: ['realm', 'users'],
  messages: ['realm', 'emoji', 'users', 'channels'],
  drafts: ['realm', 'users', 'channels', 'messages'],
  invitations: ['realm', 'users', 'channels'],
  push: ['realm', 'users'],
  server: ['realm'],
  presence: ['realm', 'users', 'channels', 'messages'],
  email: [],
  exports: [],
  admin: ['realm', 'users', 'channels', 'messages', 'email', 'exports'],
  events: ['realm', 'emoji', 'users', 'channels', 'messages', 'drafts', 'invitations', 'push', 'server', 'presence'],
};

assertAcyclic(CONTEXT_DEPENDENCIES);

function assertAcyclic(graph) {
  const state = new Map();
  const visit = (node, path) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') throw new Error(`context dependency cycle: ${[...path, node].join(' → ')}`);
    if (!(node in graph)) throw new Error(`unknown context in CONTEXT_DEPENDENCIES: ${node}`);
    state.set(node, 'visiting');
    for (const next of graph[node]) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
}

/** The shared kernel's folders each layer may use. */
const KERNEL_FOR = {
  application: ['application', 'config', 'logging'],
  http: ['application', 'config', 'logging', 'http', 'auth'],
  adapter: ['application', 'config', 'logging', 'persistence'],
  module: ['application', 'config', 'logging', 'http', 'auth', 'persistence'],
};

/** An entity selector for elements of `type` whose captured values match `captured`. */
const el = (type, captured) => ({ element: captured ? { type, captured } : { type } });
const kernel = (layers) => el('shared', { layer: layers });
const DOMAIN = el('domain');
/** A file right in a context folder: its `index` (public ports) or its Nest `module`. */
const contextFile = (category, context) => ({ element: { type: 'context', captured: { context } }, file: { categories: category } });
const otherContextIndexes = (context) => CONTEXT_DEPENDENCIES[context].map((dependency) => contextFile('index', dependency));
const policy = (from, to) => ({ from, allow: { to } });

/** Policies of one context: its own layers downwards, the kernel, the domain, other contexts' index.ts. */
const contextPolicies = Object.keys(CONTEXT_DEPENDENCIES).flatMap((context) => {
  const own = (type) => el(type, { context });
  return [
    policy(own('application'), [own('application'), kernel(KERNEL_FOR.application), DOMAIN, ...otherContextIndexes(context)]),
    policy(own('http'), [own('http'), own('application'), kernel(KERNEL_FOR.http), DOMAIN, ...otherContextIndexes(context)]),
    policy(own('adapter'), [own('adapter'), own('application'), kernel(KERNEL_FOR.adapter), DOMAIN, ...otherContextIndexes(context)]),
    policy(contextFile('index', context), [own('application'), DOMAIN]),
    policy(contextFile('module', context), [own('application'), own('http'), own('adapter'), kernel(KERNEL_FOR.module), DOMAIN]),
  ];
});

/** Inside the kernel: application ← config/logging ← http/auth/persistence, never a context. */
const kernelPolicies = [
  policy(kernel(['application']), [kernel(['application']), DOMAIN]),
  policy(kernel(['config']), [kernel(['config']), DOMAIN]),
  policy(kernel(['logging']), [kernel(['logging', 'config'])]),
  policy(kernel(['http']), [kernel(['http', 'application', 'config', 'logging']), DOMAIN]),
  policy(kernel(['auth']), [kernel(['auth', 'http', 'application', 'config', 'logging']), DOMAIN]),
  policy(kernel(['persistence']), [kernel(['persistence', 'application', 'config', 'logging']), DOMAIN]),
];

const FRAMEWORKS_AND_IO = ['@nestjs/*', 'typeorm', 'pg', 'class-validator', 'class-transformer', 'express', 'passport', 'passport-*'];

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The web app (web/): browser code, its own tsconfig; it talks to the server only through the API.
  { files: ['web/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['src/**/*.ts', 'libs/**/*.ts', 'test/**/*.ts', 'migrations/**/*.ts'],
      'boundaries/files': [
        { category: 'index', pattern: 'src/*/index.ts' },
        { category: 'module', pattern: 'src/*/*.module.ts' },
        { category: 'spec', pattern: 'libs/domain/src/**/*.spec.ts' },
      ],
      'boundaries/elements': [
        { type: 'domain-test', pattern: 'libs/domain/test', partialMatch: false },
        { type: 'domain', pattern: 'libs/domain/src', partialMatch: false },
        { type: 'composition', pattern: 'src/app', partialMatch: false },
        { type: 'shared', pattern: 'src/shared/*', partialMatch: false, capture: ['layer'] },
        { type: 'application', pattern: 'src/*/application', partialMatch: false, capture: ['context'] },
        { type: 'http', pattern: 'src/*/{http,cli}', partialMatch: false, capture: ['context'] },
        { type: 'adapter', pattern: 'src/*/{persistence,infrastructure,catalog,rendering}', partialMatch: false, capture: ['context'] },
        // Files right in a context folder: its index.ts (public ports) and its Nest module.
        { type: 'context', pattern: 'src/*', partialMatch: false, capture: ['context'] },
        // src/main.ts and src/configure-app.ts: the entry point.
        { type: 'composition', pattern: 'src', partialMatch: false },
        { type: 'test', pattern: 'test', partialMatch: false },
        { type: 'composition', pattern: 'migrations', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            policy(DOMAIN, [DOMAIN]),
            // The domain's own specs also use the shared builders of libs/domain/test.
            policy({ ...DOMAIN, file: { categories: 'spec' } }, [el('domain-test')]),
            policy(el('domain-test'), [DOMAIN, el('domain-test')]),
            policy([el('composition'), el('test')], [el('*')]),
            ...kernelPolicies,
            ...contextPolicies,
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The rules: no framework, no I/O, nothing outside libs/domain.
    files: ['libs/domain/**/*.ts'],
    ignores: ['libs/domain/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\.\\.?/)', message: 'libs/domain imports only itself.' }] }],
    },
  },
  {
    files: ['src/*/application/**/*.ts', 'src/shared/application/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: FRAMEWORKS_AND_IO.filter((p) => p !== '@nestjs/*'), message: 'Application code speaks through ports, not TypeORM, Express or validators.' }, { group: ['@nestjs/platform-express', '@nestjs/passport', '@nestjs/core'], message: 'Application code uses @nestjs/common only.' }] },
      ],
    },
  },
  {
    files: ['src/*/http/**/*.ts', 'src/shared/http/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['typeorm', 'pg'], message: 'HTTP adapters reach the database through application ports.' }] }],
    },
  },
  {
    // No function longer than 80 lines in the product (tests' describe blocks are exempt).
    files: ['src/**/*.ts', 'libs/domain/src/**/*.ts', 'ormconfig.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
);


