import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Cancel, Scheduler } from '../../shared/application/scheduler.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { ThumbnailRunner } from './thumbnail.runner.js';

/**
 * Runs ThumbnailRunner in the background of every server process: a pass right after start-up
 * (images uploaded, or left half-done, while no server ran), then one THUMBNAIL_POLL_INTERVAL_MS
 * after the previous pass ended; 0 turns it off. An upload does not wait for a pass: it starts
 * its own image at once (ThumbnailRunner.startSoon). Shutdown stops the timer and waits for the
 * images being worked on.
 */
@Injectable()
export class ThumbnailWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private cancel: Cancel | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly runner: ThumbnailRunner,
    private readonly scheduler: Scheduler,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.thumbnailPollIntervalMs > 0) this.schedule(0);
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
        .catch((err: unknown) => this.logger.error({ err }, 'thumbnail pass failed'))
        .finally(() => {
          this.running = null;
          this.schedule(this.config.thumbnailPollIntervalMs);
        });
    });
  }
}
