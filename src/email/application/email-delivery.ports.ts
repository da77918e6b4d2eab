/** An outbox row claimed for one delivery attempt (status `sending`). */
export interface ClaimedEmail {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly html: string | null;
  /** This attempt's number (1 for the first). */
  readonly attempt: number;
}

/**
 * The `email_outbox` table as a delivery queue. Each method is one statement (one transaction)
 * on a pooled connection: no transaction stays open while an SMTP server is talked to.
 */
export abstract class EmailOutbox {
  /**
   * Claims the oldest due pending row (`FOR UPDATE SKIP LOCKED`, so concurrent workers of any
   * process take different rows) and marks it `sending` with one more attempt.
   */
  abstract claimNext(now: Date): Promise<ClaimedEmail | null>;
  /** The attempt succeeded: `sent`. */
  abstract markSent(email: ClaimedEmail, now: Date): Promise<void>;
  /** A temporary failure: pending again, due at `nextAttemptAt`, with the server's answer. */
  abstract retryLater(email: ClaimedEmail, error: string, nextAttemptAt: Date): Promise<void>;
  /** A permanent failure (or the last try): `failed`, with the server's answer. */
  abstract markFailed(email: ClaimedEmail, error: string): Promise<void>;
  /**
   * Rows claimed before `claimedBefore` and still `sending` belong to a process that died (or
   * hung) mid-send: whether the server took them is unknown, so they are marked failed, never
   * sent again. Returns how many.
   */
  abstract failInterrupted(claimedBefore: Date, error: string): Promise<number>;
}

/** What the SMTP server made of one message. */
export type TransportOutcome =
  | { readonly kind: 'sent'; readonly response: string }
  /** 4xx, or no answer at all (connection refused, lost, timed out): worth trying again later. */
  | { readonly kind: 'temporary'; readonly error: string }
  /** 5xx (or a message that can never be sent): give up now. */
  | { readonly kind: 'permanent'; readonly error: string };

export interface MailMessage {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The HTML alternative, if any. */
  readonly html: string | null;
  /** Stable per outbox row, so a receiving system can tell copies apart (`Message-ID`). */
  readonly messageId: string;
}

/** Hands one message to the mail server (SMTP). */
export abstract class MailTransport {
  abstract send(message: MailMessage): Promise<TransportOutcome>;
  /** Closes pooled connections (shutdown). */
  abstract close(): void;
}
