import pg from 'pg';

export const TEMPLATE_DB = 'svc_test_template';

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

/** A fresh copy of the migrated template for this worker (dropping the previous file's copy). */
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
