import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Cancel, Scheduler } from './scheduler.js';

/** Where a failed pass is reported (the app's logger is one). */
export interface PassLogger {
  error(obj: object, msg: string): void;
}

/** What a polling worker runs: one pass over due work, and a wait for work it started elsewhere. */
export interface PollingRunner {
  runDue(shouldStop: () => boolean): Promise<unknown>;
  idle(): Promise<void>;
}

/**
 * Runs a runner in the background of every server process: a pass right after start-up, then one
 * `intervalMs` after the previous pass ended; 0 turns it off. Shutdown stops the timer and waits
 * for the pass and the runner's own work. The thumbnail and export workers are this.
 */
export abstract class PollingWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private cancel: Cancel | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  protected constructor(
    private readonly runner: PollingRunner,
    private readonly scheduler: Scheduler,
    private readonly logger: PassLogger,
    /** The log message of a failed pass. */
    private readonly failure: string,
  ) {}

  protected abstract get intervalMs(): number;

  onApplicationBootstrap(): void {
    if (this.intervalMs > 0) this.schedule(0);
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
        .catch((err: unknown) => this.logger.error({ err }, this.failure))
        .finally(() => {
          this.running = null;
          this.schedule(this.intervalMs);
        });
    });
  }
}
