import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scheduled messages (Zulip's ScheduledMessage with delivery_type SEND_LATER): a message its
 * owner wrote, checked by the sending rules, that the delivery worker sends as them at
 * `scheduled_at`.
 */
export class ScheduledMessages1765100000000 implements MigrationInterface {
  name = 'ScheduledMessages1765100000000';

  async up(q: QueryRunner): Promise<void> {
    // A channel message has channel_id and topic; a direct one the ids of every participant,
    // its owner included (direct_user_ids, ascending). content/rendered_content are as checked
    // when scheduled or last edited (delivery checks and renders again). A delivered message
    // keeps the id of the message it became; a failed one its error.
    await q.query(`
      CREATE TABLE scheduled_messages (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        channel_id integer REFERENCES channels (id),
        topic text NOT NULL DEFAULT '',
        direct_user_ids integer[] NOT NULL DEFAULT '{}',
        content text NOT NULL,
        rendered_content text NOT NULL,
        sending_client text NOT NULL,
        read_by_sender boolean NOT NULL,
        scheduled_at timestamptz NOT NULL,
        delivered boolean NOT NULL DEFAULT false,
        delivered_message_id integer REFERENCES messages (id) ON DELETE SET NULL,
        failed boolean NOT NULL DEFAULT false,
        failure_message text,
        CHECK ((channel_id IS NULL) <> (cardinality(direct_user_ids) = 0))
      )`);
    // What the delivery worker polls: due, neither delivered nor failed, oldest first.
    await q.query(`CREATE INDEX scheduled_messages_due_idx ON scheduled_messages (scheduled_at, id) WHERE NOT delivered AND NOT failed`);
    // An owner's undelivered messages (GET /scheduled_messages, POST /register), by delivery time.
    await q.query(`CREATE INDEX scheduled_messages_owner_idx ON scheduled_messages (realm_id, user_id, scheduled_at) WHERE NOT delivered`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE scheduled_messages`);
  }
}
