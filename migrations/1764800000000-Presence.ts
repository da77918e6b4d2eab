import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User presence (Zulip's UserPresence and PresenceSequence): one row per user with the last
 * active and last connected times, numbered by a per-organization update counter so clients
 * fetch only the rows changed since the id they hold. Typing notifications store nothing.
 */
export class Presence1764800000000 implements MigrationInterface {
  name = 'Presence1764800000000';

  async up(q: QueryRunner): Promise<void> {
    // The organization's newest presence update id; a row is created by the first update.
    await q.query(`
      CREATE TABLE presence_sequences (
        realm_id integer PRIMARY KEY REFERENCES realms (id),
        last_update_id bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE user_presence (
        user_id integer PRIMARY KEY REFERENCES users (id),
        realm_id integer NOT NULL REFERENCES realms (id),
        last_connected_time timestamptz,
        last_active_time timestamptz,
        last_update_id bigint NOT NULL
      )`);
    // Fetches: rows changed after an update id, or users connected since a time.
    await q.query(`CREATE INDEX user_presence_realm_update_idx ON user_presence (realm_id, last_update_id)`);
    await q.query(`CREATE INDEX user_presence_realm_connected_idx ON user_presence (realm_id, last_connected_time)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_presence, presence_sequences`);
  }
}
