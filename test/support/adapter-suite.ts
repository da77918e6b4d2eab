import { DomainError } from '@app/domain/shared';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/shared/application/unit-of-work.js';
import { type Account, TestApp } from './test-app.js';

export interface AdapterSuite {
  t: TestApp;
  uow: UnitOfWork;
  ds: DataSource;
  /** The organization of `t.owner`. */
  realmId: number;
  /** A second organization ('other', owned by other-owner@example.com), to check that rows stay in theirs. */
  otherRealmId: number;
  /** The owner of that organization. */
  otherOwner: Account;
}

/** What a persistence adapter's integration test starts from: the app on a fresh database, its unit of work and data source, and two organizations. */
export async function startAdapterSuite(): Promise<AdapterSuite> {
  const t = await TestApp.start();
  const ds = t.app.get(DataSource);
  const [{ realm_id: realmId }]: { realm_id: number }[] = await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]);
  const otherOwner = await t.createOrganization('other', 'other-owner@example.com');
  const [{ id: otherRealmId }]: { id: number }[] = await ds.query(`SELECT id FROM realms WHERE string_id = 'other'`);
  return { t, uow: t.app.get(UnitOfWork), ds, realmId, otherRealmId, otherOwner };
}

/**
 * Runs `work` while another connection (its own transaction, outside the app's pool) holds the
 * row lock of row `id` of `table`: for the `FOR UPDATE SKIP LOCKED` claims of the job tables.
 */
export async function whileRowLocked<T>(t: TestApp, table: string, id: number | string, work: () => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    return await work();
  } finally {
    await c.query('ROLLBACK').catch(() => undefined);
    await c.end();
  }
}

/** The DomainError `work` is refused with (a translated constraint violation, a rule), failing the test when it succeeds or throws anything else. */
export async function failure(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('no error');
}
