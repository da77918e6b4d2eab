import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svcAdmin } from '../../support/admin-cli.js';
import { freePort, startServer, stopServer } from '../../support/server-process.js';

/**
 * `svc-admin` without DATABASE_URL, as after `npm start`: the embedded PostgreSQL under
 * DATA_DIR, started for the command when no server runs (and stopped after it), or the running
 * server's when one does.
 */
const OWNER_PASSWORD = 'owner-Secret-Passphrase-42';
let dataDir: string;
let pgPort: number;

const env = () => ({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), OWNER_PASSWORD, DATABASE_URL: '' });
const isRunning = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-admin-embedded-'));
  await chmod(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
  pgPort = await freePort();
});
afterAll(async () => {
  const pid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '0')).split('\n')[0]);
  if (pid > 0 && (await isRunning(pid))) process.kill(pid, 'SIGINT');
  await rm(dataDir, { recursive: true, force: true });
});

describe('svc-admin on the embedded PostgreSQL', { timeout: 180_000 }, () => {
  it('with no server running, starts the embedded database for the command and stops it after', async () => {
    const r = await svcAdmin(['create-organization', '--name', 'Acme', '--subdomain', 'acme', '--owner-email', 'boss@acme.test', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ result: 'success', organization: { subdomain: 'acme' } });
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // stopped again
  });

  it('with the server running, uses the server\'s database (the server sees the change at once)', async () => {
    const server = await startServer(await freePort(), env());
    try {
      const created = await svcAdmin(['create-user', 'dana@example.com', '--full-name', 'Dana', '--password-stdin', '--json'], {
        env: env(),
        input: 'dana-Secret-Passphrase-9\n',
      });
      expect(created.code, created.stderr).toBe(0);
      const key = await fetch(`${server.url}/api/v1/fetch_api_key`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'dana@example.com', password: 'dana-Secret-Passphrase-9' }),
      });
      expect(key.status).toBe(200);
      const orgs = await svcAdmin(['list-organizations', '--json'], { env: env() });
      expect((orgs.json().organizations as { subdomain: string }[]).map((o) => o.subdomain)).toEqual(['', 'acme']);
    } finally {
      expect(await stopServer(server)).toBe(0);
    }
  });
});
