import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message reminders (Zulip's ScheduledMessage with delivery_type REMIND): a direct message the
 * Notification Bot sends its owner at `scheduled_at`, quoting `target_message_id`.
 */
export class Reminders1764500000000 implements MigrationInterface {
  name = 'Reminders1764500000000';

  async up(q: QueryRunner): Promise<void> {
    // target_message_id has no foreign key: a reminder outlives its message (the stored
    // content is delivered then). note is kept as sent; content/rendered_content are the text
    // formatted at creation. A delivered reminder keeps the id of the message it became (null
    // when nothing could be sent, e.g. to a deactivated owner).
    await q.query(`
      CREATE TABLE reminders (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        target_message_id integer NOT NULL,
        note text NOT NULL DEFAULT '',
        content text NOT NULL,
        rendered_content text NOT NULL,
        scheduled_at timestamptz NOT NULL,
        date_created timestamptz NOT NULL,
        delivered boolean NOT NULL DEFAULT false,
        delivered_message_id integer REFERENCES messages (id) ON DELETE SET NULL,
        failed boolean NOT NULL DEFAULT false,
        failure_message text
      )`);
    // What the delivery worker polls: due, neither delivered nor failed, oldest first.
    await q.query(`CREATE INDEX reminders_due_idx ON reminders (scheduled_at, id) WHERE NOT delivered AND NOT failed`);
    await q.query(`CREATE INDEX reminders_owner_idx ON reminders (realm_id, user_id, scheduled_at) WHERE NOT delivered`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reminders`);
  }
}
