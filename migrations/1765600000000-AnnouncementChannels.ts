import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization's channel-valued settings (issue 12, Notification Bot): where new channels,
 * sign-ups and server update notes are announced, and where moderation requests go. NULL is
 * "disabled" (-1 on the wire); a channel that is archived stops being one.
 */
export class AnnouncementChannels1765600000000 implements MigrationInterface {
  name = 'AnnouncementChannels1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE realms
        ADD COLUMN moderation_request_channel_id integer REFERENCES channels (id) ON DELETE SET NULL,
        ADD COLUMN new_stream_announcements_stream_id integer REFERENCES channels (id) ON DELETE SET NULL,
        ADD COLUMN signup_announcements_stream_id integer REFERENCES channels (id) ON DELETE SET NULL,
        ADD COLUMN update_announcements_stream_id integer REFERENCES channels (id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE realms
        DROP COLUMN moderation_request_channel_id,
        DROP COLUMN new_stream_announcements_stream_id,
        DROP COLUMN signup_announcements_stream_id,
        DROP COLUMN update_announcements_stream_id`);
  }
}
