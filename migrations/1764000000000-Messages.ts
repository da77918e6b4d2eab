import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages and their per-user rows (Zulip's UserMessage: one row per recipient with a flags
 * bitmask), conversations of direct messages, recipients, uploads and their links to messages.
 */
export class Messages1764000000000 implements MigrationInterface {
  name = 'Messages1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // A direct-message conversation is its set of participants (1:1, self and groups alike).
    await q.query(`
      CREATE TABLE direct_message_groups (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        participant_key text NOT NULL,
        CONSTRAINT direct_message_groups_key UNIQUE (realm_id, participant_key)
      )`);
    await q.query(`
      CREATE TABLE direct_message_group_members (
        group_id integer NOT NULL REFERENCES direct_message_groups (id),
        user_id integer NOT NULL REFERENCES users (id),
        PRIMARY KEY (group_id, user_id)
      )`);
    // Where a message goes: a channel (type 2) or a direct-message conversation (type 3).
    await q.query(`
      CREATE TABLE recipients (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        type smallint NOT NULL,
        type_id integer NOT NULL,
        CONSTRAINT recipients_type_key UNIQUE (type, type_id)
      )`);
    await q.query(`
      CREATE TABLE messages (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        sender_id integer NOT NULL REFERENCES users (id),
        recipient_id integer NOT NULL REFERENCES recipients (id),
        channel_id integer REFERENCES channels (id),
        topic text NOT NULL DEFAULT '',
        content text NOT NULL,
        rendered_content text NOT NULL,
        date_sent timestamptz NOT NULL,
        sending_client text NOT NULL,
        last_edit_time timestamptz,
        last_moved_time timestamptz,
        edit_history jsonb,
        has_attachment boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX messages_channel_topic_idx ON messages (channel_id, lower(topic), id) WHERE channel_id IS NOT NULL`);
    await q.query(`CREATE INDEX messages_recipient_idx ON messages (recipient_id, id)`);
    await q.query(`CREATE INDEX messages_sender_idx ON messages (sender_id, id)`);

    await q.query(`
      CREATE TABLE user_messages (
        user_id integer NOT NULL REFERENCES users (id),
        message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        flags integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, message_id)
      )`);
    await q.query(`CREATE INDEX user_messages_message_idx ON user_messages (message_id)`);
    await q.query(`CREATE INDEX user_messages_unread_idx ON user_messages (user_id, message_id) WHERE (flags & 1) = 0`);
    await q.query(`CREATE INDEX user_messages_starred_idx ON user_messages (user_id, message_id) WHERE (flags & 2) <> 0`);

    await q.query(`
      CREATE TABLE attachments (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        owner_id integer NOT NULL REFERENCES users (id),
        path_id text NOT NULL,
        name text NOT NULL,
        size bigint NOT NULL,
        content_type text NOT NULL,
        create_time timestamptz NOT NULL,
        CONSTRAINT attachments_path_id_key UNIQUE (path_id)
      )`);
    await q.query(`CREATE INDEX attachments_owner_idx ON attachments (owner_id)`);
    await q.query(`
      CREATE TABLE attachment_messages (
        attachment_id integer NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
        message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        PRIMARY KEY (attachment_id, message_id)
      )`);
    await q.query(`CREATE INDEX attachment_messages_message_idx ON attachment_messages (message_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE attachment_messages, attachments, user_messages, messages, recipients,
      direct_message_group_members, direct_message_groups`);
  }
}
