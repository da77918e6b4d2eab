import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organization data exports (Zulip's RealmExport), which are also the export worker's queue:
 * `status` requested → started → succeeded | failed, then deleted (a succeeded one whose file
 * was removed). A worker of any server process claims a requested export (or a started one
 * whose lease ran out: its process died) with `FOR UPDATE SKIP LOCKED`, a fresh `lease_token`
 * and `lease_until`, renews the lease while it writes, and records the outcome only while the
 * export still carries its token. `attempts`: the claims so far (an export is failed after a few).
 * `export_path`: the archive's path under UPLOADS_DIR (set once it succeeded).
 */
export class RealmExports1766500003000 implements MigrationInterface {
  name = 'RealmExports1766500003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE realm_exports (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        acting_user_id integer REFERENCES users (id),
        export_type text NOT NULL CHECK (export_type IN ('public', 'full_with_consent', 'full_without_consent')),
        status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'started', 'succeeded', 'failed', 'deleted')),
        date_requested timestamptz NOT NULL,
        date_started timestamptz,
        date_succeeded timestamptz,
        date_failed timestamptz,
        date_deleted timestamptz,
        export_path text,
        tarball_size_bytes bigint,
        attempts integer NOT NULL DEFAULT 0,
        lease_token uuid,
        lease_until timestamptz,
        last_error text
      )`);
    await q.query(`CREATE INDEX realm_exports_realm_idx ON realm_exports (realm_id, date_requested)`);
    await q.query(`CREATE INDEX realm_exports_pending_idx ON realm_exports (id) WHERE status IN ('requested', 'started')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE realm_exports`);
  }
}
