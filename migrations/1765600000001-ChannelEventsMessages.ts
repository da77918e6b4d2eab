import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization's send_channel_events_messages (Zulip feature level 434): whether the
 * Notification Bot posts notices about channels (creation, renames, description, privacy,
 * retention, topics policy, archiving) into their "channel events" topic.
 */
export class ChannelEventsMessages1765600000001 implements MigrationInterface {
  name = 'ChannelEventsMessages1765600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms ADD COLUMN send_channel_events_messages boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms DROP COLUMN send_channel_events_messages`);
  }
}
