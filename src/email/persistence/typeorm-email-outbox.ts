import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { type ClaimedEmail, EmailOutbox } from '../application/email-delivery.ports.js';

interface ClaimedRow {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  html_body: string | null;
  attempts: number;
}

/** The SMTP server's answers can be long (multi-line); the column keeps a readable amount. */
const ERROR_LENGTH = 2000;

/** `email_outbox` on the pool: every method one statement, so one transaction, never held across a send. */
@Injectable()
export class TypeOrmEmailOutbox extends EmailOutbox {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async claimNext(now: Date): Promise<ClaimedEmail | null> {
    const rows = returnedRows<ClaimedRow>(
      await this.ds.query(
      `UPDATE email_outbox SET status = 'sending', attempts = attempts + 1, claimed_at = $1
       WHERE id = (
         SELECT id FROM email_outbox WHERE status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, to_address, subject, body, html_body, attempts`,
        [now],
      ),
    );
    const row = rows[0];
    if (row === undefined) return null;
    return { id: String(row.id), to: row.to_address, subject: row.subject, body: row.body, html: row.html_body, attempt: row.attempts };
  }

  async markSent(email: ClaimedEmail, now: Date): Promise<void> {
    // A late success also overrides an "interrupted" verdict given meanwhile: it was delivered.
    await this.ds.query(
      `UPDATE email_outbox SET status = 'sent', sent_at = $3, last_error = NULL
       WHERE id = $1 AND attempts = $2 AND status IN ('sending', 'failed')`,
      [email.id, email.attempt, now],
    );
  }

  async retryLater(email: ClaimedEmail, error: string, nextAttemptAt: Date): Promise<void> {
    await this.ds.query(
      `UPDATE email_outbox SET status = 'pending', next_attempt_at = $3, last_error = $4, claimed_at = NULL
       WHERE id = $1 AND attempts = $2 AND status = 'sending'`,
      [email.id, email.attempt, nextAttemptAt, error.slice(0, ERROR_LENGTH)],
    );
  }

  async markFailed(email: ClaimedEmail, error: string): Promise<void> {
    await this.ds.query(
      `UPDATE email_outbox SET status = 'failed', last_error = $3
       WHERE id = $1 AND attempts = $2 AND status = 'sending'`,
      [email.id, email.attempt, error.slice(0, ERROR_LENGTH)],
    );
  }

  async failInterrupted(claimedBefore: Date, error: string): Promise<number> {
    const result: unknown = await this.ds.query(
      `UPDATE email_outbox SET status = 'failed', last_error = $2 WHERE status = 'sending' AND claimed_at < $1`,
      [claimedBefore, error],
    );
    return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
  }
}
