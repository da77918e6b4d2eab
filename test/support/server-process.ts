import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** The built server (`node dist/src/main.js`, what `npm start` runs) as a child process. */
export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/**
 * Starts the server on `port` with `env` added to this process's environment (and the `unset`
 * variables removed); resolves once it listens. `detached` gives it a process group of its own
 * (as a shell gives a command it runs): `process.kill(-pid, …)` then signals that group, like
 * Ctrl-C in a terminal.
 */
export function startServer(port: number, env: Record<string, string>, unset: string[] = [], opts: { detached?: boolean } = {}): Promise<ServerProcess> {
  const merged: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...env };
  for (const name of unset) delete merged[name];
  const proc = spawn(process.execPath, ['dist/src/main.js'], { env: merged, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached === true });
  let out = '';
  proc.stdout!.on('data', (c) => (out += c));
  proc.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 45_000);
    const check = setInterval(() => {
      if (out.includes('Server listening')) {
        clearTimeout(timer);
        clearInterval(check);
        resolve({ proc, port, url: `http://127.0.0.1:${port}`, exited, output: () => out });
      }
    }, 50);
    void exited.then((code) => {
      clearTimeout(timer);
      clearInterval(check);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

/** SIGTERM and the exit code (0 for a clean shutdown). */
export function stopServer(s: ServerProcess): Promise<number | null> {
  s.proc.kill('SIGTERM');
  return s.exited;
}
