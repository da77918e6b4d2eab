import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { type ClaimedEmail, EmailOutbox, MailTransport } from './email-delivery.ports.js';

/** The longest wait between two tries of one email. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

export const INTERRUPTED_ERROR = 'delivery interrupted (the server process stopped mid-send): it may or may not have been delivered, so it is not sent again';

/**
 * Delivers `email_outbox` rows over SMTP, one row at a time: claim it (`sending`, committed),
 * send it with no transaction open, record the outcome. A 4xx answer (or no answer) puts the row
 * back with a delay that doubles from EMAIL_RETRY_BASE_MS, up to EMAIL_MAX_ATTEMPTS tries; a 5xx
 * answer fails it at once; both keep the server's answer in `last_error`.
 *
 * Never twice: a row is claimed by exactly one worker of all processes (row lock, then the
 * committed `sending` status). A process that dies between claiming and recording leaves the row
 * `sending`; since the server may have taken the message, it is not retried but marked failed
 * (`INTERRUPTED_ERROR`) once its claim is older than any send can last. At-most-once is chosen
 * over at-least-once: a lost email is visible in the table, a duplicate is not undone.
 */
@Injectable()
export class EmailDelivery {
  constructor(
    private readonly outbox: EmailOutbox,
    private readonly transport: MailTransport,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  /**
   * How long a claim may last before it counts as interrupted: connecting, the greeting and two
   * more steps each at their limit. (A send that still finishes later records its outcome
   * anyway: a late success turns the row `sent`; nothing is ever sent again.)
   */
  get interruptedAfterMs(): number {
    return 4 * this.config.emailSendTimeoutMs;
  }

  /**
   * One pass: fails interrupted claims, then delivers due rows one by one until none is due,
   * `limit` were handled or `shouldStop()` says so. Returns how many rows it handled.
   */
  async deliverDue(limit = 100, shouldStop: () => boolean = () => false): Promise<number> {
    const now = this.clock.now();
    const interrupted = await this.outbox.failInterrupted(new Date(now.getTime() - this.interruptedAfterMs), INTERRUPTED_ERROR);
    if (interrupted > 0) this.logger.error({ count: interrupted }, 'emails whose delivery was interrupted were marked failed');
    let handled = 0;
    while (handled < limit && !shouldStop()) {
      const email = await this.outbox.claimNext(this.clock.now());
      if (email === null) break;
      await this.deliver(email);
      handled += 1;
    }
    return handled;
  }

  private async deliver(email: ClaimedEmail): Promise<void> {
    const outcome = await this.transport.send({
      from: this.config.emailFrom,
      to: email.to,
      subject: email.subject,
      text: email.body,
      html: email.html,
      messageId: `<outbox-${email.id}@${this.config.botDomain}>`,
    });
    const now = this.clock.now();
    if (outcome.kind === 'sent') {
      await this.outbox.markSent(email, now);
      return;
    }
    if (outcome.kind === 'temporary' && email.attempt < this.config.emailMaxAttempts) {
      const delay = Math.min(this.config.emailRetryBaseMs * 2 ** (email.attempt - 1), MAX_RETRY_DELAY_MS);
      this.logger.warn({ emailId: email.id, attempt: email.attempt, retryInMs: delay, error: outcome.error }, 'email delivery will be retried');
      await this.outbox.retryLater(email, outcome.error, new Date(now.getTime() + delay));
      return;
    }
    this.logger.error({ emailId: email.id, attempt: email.attempt, error: outcome.error }, 'email delivery failed');
    await this.outbox.markFailed(email, outcome.error);
  }
}
