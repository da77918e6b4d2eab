import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { isRunning, requestOnNewConnection, workerPids } from '../../support/cluster.js';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer } from '../../support/server-process.js';

/**
 * WORKERS=N (issue 15): N server processes share the port through node:cluster. Which process
 * serves a connection is read from the kernel (`test/support/cluster.ts`), not from the server.
 */
const PASSWORD = 'owner-Secret-Passphrase-42';
type Json = Record<string, unknown>;

/** Waits (bounded) for `probe` to return a value; polls what other processes do, asserts nothing on time. */
async function eventually<T>(probe: () => Promise<T | null>, what: string, limitMs = 30_000): Promise<T> {
  for (const end = Date.now() + limitMs; Date.now() < end; ) {
    const v = await probe();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/** Which workers serve `connections` new connections to `/health` (each must answer 200). */
async function servingProcesses(s: ServerProcess, workers: number[], connections = 6): Promise<Set<number | null>> {
  const seen = new Set<number | null>();
  for (let i = 0; i < connections; i++) {
    const r = await requestOnNewConnection(s.port, '/health', workers);
    expect(r.status).toBe(200);
    seen.add(r.servedBy);
  }
  return seen;
}

const logLines = (s: ServerProcess) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });

describe('a bad WORKERS value', () => {
  it.each(['0', 'two', '1.5', '65'])('WORKERS=%s fails start-up with a clear message', async (value) => {
    const failed = startServer(await freePort(), { WORKERS: value, DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    await expect(failed).rejects.toThrow(`server exited with 1:\nstart-up failed: WORKERS must be "auto" or an integer from 1 to 64, got "${value}"`);
  });
});

describe('WORKERS=2 without DATABASE_URL: the primary runs the embedded PostgreSQL', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-workers-'));
    await chmod(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
  });
  afterAll(async () => {
    const pg = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '0')).split('\n')[0]);
    if (pg > 0 && (await isRunning(pg))) process.kill(pg, 'SIGINT');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('bootstraps once, serves on both workers, and Ctrl-C stops them gracefully, then the database', async () => {
    const env = { WORKERS: '2', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'info', REMINDER_POLL_INTERVAL_MS: '0' };
    const s = await startServer(await freePort(), env, ['DATABASE_URL', 'OWNER_PASSWORD'], { detached: true });
    let signalled = false;
    try {
      const out = s.output();
      expect(out.match(/Server listening on/g)).toHaveLength(1);
      expect(out.match(/Created the organization "Demo Organization"/g)).toHaveLength(1);
      expect(out).toContain('Worker processes: 2');
      const workers = await workerPids(s.proc.pid!);
      expect(workers).toHaveLength(2);
      expect(await servingProcesses(s, workers)).toEqual(new Set(workers)); // both, and nothing else
      expect(logLines(s).filter((l) => l.msg === 'created an organization')).toHaveLength(1);

      // A long-poll waiting on a worker (register and poll on one connection, so on one worker).
      const password = /Owner password \(shown only once\): (\S+)/.exec(out)![1];
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const call = (method: string, path: string, body?: URLSearchParams, auth?: string) =>
        new Promise<Json>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: s.port, path: `/api/v1/${path}`, method, agent, headers: { ...(auth ? { Authorization: auth } : {}), ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) } }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(JSON.parse(text) as Json));
          });
          req.on('error', reject);
          req.end(body?.toString());
        });
      const key = await call('POST', 'fetch_api_key', new URLSearchParams({ username: 'owner@example.com', password }));
      const auth = `Basic ${Buffer.from(`owner@example.com:${key.api_key as string}`).toString('base64')}`;
      const reg = await call('POST', 'register', new URLSearchParams({ event_types: '["message"]' }), auth);
      const poll = call('GET', `events?${new URLSearchParams({ queue_id: reg.queue_id as string, last_event_id: '-1' })}`, undefined, auth);
      await servingProcesses(s, workers, 2); // a few round trips: the poll is waiting by then
      process.kill(-s.proc.pid!, 'SIGINT'); // Ctrl-C: the whole group, workers included, and the primary forwards it
      signalled = true;
      expect(await poll).toMatchObject({ result: 'success', events: [{ type: 'heartbeat' }] });
      agent.destroy();
      expect(await s.exited).toBe(0);
      for (const w of workers) expect(await isRunning(w)).toBe(false);
    } finally {
      if (!signalled) process.kill(-s.proc.pid!, 'SIGINT');
      await s.exited;
    }
    expect(logLines(s).filter((l) => l.level >= 40)).toEqual([]); // no warning, no error
    expect(logLines(s).filter((l) => l.msg === 'shutting down')).toHaveLength(3); // the primary and each worker once
    expect(s.output()).toContain('embedded PostgreSQL stopped');
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });

  it('leaves no worker and no PostgreSQL running when the primary itself is killed (-9)', async () => {
    const env = { WORKERS: '2', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), REMINDER_POLL_INTERVAL_MS: '0' };
    const s = await startServer(await freePort(), env, ['DATABASE_URL', 'OWNER_PASSWORD']);
    expect(s.output()).not.toContain('Created the organization'); // bootstrapped by the first test
    const workers = await workerPids(s.proc.pid!);
    const pg = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    s.proc.kill('SIGKILL');
    await s.exited;
    // The workers lose their channel to the primary and exit; the watchdog stops the database.
    for (const pid of [...workers, pg]) await eventually(async () => ((await isRunning(pid)) ? null : true), `process ${pid} ends`);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});

