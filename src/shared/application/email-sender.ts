/** An email the server decided to send. */
export interface OutgoingEmail {
  /** The organization it is sent for (null: server-wide mail). */
  readonly realmId: number | null;
  /** What it is, for operators and tests: `invitation`, ... */
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  /** The plain-text part. */
  readonly body: string;
  /** The same text as HTML (sent as the alternative part); absent: plain text only. */
  readonly html?: string;
}

/**
 * Sends email as part of the use case's transaction: if the transaction rolls back, nothing is
 * sent. The default adapter writes each email to the `email_outbox` table, from which a delivery
 * worker (SMTP, provider API) picks them up.
 */
export abstract class EmailSender {
  abstract send(email: OutgoingEmail, now: Date): Promise<void>;
}

declare module './unit-of-work.js' {
  interface Tx {
    /** Emails leave only if the transaction commits (outbox). */
    readonly emails: EmailSender;
  }
}
