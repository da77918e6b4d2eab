import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Emoji reactions (Zulip's Reaction): one row per user, message and emoji (type + code, as
 * Zulip's unique constraint), deleted with its message.
 */
export class Reactions1764700000000 implements MigrationInterface {
  name = 'Reactions1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reactions (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users (id),
        emoji_name text NOT NULL,
        emoji_code text NOT NULL,
        reaction_type text NOT NULL CHECK (reaction_type IN ('unicode_emoji', 'realm_emoji', 'svc_extra_emoji')),
        CONSTRAINT reactions_user_message_emoji_key UNIQUE (user_id, message_id, reaction_type, emoji_code)
      )`);
    // A message's reactions, oldest first: what message views and the reaction use cases read
    // (and what the cascade from a deleted message uses).
    await q.query(`CREATE INDEX reactions_message_idx ON reactions (message_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reactions`);
  }
}
