import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event queues stored in PostgreSQL (issue 15): a row per queue, so that any server process
 * answers any queue and queues survive restarts. The events themselves stay in the journal
 * (`events`); a queue keeps only its options, the events handed out and not yet acknowledged,
 * and its boundary in the journal. Each poll of a queue reads its organization's journal rows
 * past that boundary: indexed by (realm_id, xid, id). The prune's min(boundary) and the expiry
 * scan every queue row (a few thousand at most, every few minutes).
 */
export class EventQueues1765900001000 implements MigrationInterface {
  name = 'EventQueues1765900001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_queues (
        id text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        realm_id integer NOT NULL REFERENCES realms (id) ON DELETE CASCADE,
        options jsonb NOT NULL,
        snapshot text,
        boundary xid8 NOT NULL,
        next_event_id integer NOT NULL DEFAULT 0,
        newest_discarded integer NOT NULL DEFAULT -1,
        pending jsonb NOT NULL DEFAULT '[]',
        version integer NOT NULL DEFAULT 0,
        timeout_secs integer NOT NULL,
        last_polled timestamptz NOT NULL,
        created timestamptz NOT NULL DEFAULT clock_timestamp()
      ) WITH (fillfactor = 50)`);
    // Only columns no poll writes are indexed, so that polls update their row in place (HOT).
    await q.query(`CREATE INDEX event_queues_user_idx ON event_queues (user_id)`);
    await q.query(`CREATE INDEX events_realm_xid_idx ON events (realm_id, xid, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events_realm_xid_idx`);
    await q.query(`DROP TABLE event_queues`);
  }
}
