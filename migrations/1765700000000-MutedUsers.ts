import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Muted users (issue 12, Zulip's MutedUser): whom a user has muted and since when. The primary
 * key (user, muted user) serves the muter's list and the per-recipient read-flag probe of
 * sending (is this recipient muting the sender?).
 */
export class MutedUsers1765700000000 implements MigrationInterface {
  name = 'MutedUsers1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE muted_users (
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        muted_user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        date_muted timestamptz NOT NULL,
        PRIMARY KEY (user_id, muted_user_id)
      )`);
    // Deleting a user removes the rows that name them as the muted one.
    await q.query(`CREATE INDEX muted_users_muted_user_id_idx ON muted_users (muted_user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE muted_users`);
  }
}
