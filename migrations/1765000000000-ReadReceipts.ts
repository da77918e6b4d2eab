import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read receipts: the organization's `enable_read_receipts` setting (the user's
 * `send_read_receipts` privacy setting comes with the user settings, 1764900000000).
 *
 * Zulip's do_create_realm enables read receipts in closed organizations only (invitation
 * required, or emails restricted to the organization's domains): existing organizations get that
 * value; new ones get the column default, true, which is that rule for the defaults new
 * organizations start with here (invitation required).
 */
export class ReadReceipts1765000000000 implements MigrationInterface {
  name = 'ReadReceipts1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms ADD COLUMN enable_read_receipts boolean NOT NULL DEFAULT true`);
    await q.query(`UPDATE realms SET enable_read_receipts = (invite_required OR emails_restricted_to_domains)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms DROP COLUMN enable_read_receipts`);
  }
}
