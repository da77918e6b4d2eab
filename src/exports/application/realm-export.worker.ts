import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Cancel, Scheduler } from '../../shared/application/scheduler.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { RealmExportRunner } from './realm-export.runner.js';

/**
 * Runs RealmExportRunner in the background of every server process: a pass right after
 * start-up (exports requested, or left half-written, while no server ran), then one
 * EXPORT_POLL_INTERVAL_MS after the previous pass ended; 0 turns it off (the command line
 * runs none). Shutdown stops the timer and waits for the exports being written.
 */
@Injectable()
export class RealmExportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private cancel: Cancel | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly runner: RealmExportRunner,
    private readonly scheduler: Scheduler,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.exportPollIntervalMs > 0) this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
    await this.runner.idle();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.cancel = this.scheduler.after(delayMs, () => {
      this.cancel = null;
      this.running = this.runner
        .runDue(() => this.stopped)
        .then(() => undefined)
        .catch((err: unknown) => this.logger.error({ err }, 'organization export pass failed'))
        .finally(() => {
          this.running = null;
          this.schedule(this.config.exportPollIntervalMs);
        });
    });
  }
}
