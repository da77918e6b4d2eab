import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browser sessions (issue 23): a row per logged-in browser. Only the SHA-256 of the `sessionid`
 * cookie's token is kept (hex; the primary key the cookie is looked up by), so the table (a
 * backup, a read-only SQL account) holds no usable cookie. `password_stamp` is the SHA-256 of
 * the user's password hash when the session began (Django's session auth hash): a session whose
 * stamp no longer matches is not accepted, whatever path changed the password. A session ends at
 * `expires_at` (SESSION_LIFETIME_SECONDS after login) or after SESSION_IDLE_TIMEOUT_SECONDS
 * without a request (`last_seen_at`, written at most once a minute); logout, a password change
 * and deactivation delete the rows, found by (realm_id, user_id).
 */
export class Sessions1766100000000 implements MigrationInterface {
  name = 'Sessions1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sessions (
        token_sha256 text PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms(id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        password_stamp text NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sessions_user_idx ON sessions (realm_id, user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sessions`);
  }
}
