import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Background work that any number of server processes share, each item handled once.
 *
 * `email_outbox` becomes a delivery queue: `status` pending → sending → sent | failed, the
 * attempts made, when the next one is due, the SMTP server's last answer, and when the row was
 * claimed (a row left `sending` by a process that died mid-send is never sent again: it is
 * marked failed once its claim is stale). Rows already sent keep `sent_at` and become `sent`.
 * `html_body`: the HTML alternative of `body` (null: plain text only).
 *
 * `push_registration_jobs.lease_token`: a runner claims a job with a fresh token; the result of
 * its relay call is written only while the job still carries that token, so a runner whose
 * lease ran out (paused, slow) cannot overwrite the bookkeeping of the runner that took over.
 */
export class BackgroundJobs1765900000200 implements MigrationInterface {
  name = 'BackgroundJobs1765900000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE email_outbox
        ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN next_attempt_at timestamptz,
        ADD COLUMN claimed_at timestamptz,
        ADD COLUMN last_error text,
        ADD COLUMN html_body text`);
    await q.query(`UPDATE email_outbox SET status = 'sent' WHERE sent_at IS NOT NULL`);
    await q.query(`UPDATE email_outbox SET next_attempt_at = created_at`);
    await q.query(`ALTER TABLE email_outbox ALTER COLUMN next_attempt_at SET NOT NULL`);
    await q.query(`DROP INDEX email_outbox_unsent_idx`);
    await q.query(`CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at, id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX email_outbox_sending_idx ON email_outbox (claimed_at) WHERE status = 'sending'`);

    await q.query(`ALTER TABLE push_registration_jobs ADD COLUMN lease_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE push_registration_jobs DROP COLUMN lease_token`);
    await q.query(`DROP INDEX email_outbox_sending_idx`);
    await q.query(`DROP INDEX email_outbox_due_idx`);
    await q.query(`CREATE INDEX email_outbox_unsent_idx ON email_outbox (id) WHERE sent_at IS NULL`);
    await q.query(`ALTER TABLE email_outbox DROP COLUMN status, DROP COLUMN attempts, DROP COLUMN next_attempt_at, DROP COLUMN claimed_at, DROP COLUMN last_error, DROP COLUMN html_body`);
  }
}
