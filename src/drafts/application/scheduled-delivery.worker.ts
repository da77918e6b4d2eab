import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { RemindersService } from './reminders.service.js';
import { ScheduledMessageDelivery } from './scheduled-message-delivery.js';

/** What one pass of the worker delivers, each at most `limit` at a time: it returns how many it handled. */
type Deliveries = { name: string; deliverDue(now: Date, limit: number): Promise<number> };

/**
 * Delivers what users scheduled, in the background: due message reminders
 * (RemindersService.deliverDue) and due scheduled messages (ScheduledMessageDelivery.deliverDue).
 * A pass runs right after start-up (what fell due while the server was down), then one every
 * REMINDER_POLL_INTERVAL_MS after the previous pass ended (passes never overlap within a
 * process; across processes the row locks of each delivery keep it exactly-once). 0 disables
 * the worker. Shutdown stops the timer and waits for a running pass before the pool closes.
 */
@Injectable()
export class ScheduledDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly deliveries: Deliveries[];

  constructor(
    reminders: RemindersService,
    scheduledMessages: ScheduledMessageDelivery,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {
    this.deliveries = [
      { name: 'reminder', deliverDue: (now, limit) => reminders.deliverDue(now, limit) },
      { name: 'scheduled message', deliverDue: (now, limit) => scheduledMessages.deliverDue(now, limit) },
    ];
  }

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
    for (const d of this.deliveries) {
      try {
        // Keep going while batches come back full; stop early when shutting down.
        while (!this.stopped) {
          const limit = 100;
          if ((await d.deliverDue(this.clock.now(), limit)) < limit) break;
        }
      } catch (err) {
        this.logger.error({ err }, `${d.name} delivery pass failed`);
      }
    }
  }
}
