import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/shared/application/unit-of-work.js';
import { TestApp } from './test-app.js';

export interface AdapterSuite {
  t: TestApp;
  uow: UnitOfWork;
  ds: DataSource;
  /** The organization of `t.owner`. */
  realmId: number;
  /** A second organization ('other', owned by other-owner@example.com), to check that rows stay in theirs. */
  otherRealmId: number;
}

/** What a persistence adapter's integration test starts from: the app on a fresh database, its unit of work and data source, and two organizations. */
export async function startAdapterSuite(): Promise<AdapterSuite> {
  const t = await TestApp.start();
  const ds = t.app.get(DataSource);
  const [{ realm_id: realmId }]: { realm_id: number }[] = await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]);
  await t.createOrganization('other', 'other-owner@example.com');
  const [{ id: otherRealmId }]: { id: number }[] = await ds.query(`SELECT id FROM realms WHERE string_id = 'other'`);
  return { t, uow: t.app.get(UnitOfWork), ds, realmId, otherRealmId };
}
