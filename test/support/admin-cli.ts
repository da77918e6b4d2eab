import { spawn } from 'node:child_process';

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
