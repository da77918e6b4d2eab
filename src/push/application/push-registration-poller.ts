import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { PushRegistrationRunner } from './push-registration-runner.js';

/**
 * Retries waiting registrations every PUSH_REGISTRATION_RETRY_INTERVAL_MS while push is
 * configured (0 turns it off). One round at a time; shutdown waits for the running one.
 */
@Injectable()
export class PushRegistrationPoller implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(
    private readonly runner: PushRegistrationRunner,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.config.pushRegistrationRetryIntervalMs;
    if (!this.config.pushConfigured || interval <= 0) return;
    this.timer = setInterval(() => this.tick(), interval);
    this.timer.unref();
  }

  private tick(): void {
    if (this.busy) return;
    this.busy = true;
    this.round = this.runner
      .runDue()
      .catch((err: unknown) => this.logger.error({ err }, 'retrying push device registrations failed'))
      .finally(() => {
        this.busy = false;
      });
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.round;
  }
}
