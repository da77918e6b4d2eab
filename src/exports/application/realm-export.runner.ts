import { randomBytes } from 'node:crypto';
import { EXPORT_MAX_ATTEMPTS } from '@app/domain/exports';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { LeasedJobRunner } from '../../shared/application/leased-job-runner.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { realmExportEvent } from './realm-export.views.js';
import { type ClaimedExport, ExportFiles, OrganizationArchiver, RealmExportQueries } from './realm-exports.ports.js';

/** How long a claim lasts without renewal; the worker renews it every third of that while it writes. */
export const EXPORT_LEASE_MS = 5 * 60 * 1000;

/**
 * Writes requested exports (Zulip's deferred_work queue worker for `realm_export`). An export is
 * claimed with a lease (`FOR UPDATE SKIP LOCKED`, then a committed `started` status, lease time
 * and token), so of all server processes exactly one writes it while the lease lasts; the lease
 * is renewed while the archive is written. A process that dies mid-way leaves the export
 * `started` with a lease that runs out: the next pass of any process claims it again and starts
 * over (the archive is written under a name of its own and renamed into place only when whole).
 * After EXPORT_MAX_ATTEMPTS claims, or when writing throws, the export is failed. Only the
 * holder of the current token records the outcome; a worker that lost its lease drops its file.
 */
@Injectable()
export class RealmExportRunner extends LeasedJobRunner<ClaimedExport> {
  constructor(
    private readonly queries: RealmExportQueries,
    private readonly uow: UnitOfWork,
    private readonly archiver: OrganizationArchiver,
    private readonly files: ExportFiles,
    clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {
    super(queries, clock, EXPORT_LEASE_MS, logger, 'organization export failed');
  }

  /** Right after a request committed: writes that export in the background of this process. */
  startSoon(id: number): void {
    if (this.config.exportPollIntervalMs <= 0) return;
    void this.runOne(id);
  }

  protected async attempt(job: ClaimedExport): Promise<void> {
    if (job.attempts > EXPORT_MAX_ATTEMPTS) {
      this.logger.error({ exportId: job.id, attempts: job.attempts }, 'organization export given up: its writers kept stopping');
      await this.finish(job, { status: 'failed', error: 'interrupted too many times' });
      return;
    }
    const name = `${job.realmStringId === '' ? 'organization' : job.realmStringId}-export-${job.id}.tar.gz`;
    const path = `exports/${job.realmId}/${randomBytes(16).toString('hex')}/${name}`;
    let lost = false;
    const renew = setInterval(() => {
      void this.queries
        .renewLease(job.id, job.leaseToken, new Date(this.clock.now().getTime() + EXPORT_LEASE_MS))
        .then((held) => (lost ||= !held))
        .catch(() => undefined);
    }, EXPORT_LEASE_MS / 3);
    renew.unref();
    try {
      const { size } = await this.archiver.write({ realmId: job.realmId, type: job.type, target: this.files.absolute(path), now: this.clock.now() });
      if (lost || !(await this.finish(job, { status: 'succeeded', path, size }))) await this.files.remove(path);
    } catch (err) {
      this.logger.error({ err, exportId: job.id }, 'organization export failed');
      await this.files.remove(path).catch(() => undefined);
      await this.finish(job, { status: 'failed', error: err instanceof Error ? err.message : String(err) });
    } finally {
      clearInterval(renew);
    }
  }

  private finish(job: ClaimedExport, o: { status: 'succeeded' | 'failed'; path?: string; size?: number; error?: string }): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const held = await tx.realmExports.finish(job.id, job.leaseToken, { ...o, now: this.clock.now() });
      if (held) tx.afterCommit([await realmExportEvent(tx, this.config, job.realmId)]);
      return held;
    });
  }
}
