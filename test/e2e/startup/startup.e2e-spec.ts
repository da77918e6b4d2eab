import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
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

const start = (): Promise<ServerProcess> =>
  startServer(port, { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) }, ['DATABASE_URL', 'OWNER_PASSWORD']);

const api = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}/api/v1/${path}`, init);
const basic = (email: string, key: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-start-'));
  await chmod(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
  port = await freePort();
  pgPort = await freePort();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start without DATABASE_URL', () => {
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
      s.proc.kill('SIGKILL'); // leaves the embedded postmaster orphaned
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
});
