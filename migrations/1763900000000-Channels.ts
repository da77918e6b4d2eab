import type { MigrationInterface, QueryRunner } from 'typeorm';

const GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
];

/** Channels, folders, subscriptions, default channels, per-user topic policies, channel email tokens. */
export class Channels1763900000000 implements MigrationInterface {
  name = 'Channels1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channel_folders (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        rendered_description text NOT NULL DEFAULT '',
        date_created timestamptz NOT NULL,
        creator_id integer REFERENCES users (id),
        is_archived boolean NOT NULL DEFAULT false,
        "order" integer NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE UNIQUE INDEX channel_folders_realm_name_key ON channel_folders (realm_id, lower(name))`);

    await q.query(`
      CREATE TABLE channels (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        rendered_description text NOT NULL DEFAULT '',
        invite_only boolean NOT NULL DEFAULT false,
        is_web_public boolean NOT NULL DEFAULT false,
        history_public_to_subscribers boolean NOT NULL DEFAULT true,
        message_retention_days integer,
        is_archived boolean NOT NULL DEFAULT false,
        folder_id integer REFERENCES channel_folders (id),
        topics_policy text NOT NULL DEFAULT 'inherit',
        date_created timestamptz NOT NULL,
        creator_id integer REFERENCES users (id),
        first_message_id integer,
        ${GROUP_SETTINGS.map((s) => `${s}_id integer NOT NULL REFERENCES user_groups (id)`).join(',\n        ')}
      )`);
    // Names are unique per organization case-insensitively, archived channels included.
    await q.query(`CREATE UNIQUE INDEX channels_realm_name_key ON channels (realm_id, lower(name))`);

    await q.query(`
      CREATE TABLE subscriptions (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        channel_id integer NOT NULL REFERENCES channels (id),
        active boolean NOT NULL DEFAULT true,
        color text NOT NULL,
        is_muted boolean NOT NULL DEFAULT false,
        pin_to_top boolean NOT NULL DEFAULT false,
        desktop_notifications boolean,
        audible_notifications boolean,
        push_notifications boolean,
        email_notifications boolean,
        wildcard_mentions_notify boolean,
        CONSTRAINT subscriptions_user_channel_key UNIQUE (user_id, channel_id)
      )`);
    await q.query(`CREATE INDEX subscriptions_channel_active_idx ON subscriptions (channel_id) WHERE active`);

    await q.query(`
      CREATE TABLE default_channels (
        channel_id integer PRIMARY KEY REFERENCES channels (id),
        realm_id integer NOT NULL REFERENCES realms (id)
      )`);
    await q.query(`CREATE INDEX default_channels_realm_idx ON default_channels (realm_id)`);

    // A user's visibility policy for a topic: 1 muted, 2 unmuted, 3 followed (no row = inherit).
    await q.query(`
      CREATE TABLE user_topics (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        channel_id integer NOT NULL REFERENCES channels (id),
        topic_name text NOT NULL,
        visibility_policy smallint NOT NULL,
        last_updated timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX user_topics_user_channel_topic_key ON user_topics (user_id, channel_id, lower(topic_name))`);
    await q.query(`CREATE INDEX user_topics_channel_topic_idx ON user_topics (channel_id, lower(topic_name))`);

    await q.query(`
      CREATE TABLE channel_email_addresses (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        channel_id integer NOT NULL REFERENCES channels (id),
        creator_id integer NOT NULL REFERENCES users (id),
        sender_id integer NOT NULL REFERENCES users (id),
        token text NOT NULL,
        date_created timestamptz NOT NULL,
        CONSTRAINT channel_email_addresses_token_key UNIQUE (token),
        CONSTRAINT channel_email_addresses_key UNIQUE (channel_id, creator_id, sender_id)
      )`);

    await q.query(`ALTER TABLE users ADD CONSTRAINT users_default_sending_stream_fk
      FOREIGN KEY (default_sending_stream_id) REFERENCES channels (id)`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_default_events_register_stream_fk
      FOREIGN KEY (default_events_register_stream_id) REFERENCES channels (id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_default_sending_stream_fk,
      DROP CONSTRAINT users_default_events_register_stream_fk`);
    await q.query(`DROP TABLE channel_email_addresses, user_topics, default_channels, subscriptions, channels, channel_folders`);
  }
}
