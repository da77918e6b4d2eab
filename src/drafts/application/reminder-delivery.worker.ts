import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { RemindersService } from './reminders.service.js';

/**
 * Delivers due reminders in the background: a pass right after start-up (reminders that fell
 * due while the server was down), then one every REMINDER_POLL_INTERVAL_MS after the previous
 * pass ended (passes never overlap within a process; across processes the row locks of
 * RemindersService.deliverDue keep deliveries exactly-once). 0 disables the worker. Shutdown
 * stops the timer and waits for a running pass before the pool closes.
 */
@Injectable()
export class ReminderDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly reminders: RemindersService,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.reminderPollIntervalMs > 0) this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        this.schedule(this.config.reminderPollIntervalMs);
      });
    }, delayMs);
    this.timer.unref(); // the HTTP server, not this timer, keeps the process alive
  }

  private async pass(): Promise<void> {
    try {
      // Keep going while passes come back full; stop early when shutting down.
      while (!this.stopped) {
        const limit = 100;
        if ((await this.reminders.deliverDue(this.clock.now(), limit)) < limit) break;
      }
    } catch (err) {
      this.logger.error({ err }, 'reminder delivery pass failed');
    }
  }
}
