import type { TestProject } from 'vitest/node';
import { openDataSource } from '../src/app/database.providers.js';
import { ensureDatabase, startEmbeddedPostgres } from '../src/shared/persistence/embedded-postgres.js';
import { databaseUrl, dropTestDatabases, TEMPLATE_DB } from './support/databases.js';

/**
 * One PostgreSQL for the run: DATABASE_URL's server, else an embedded one under
 * .data/test-pg. The schema is migrated once into a template database; each test file then
 * gets a fresh copy of it (test/support/test-app.ts).
 */
export default async function setup(project: TestProject) {
  let stop = async () => {};
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    const embedded = await startEmbeddedPostgres({
      dataDir: '.data/test',
      port: Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54339),
      log: { info: () => {}, warn: (m) => console.warn(m) },
      extraFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    });
    adminUrl = embedded.adminUrl;
    stop = () => embedded.stop();
  }
  await dropTestDatabases(adminUrl); // the template and any leftovers of interrupted runs
  await ensureDatabase(adminUrl, TEMPLATE_DB);
  const ds = await openDataSource(databaseUrl(adminUrl, TEMPLATE_DB));
  await ds.destroy();
  project.provide('adminUrl', adminUrl);
  return stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
  }
}
