import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Default channel groups (Zulip's DefaultStreamGroup): named sets of channels an organization
 * offers new users to join at sign-up. A name is unique in its organization (case-sensitive, as
 * Zulip's unique_together); a channel is in a group at most once.
 */
export class DefaultChannelGroups1766500002500 implements MigrationInterface {
  name = 'DefaultChannelGroups1766500002500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE default_channel_groups (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        CONSTRAINT default_channel_groups_realm_name_key UNIQUE (realm_id, name)
      )`);
    await q.query(`
      CREATE TABLE default_channel_group_channels (
        group_id integer NOT NULL REFERENCES default_channel_groups (id) ON DELETE CASCADE,
        channel_id integer NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, channel_id)
      )`);
    // Archiving a channel takes it out of every group.
    await q.query(`CREATE INDEX default_channel_group_channels_channel_idx ON default_channel_group_channels (channel_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE default_channel_group_channels, default_channel_groups`);
  }
}
