import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppLogger } from '../logging/logger.js';
import { EVENTS_CHANNEL } from './event-journal.js';
import { BACKGROUND_SQL } from './statement-counter.js';

/**
 * Tells event listeners that the journal grew, after COMMIT. A NOTIFY inside the writing
 * transaction would serialize COMMITs: PostgreSQL holds a cluster-wide lock on its notification
 * queue from pre-commit until the commit record is flushed, so notifying transactions commit one
 * at a time and lose group commit (measured with `npm run bench`: sends 25–40 % faster without
 * it). So this process's listener is told directly (its pass starts at once), and the other
 * processes get one NOTIFY on EVENTS_CHANNEL, sent outside any transaction with at most one in
 * flight: commits meanwhile are folded into the next one. A process that dies between its COMMIT
 * and the NOTIFY leaves the others to their periodic catch-up.
 */
@Injectable()
export class JournalSignal {
  private readonly listeners: (() => void)[] = [];
  private sending = false;
  private again = false;

  constructor(
    private readonly ds: DataSource,
    private readonly logger: AppLogger,
  ) {}

  /** `listener` runs after every COMMIT of this process that journaled events. */
  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Called by the unit of work once a transaction that journaled events has committed. */
  committed(): void {
    for (const listener of this.listeners) listener();
    if (this.sending) {
      this.again = true;
      return;
    }
    void this.notifyOthers();
  }

  private async notifyOthers(): Promise<void> {
    this.sending = true;
    try {
      do {
        this.again = false;
        await this.ds
          .query(`${BACKGROUND_SQL}SELECT pg_notify($1, '')`, [EVENTS_CHANNEL])
          .catch((err: unknown) => this.logger.debug({ err }, 'journal notification not sent; other servers catch up on their timer'));
      } while (this.again && this.ds.isInitialized);
    } finally {
      this.sending = false;
    }
  }
}
