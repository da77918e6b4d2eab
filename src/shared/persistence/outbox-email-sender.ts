import type { EntityManager } from 'typeorm';
import { EmailSender, type OutgoingEmail } from '../application/email-sender.js';

/** Queues emails in the `email_outbox` table (pending, due at once), inside the caller's transaction. */
export class OutboxEmailSender extends EmailSender {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async send(email: OutgoingEmail, now: Date): Promise<void> {
    await this.em.query(
      `INSERT INTO email_outbox (realm_id, kind, to_address, subject, body, html_body, created_at, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [email.realmId, email.kind, email.to, email.subject, email.body, email.html ?? null, now],
    );
  }
}
