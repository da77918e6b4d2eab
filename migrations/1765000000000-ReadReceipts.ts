import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read receipts: the organization's `enable_read_receipts` setting and the user's
 * `send_read_receipts` privacy setting (default on, as in Zulip).
 *
 * Zulip's do_create_realm enables read receipts in closed organizations only (invitation
 * required, or emails restricted to the organization's domains): existing organizations get that
 * value; new ones get the column default, true, which is that rule for the defaults new
 * organizations start with here (invitation required).
 *
 * `send_read_receipts` belongs to the users' personal settings; the migration that adds those
 * settings may have created it already, hence IF NOT EXISTS, and `down` leaves it to that one.
 */
export class ReadReceipts1765000000000 implements MigrationInterface {
  name = 'ReadReceipts1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms ADD COLUMN enable_read_receipts boolean NOT NULL DEFAULT true`);
    await q.query(`UPDATE realms SET enable_read_receipts = (invite_required OR emails_restricted_to_domains)`);
    await q.query(`ALTER TABLE users ADD COLUMN IF NOT EXISTS send_read_receipts boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms DROP COLUMN enable_read_receipts`);
  }
}
