import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Cancel, Scheduler } from '../../shared/application/scheduler.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { MailTransport } from './email-delivery.ports.js';
import { EmailDelivery } from './email-delivery.js';

/**
 * Runs EmailDelivery in the background of every server process while SMTP_URL is set: a pass
 * right after start-up, then one EMAIL_POLL_INTERVAL_MS after the previous pass ended (passes
 * never overlap within a process; across processes each row is claimed by one of them).
 * Shutdown stops the timer and waits for the running pass (and its send) before the pool closes.
 */
@Injectable()
export class EmailDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private cancel: Cancel | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly delivery: EmailDelivery,
    private readonly transport: MailTransport,
    private readonly scheduler: Scheduler,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.emailConfigured && this.config.emailPollIntervalMs > 0) this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
    this.transport.close();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.cancel = this.scheduler.after(delayMs, () => {
      this.cancel = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        this.schedule(this.config.emailPollIntervalMs);
      });
    });
  }

  private async pass(): Promise<void> {
    try {
      // Keep going while passes come back full; stop early when shutting down.
      while (!this.stopped && (await this.delivery.deliverDue(100, () => this.stopped)) === 100);
    } catch (err) {
      this.logger.error({ err }, 'email delivery pass failed');
    }
  }
}