describe('WORKERS=2 on DATABASE_URL', { timeout: 120_000 }, () => {
  const DB_NAME = `${TEST_DB_PREFIX}_workers_p${process.pid}`;
  let s: ServerProcess;
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
    s = await startServer(await freePort(), { WORKERS: '2', DB_POOL_SIZE: '3', DATABASE_URL: databaseUrl, OWNER_PASSWORD: PASSWORD, REMINDER_POLL_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    if (s && s.proc.exitCode === null) {
      s.proc.kill('SIGKILL');
      await s.exited;
    }
    await dropDatabase(inject('adminUrl'), DB_NAME);
  });

  it('warns at start-up when WORKERS × (DB_POOL_SIZE + 1) exceeds the connections PostgreSQL allows', async () => {
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    const { rows } = await admin.query<{ available: number }>(
      `SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int AS available`,
    );
    await admin.end();
    const pool = Math.ceil(rows[0].available / 2); // 2 × (pool + 1) > available; the pools open lazily, so nothing runs out
    const big = await startServer(await freePort(), { WORKERS: '2', DB_POOL_SIZE: String(pool), DATABASE_URL: databaseUrl, REMINDER_POLL_INTERVAL_MS: '0' });
    big.proc.kill('SIGTERM');
    expect(await big.exited).toBe(0);
    expect(logLines(big).filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'WORKERS × (DB_POOL_SIZE + 1) exceeds the connections PostgreSQL allows: lower DB_POOL_SIZE or raise max_connections',
    ]);
  });

  it('restarts a worker killed with SIGKILL while requests go on being answered; SIGTERM then stops all with exit 0', async () => {
    const before = await workerPids(s.proc.pid!);
    expect(before).toHaveLength(2);
    expect(await servingProcesses(s, before)).toEqual(new Set(before));

    process.kill(before[0], 'SIGKILL');
    await eventually(async () => (s.output().includes('worker process died: restarting it') ? true : null), 'the primary notices');
    // Every connection is answered meanwhile (by the other worker, or by the replacement once it listens).
    expect((await servingProcesses(s, before, 4)).has(before[0])).toBe(false);
    const after = await eventually(async () => {
      const now = await workerPids(s.proc.pid!);
      return now.length === 2 && !now.includes(before[0]) ? now : null;
    }, 'a replacement worker');
    expect(after).toContain(before[1]);
    // The replacement serves once it listens (a fresh process takes a few seconds to boot).
    const replacement = after.find((p) => p !== before[1])!;
    await eventually(async () => ((await servingProcesses(s, after, 2)).has(replacement) ? true : null), 'the replacement serves');
    const settings = (await (await fetch(`${s.url}/api/v1/server_settings`)).json()) as Json;
    expect(settings.result).toBe('success');

    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    for (const w of after) expect(await isRunning(w)).toBe(false);
    const errors = logLines(s).filter((l) => l.level >= 50);
    expect(errors.map((l) => l.msg)).toEqual(['worker process died: restarting it']); // the kill, and nothing else
  });
});
