import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from './databases.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (commands run with --json). */
  json: () => Record<string, unknown>;
}

/**
 * Runs the built admin command line (`node bin/svc-admin.mjs`, what `npx svc-admin` runs) as a
 * process with `env` added, `input` on its stdin (not a terminal), and waits for it to exit.
 */
export function svcAdmin(args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<CliRun> {
  const proc = spawn(process.execPath, ['bin/svc-admin.mjs', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c) => (stdout += c));
  proc.stderr.on('data', (c) => (stderr += c));
  proc.stdin.end(opts.input ?? '');
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        json: () => {
          try {
            return JSON.parse(stdout) as Record<string, unknown>;
          } catch {
            throw new Error(`not JSON (exit ${code}):\n${stdout}\n${stderr}`);
          }
        },
      }),
    );
  });
}

/** A run that printed nothing on stderr and exited 0 (its output shown when not). */
export function expectCliOk(r: CliRun): CliRun {
  expect(r.stderr, r.stdout).toBe('');
  expect(r.code).toBe(0);
  return r;
}

/** A database of its own (fresh from the migrated template), a client on it and a temp folder, for one CLI test file. */
export interface CliSandbox {
  url: string;
  db: pg.Client;
  dir: string;
  close(): Promise<void>;
}

export async function openCliSandbox(name: string, tmpPrefix: string): Promise<CliSandbox> {
  const database = `${TEST_DB_PREFIX}_${name}`;
  const url = await freshDatabase(inject('adminUrl'), database);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const dir = await mkdtemp(join(tmpdir(), tmpPrefix));
  return {
    url,
    db,
    dir,
    close: async () => {
      await db.end();
      await rm(dir, { recursive: true, force: true });
      await dropDatabase(inject('adminUrl'), database);
    },
  };
}
