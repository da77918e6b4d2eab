import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event journal ordered without a lock (issue 14): each row records the id of the
 * transaction that wrote it (`xid`, top-level, read with `pg_current_xact_id()`) and a global
 * `id`; readers deliver in (xid, id) order, only below the oldest transaction still running, so
 * writers no longer serialize per organization. The per-organization `seq` (numbered under an
 * advisory lock) goes. Rows already there keep their payload; they get this migration's
 * transaction id, so every server process started after it treats them as already delivered.
 */
export class EventJournalXid1765900000000 implements MigrationInterface {
  name = 'EventJournalXid1765900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events DROP CONSTRAINT events_pkey`);
    await q.query(`ALTER TABLE events DROP COLUMN seq`);
    await q.query(`ALTER TABLE events ADD COLUMN id bigserial PRIMARY KEY`);
    await q.query(`ALTER TABLE events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id()`);
    await q.query(`CREATE INDEX events_xid_id_idx ON events (xid, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN seq bigint`);
    await q.query(`UPDATE events e SET seq = n.seq
      FROM (SELECT id, row_number() OVER (PARTITION BY realm_id ORDER BY xid, id) AS seq FROM events) n WHERE n.id = e.id`);
    await q.query(`DROP INDEX events_xid_id_idx`);
    await q.query(`ALTER TABLE events DROP COLUMN xid`);
    await q.query(`ALTER TABLE events DROP CONSTRAINT events_pkey`);
    await q.query(`ALTER TABLE events DROP COLUMN id`);
    await q.query(`ALTER TABLE events ALTER COLUMN seq SET NOT NULL`);
    await q.query(`ALTER TABLE events ADD PRIMARY KEY (realm_id, seq)`);
  }
}
