import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Test databases are named after the checkout (and TEST_RUN_NAME, when set), so test runs of two
 * checkouts (worktrees), or two runs in one checkout, on one PostgreSQL never drop each other's
 * databases.
 */
const RUN = `${process.cwd()}\0${process.env.TEST_RUN_NAME ?? ''}`;
export const TEST_DB_PREFIX = `svc_test_${createHash('sha1').update(RUN).digest('hex').slice(0, 8)}`;
export const TEMPLATE_DB = `${TEST_DB_PREFIX}_template`;

export async function adminClient(adminUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return client;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = await adminClient(adminUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Drops the databases earlier (interrupted) runs left behind. */
export async function dropTestDatabases(adminUrl: string): Promise<void> {
  const admin = await adminClient(adminUrl);
  try {
    const pattern = `${TEST_DB_PREFIX.replace(/_/g, '\\_')}\\_%`;
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [pattern]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A fresh copy of the migrated template (dropping a leftover of the same name). */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = await adminClient(adminUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(adminUrl, name);
}
