import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password reset by email (issue 16 §6): one row per emailed link. Only the SHA-256 of the
 * link's token is kept, so the table (a backup, a read-only SQL account) reveals no usable
 * link; a link works once, until `expires_at`, and a reset revokes the user's other links.
 */
export class PasswordResetTokens1766000000700 implements MigrationInterface {
  name = 'PasswordResetTokens1766000000700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE password_reset_tokens (
        id bigserial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms(id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_sha256 text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        CONSTRAINT password_reset_tokens_token_key UNIQUE (token_sha256)
      )`);
    await q.query(`CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id) WHERE used_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE password_reset_tokens`);
  }
}
