import type { MigrationInterface, QueryRunner } from 'typeorm';

/** User status, the presence setting behind its deprecated `away` flag, and custom emoji. */
export class UserStatus1764200000000 implements MigrationInterface {
  name = 'UserStatus1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // Zulip's presence_enabled user setting; a status's `away` is its inverse.
    await q.query(`ALTER TABLE users ADD COLUMN presence_enabled boolean NOT NULL DEFAULT true`);

    // Custom emoji. A row whose file_name is still NULL is being uploaded and is not shown.
    // Names are unique among the active emoji of an organization only.
    await q.query(`
      CREATE TABLE realm_emoji (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        name text NOT NULL,
        author_id integer REFERENCES users (id),
        file_name text,
        is_animated boolean NOT NULL DEFAULT false,
        deactivated boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE UNIQUE INDEX realm_emoji_realm_active_name_key ON realm_emoji (realm_id, name) WHERE NOT deactivated`);
    await q.query(`CREATE INDEX realm_emoji_realm_idx ON realm_emoji (realm_id)`);

    // One status per user; reaction_type holds the API's values (unicode_emoji, realm_emoji,
    // svc_extra_emoji).
    await q.query(`
      CREATE TABLE user_status (
        user_id integer PRIMARY KEY REFERENCES users (id),
        realm_id integer NOT NULL REFERENCES realms (id),
        status_text text NOT NULL DEFAULT '',
        emoji_name text NOT NULL DEFAULT '',
        emoji_code text NOT NULL DEFAULT '',
        reaction_type text NOT NULL DEFAULT 'unicode_emoji',
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX user_status_realm_idx ON user_status (realm_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_status, realm_emoji`);
    await q.query(`ALTER TABLE users DROP COLUMN presence_enabled`);
  }
}
