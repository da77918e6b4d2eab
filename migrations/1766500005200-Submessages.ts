import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Widgets (Zulip's SubMessage): a `/poll` or `/todo` message (or one sent with `widget_content`)
 * is stored with its first submessage (`msg_type` 'widget', the widget's JSON); its readers
 * attach more with POST /submessage (votes, options, tasks). They go with their message.
 *
 * `messages.has_submessages` (Zulip's is_widget_message) is set with the first one, in the same
 * statement: message views load the submessages of a page only when one of its messages has
 * some (one statement then, none for pages without widgets), and widgets cannot be edited.
 * Adding a column with a constant default rewrites no rows.
 */
export class Submessages1766500005200 implements MigrationInterface {
  name = 'Submessages1766500005200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE submessages (
        id serial PRIMARY KEY,
        message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        sender_id integer NOT NULL REFERENCES users (id),
        msg_type text NOT NULL,
        content text NOT NULL
      )`);
    // A message's submessages in order: what message views, POST /submessage and the cascade read.
    await q.query(`CREATE INDEX submessages_message_idx ON submessages (message_id, id)`);
    await q.query(`ALTER TABLE messages ADD COLUMN has_submessages boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN has_submessages`);
    await q.query(`DROP TABLE submessages`);
  }
}
