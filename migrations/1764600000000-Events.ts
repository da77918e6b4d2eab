import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal of client events. Writers append inside their transaction (so an event is
 * visible exactly when its data is), numbered per organization under a lock so that `seq`
 * follows commit order; server processes LISTEN for the sequence numbers and read the rows.
 */
export class Events1764600000000 implements MigrationInterface {
  name = 'Events1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE events (
        realm_id integer NOT NULL REFERENCES realms (id),
        seq bigint NOT NULL,
        payload jsonb NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (realm_id, seq)
      )`);
    await q.query(`CREATE INDEX events_created_idx ON events (created)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE events`);
  }
}
