import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type ServerProcess, startServer } from '../../support/server-process.js';

/**
 * The server as an operator runs it: `node dist/src/main.js` (what `npm start` runs after
 * building) with no DATABASE_URL, so on an embedded PostgreSQL under DATA_DIR.
 */
let dataDir: string;
let port: number;
let pgPort: number;

const start = (opts: { detached?: boolean; env?: Record<string, string> } = {}): Promise<ServerProcess> =>
  startServer(port, { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), ...opts.env }, ['DATABASE_URL', 'OWNER_PASSWORD'], opts);

/** Fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, session, … (null when gone). */
async function procStat(pid: number): Promise<{ state: string; ppid: number; pgrp: number; session: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  const [state, ppid, pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) };
}
const isRunning = async (pid: number) => {
  const s = await procStat(pid);
  return s !== null && s.state !== 'Z';
};
/** The embedded postmaster's pid, from its lock file. */
const postmasterPid = async () => Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
async function childrenOf(pid: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
  const stats = await Promise.all(pids.map(async (p) => [p, await procStat(p)] as const));
  return stats.filter(([, s]) => s?.ppid === pid).map(([p]) => p);
}
/** Waits (bounded) until `pid` is gone; false if it is still running after `limitMs`. */
async function exitsWithin(pid: number, limitMs: number): Promise<boolean> {
  for (const end = Date.now() + limitMs; Date.now() < end; ) {
    if (!(await isRunning(pid))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !(await isRunning(pid));
}

const api = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}/api/v1/${path}`, init);
const basic = (email: string, key: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-start-'));
  await chmod(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
  port = await freePort();
  pgPort = await freePort();
});
afterAll(async () => {
  // A postmaster a failed test left running would outlive its data directory.
  const pg = await postmasterPid().catch(() => 0);
  if (pg > 0 && (await isRunning(pg))) {
    process.kill(pg, 'SIGINT');
    await exitsWithin(pg, 20_000);
  }
  await rm(dataDir, { recursive: true, force: true });
});

// initdb, migrations and the first start of the embedded PostgreSQL take ~25 s on a loaded 2-core machine.
describe('npm start without DATABASE_URL', { timeout: 120_000 }, () => {
  let apiKey: string;

  it('bootstraps the organization, prints the URL and the owner’s credentials, and serves the API', async () => {
    const s = await start();
    try {
      const out = s.output();
      expect(out).toContain(`Server listening on http://127.0.0.1:${port}`);
      expect(out).toContain('Created the organization "Demo Organization" with owner owner@example.com');
      const password = /Owner password \(shown only once\): (\S+)/.exec(out)![1];

      const settings: unknown = await (await api('server_settings')).json();
      expect(settings).toMatchObject({ result: 'success', realm_name: 'Demo Organization', realm_url: `http://127.0.0.1:${port}` });

      const key = (await (await api('fetch_api_key', { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password }) })).json()) as Record<string, unknown>;
      expect(key).toMatchObject({ result: 'success', email: 'owner@example.com', user_id: expect.any(Number) });
      apiKey = key.api_key as string;
      const me: unknown = await (await api('users/me', { headers: basic('owner@example.com', apiKey) })).json();
      expect(me).toMatchObject({ result: 'success', is_owner: true });
      const wrong = await api('users/me', { headers: basic('owner@example.com', 'A'.repeat(32)) });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    } finally {
      s.proc.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // the database was stopped too
  });

  it('keeps the data across restarts and does not bootstrap twice', async () => {
    const s = await start();
    try {
      expect(s.output()).not.toContain('Created the organization');
      const me = await api('users/me', { headers: basic('owner@example.com', apiKey) });
      expect(me.status).toBe(200);
      const users = (await (await api('users', { headers: basic('owner@example.com', apiKey) })).json()) as { members: unknown[] };
      expect(users.members).toHaveLength(1);
    } finally {
      // Killing the server with everything it started but the postmaster (its watchdog too, as
      // when a whole container or cgroup is killed) leaves the embedded postmaster orphaned.
      const pg = await postmasterPid();
      for (const child of await childrenOf(s.proc.pid!)) if (child !== pg) process.kill(child, 'SIGKILL');
      s.proc.kill('SIGKILL');
    }
    await s.exited;
  });

  it('recovers from a killed server whose database was left running', async () => {
    const s = await start();
    try {
      expect(s.output()).toContain('stopping the orphaned embedded PostgreSQL');
      expect((await api('users/me', { headers: basic('owner@example.com', apiKey) })).status).toBe(200);
    } finally {
      s.proc.kill('SIGINT');
    }
    expect(await s.exited).toBe(0);
  });

  it('keeps the embedded PostgreSQL out of the server’s process group: Ctrl-C stops the server, which stops the database last', async () => {
    const s = await start({ detached: true, env: { LOG_LEVEL: 'info' } }); // a process group of its own, as a shell runs it
    let pg: number;
    let signalled = false;
    try {
      pg = await postmasterPid();
      const server = (await procStat(s.proc.pid!))!;
      const postmaster = (await procStat(pg))!;
      expect(server.pgrp).toBe(s.proc.pid);
      expect(postmaster.ppid).toBe(s.proc.pid);
      expect(postmaster.pgrp).not.toBe(server.pgrp);
      expect(postmaster.session).not.toBe(server.session);
      // A poll waiting when the signal comes: answered, and the server's last work meets a live database.
      const reg = (await (await api('register', { method: 'POST', headers: basic('owner@example.com', apiKey), body: new URLSearchParams({ event_types: '["message"]' }) })).json()) as Record<string, unknown>;
      const poll = api(`events?${new URLSearchParams({ queue_id: reg.queue_id as string, last_event_id: '-1' })}`, { headers: basic('owner@example.com', apiKey) });
      expect((await api('server_settings')).status).toBe(200);
      process.kill(-s.proc.pid!, 'SIGINT'); // what Ctrl-C in a terminal does: the whole foreground group
      signalled = true;
      expect(await (await poll).json()).toMatchObject({ result: 'success', events: [{ type: 'heartbeat' }] });
    } finally {
      if (!signalled) process.kill(-s.proc.pid!, 'SIGINT');
    }
    expect(await s.exited).toBe(0);
    const lines = s.output().split('\n').filter((l) => l.startsWith('{'));
    expect(lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 40)).toEqual([]); // no warning, no error
    expect(s.output()).toContain('embedded PostgreSQL stopped');
    expect(await isRunning(pg!)).toBe(false);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });

  it('does not leave its PostgreSQL running when the server itself is killed (-9)', async () => {
    const s = await start();
    const pg = await postmasterPid();
    s.proc.kill('SIGKILL');
    await s.exited;
    expect(await exitsWithin(pg, 20_000)).toBe(true); // a watchdog stops it; without one it runs on forever
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // a clean shutdown
  });
});
