import { Injectable } from '@nestjs/common';
import { PollingWorker } from '../../shared/application/polling-worker.js';
import { Scheduler } from '../../shared/application/scheduler.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { RealmExportRunner } from './realm-export.runner.js';

/**
 * RealmExportRunner in the background of every server process (PollingWorker): a pass right
 * after start-up (exports requested, or left half-written, while no server ran), then every
 * EXPORT_POLL_INTERVAL_MS; 0 turns it off (the command line runs none).
 */
@Injectable()
export class RealmExportWorker extends PollingWorker {
  constructor(runner: RealmExportRunner, scheduler: Scheduler, private readonly config: ServerConfig, logger: AppLogger) {
    super(runner, scheduler, logger, 'organization export pass failed');
  }

  protected get intervalMs(): number {
    return this.config.exportPollIntervalMs;
  }
}
