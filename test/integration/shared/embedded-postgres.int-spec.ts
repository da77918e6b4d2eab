import { inject } from 'vitest';
import pg from 'pg';
import { ensureDatabase } from '../../../src/shared/persistence/embedded-postgres.js';
import { adminClient, TEST_DB_PREFIX } from '../../support/databases.js';

/**
 * embedded-postgres.ts. Starting the embedded server (`startEmbeddedPostgres`: initdb, the
 * postmaster in a session of its own, its watchdog, reclaiming an orphan) is covered end to end
 * by test/e2e/startup/startup.e2e-spec.ts and test/e2e/admin/admin-cli-embedded.e2e-spec.ts, and
 * by test/global-setup.ts when DATABASE_URL is unset; a second embedded server is not started
 * here. This file checks `ensureDatabase` against the run's PostgreSQL.
 */
const name = `${TEST_DB_PREFIX}_ensure_p${process.pid}`;
const copy = `${name}_copy`;
const exists = async (database: string) => {
  const c = await adminClient(inject('adminUrl'));
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount === 1;
  } finally {
    await c.end();
  }
};
const drop = async () => {
  const c = await adminClient(inject('adminUrl'));
  try {
    for (const d of [copy, name]) await c.query(`DROP DATABASE IF EXISTS "${d}"`);
  } finally {
    await c.end();
  }
};
beforeAll(drop);
afterAll(drop);

describe('ensureDatabase (embedded-postgres.ts)', () => {
  it('creates a database once, and again is a no-op, concurrent calls included', async () => {
    await ensureDatabase(inject('adminUrl'), name);
    expect(await exists(name)).toBe(true);
    await Promise.all([ensureDatabase(inject('adminUrl'), name), ensureDatabase(inject('adminUrl'), name)]);
    expect(await exists(name)).toBe(true);
  });

  it('copies a template', async () => {
    const url = new URL(inject('adminUrl'));
    url.pathname = `/${name}`;
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    await c.query(`CREATE TABLE marker (n int); INSERT INTO marker VALUES (42)`);
    await c.end();
    await ensureDatabase(inject('adminUrl'), copy, name);
    url.pathname = `/${copy}`;
    const d = new pg.Client({ connectionString: url.toString() });
    await d.connect();
    try {
      expect((await d.query(`SELECT n FROM marker`)).rows).toEqual([{ n: 42 }]);
    } finally {
      await d.end();
    }
  });
});
