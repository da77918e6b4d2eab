import { Injectable } from '@nestjs/common';
import { PollingWorker } from '../../shared/application/polling-worker.js';
import { Scheduler } from '../../shared/application/scheduler.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { ThumbnailRunner } from './thumbnail.runner.js';

/**
 * ThumbnailRunner in the background of every server process (PollingWorker): a pass right after
 * start-up (images uploaded, or left half-done, while no server ran), then every
 * THUMBNAIL_POLL_INTERVAL_MS; 0 turns it off. An upload does not wait for a pass: it starts its
 * own image at once (ThumbnailRunner.startSoon).
 */
@Injectable()
export class ThumbnailWorker extends PollingWorker {
  constructor(runner: ThumbnailRunner, scheduler: Scheduler, private readonly config: ServerConfig, logger: AppLogger) {
    super(runner, scheduler, logger, 'thumbnail pass failed');
  }

  protected get intervalMs(): number {
    return this.config.thumbnailPollIntervalMs;
  }
}
