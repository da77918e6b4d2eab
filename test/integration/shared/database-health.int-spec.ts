import pg from 'pg';
import { DataSource, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { openDataSource } from '../../../src/app/database.providers.js';
import { DatabaseHealth } from '../../../src/shared/application/database-health.js';
import { TypeOrmDatabaseHealth } from '../../../src/shared/persistence/typeorm-database-health.js';
import { freePort } from '../../support/server-process.js';
import { TestApp } from '../../support/test-app.js';

/** TypeOrmDatabaseHealth against real failures: which errors mean the database is away (503) and which are the request's own. */
let t: TestApp;
let ds: DataSource;
let health: TypeOrmDatabaseHealth;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  health = t.app.get(DatabaseHealth) as TypeOrmDatabaseHealth;
});
afterAll(() => t.close());

const failure = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (e) {
    return e;
  }
  throw new Error('no error');
};

describe('TypeOrmDatabaseHealth', () => {
  it('is the DatabaseHealth adapter, and finds the database reachable', async () => {
    expect(health).toBeInstanceOf(TypeOrmDatabaseHealth);
    expect(await health.isReachable()).toBe(true);
  });

  it('finds a closed DataSource unreachable', async () => {
    const closed = await openDataSource(t.databaseUrl);
    await closed.destroy();
    expect(await new TypeOrmDatabaseHealth(closed).isReachable()).toBe(false);
  });

  it('takes a terminated backend (57P01) and the closed connection after it for an outage', async () => {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    client.on('error', () => undefined);
    await client.connect();
    const [{ pid }] = (await client.query(`SELECT pg_backend_pid() AS pid`)).rows;
    const killed = failure(() => client.query(`SELECT pg_sleep(30)`));
    await vi.waitFor(async () => expect(await ds.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'`, [pid])).toHaveLength(1));
    await ds.query(`SELECT pg_terminate_backend($1)`, [pid]);
    const e = await killed;
    expect(e).toMatchObject({ code: '57P01' });
    expect(health.isOutage(e)).toBe(true);
    const after = await failure(() => client.query(`SELECT 1`));
    expect(health.isOutage(after)).toBe(true);
    await client.end().catch(() => undefined);
  });

  it('takes a refused connection for an outage', async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` });
    const e = await failure(() => client.connect());
    expect(e).toMatchObject({ code: 'ECONNREFUSED' });
    expect(health.isOutage(e)).toBe(true);
  });

  it('takes a released query runner for an outage, and the request’s own errors (as TypeORM wraps them) for none', async () => {
    expect(health.isOutage(new QueryRunnerAlreadyReleasedError())).toBe(true);
    const unique = await failure(() => ds.query(`INSERT INTO realms (id) SELECT id FROM realms LIMIT 1`));
    expect(unique).toMatchObject({ driverError: expect.objectContaining({ code: expect.stringMatching(/^23/) }) });
    expect(health.isOutage(unique)).toBe(false);
    expect(health.isOutage(await failure(() => ds.query(`SELECT * FROM no_such_table`)))).toBe(false);
    expect(health.isOutage(await failure(() => ds.query(`SELECT 1/0`)))).toBe(false);
    expect(health.isOutage('not an error')).toBe(false);
  });
});
