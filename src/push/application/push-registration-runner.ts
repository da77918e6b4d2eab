import { registrationAccepted, registrationFailed, registrationFailureAction } from '@app/domain/push';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { PushQueries, PushRelay, type RegistrationJob } from './push.ports.js';

const BATCH = 50;

/**
 * Sends queued E2EE registrations to the relay (Zulip does this in its push-notifications queue
 * worker). A registration is tried once right after the request that queued it committed, so in
 * the usual case the device is active when the client gets its answer; one the relay could not
 * take yet (network, 5xx, a configuration problem of this server) waits in the database and is
 * retried with growing delays by `runDue` (PushRegistrationPoller) until the relay answers or a
 * day has passed. Each job is claimed with a lease first (`FOR UPDATE SKIP LOCKED`, then a
 * committed lease time and token), so runners of any number of processes never send it twice
 * while a lease lasts, and the relay is never called inside a database transaction. A lease
 * lasts twice the relay timeout plus a minute; only a runner stalled beyond that (its job then
 * claimed again) can make the relay see one registration twice, which the relay takes as the
 * same registration, and its late result is dropped (the lease token no longer matches).
 */
@Injectable()
export class PushRegistrationRunner {
  constructor(
    private readonly queries: PushQueries,
    private readonly uow: UnitOfWork,
    private readonly relay: PushRelay,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {}

  /** Attempts one job now (if nobody else holds it). */
  async runNow(jobId: string): Promise<void> {
    for (const job of await this.claim(1, jobId)) await this.attempt(job);
  }

  /** Attempts every due job, oldest first; returns how many were attempted. */
  async runDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const jobs = await this.claim(BATCH);
      for (const job of jobs) await this.attempt(job);
      attempted += jobs.length;
      if (jobs.length < BATCH) return attempted;
    }
  }

  private claim(limit: number, jobId?: string): Promise<RegistrationJob[]> {
    const now = this.clock.now();
    // Long enough for the relay call and the bookkeeping after it; a crashed runner's jobs come back then.
    const leaseUntil = new Date(now.getTime() + 2 * this.config.pushBouncerTimeoutMs + 60_000);
    return this.queries.claimDueJobs({ now, leaseUntil, limit, jobId });
  }

  private async attempt(job: RegistrationJob): Promise<void> {
    const realm = await this.queries.realmIdentity(job.realmId);
    const result = await this.relay.registerDevice(realm.uuid, job.registration);
    const now = this.clock.now();
    await this.uow.run(async (tx) => {
      // Device before job: the order the register request locks them in.
      const device = await tx.pushDevices.lockDeviceById(job.realmId, job.deviceId);
      const current = await tx.pushDevices.lockJob(job.realmId, job.id);
      if (current === null) return; // replaced by a newer registration meanwhile
      if (current.leaseToken !== job.leaseToken) {
        // Our lease ran out and another runner claimed the job: its outcome is the one recorded.
        this.logger.warn({ deviceId: job.deviceId }, 'push device registration was taken over by another runner; this result is dropped');
        return;
      }
      if (device === null) return tx.pushDevices.deleteJob(job.realmId, job.id);
      if (result.ok) {
        const { state, event } = registrationAccepted(device, job.registration);
        await tx.pushDevices.saveDevicePush(job.realmId, state);
        await tx.pushDevices.deleteJob(job.realmId, job.id);
        tx.afterCommit([{ realmId: job.realmId, event, userIds: [device.userId] }]);
        return;
      }
      const attempts = current.attempts + 1;
      const action = registrationFailureAction(result.failure, attempts, (now.getTime() - current.queuedAt.getTime()) / 1000);
      if ('retryInSeconds' in action) {
        this.logger.warn({ deviceId: job.deviceId, attempts, retryInSeconds: action.retryInSeconds }, 'push device registration will be retried');
        await tx.pushDevices.rescheduleJob(job.realmId, job.id, attempts, new Date(now.getTime() + action.retryInSeconds * 1000));
        return;
      }
      if (action.errorCode === 'REQUEST_EXPIRED') this.logger.error({ deviceId: job.deviceId }, 'push device registration request expired');
      const { state, event } = registrationFailed(device, action.errorCode);
      await tx.pushDevices.saveDevicePush(job.realmId, state);
      await tx.pushDevices.deleteJob(job.realmId, job.id);
      tx.afterCommit([{ realmId: job.realmId, event, userIds: [device.userId] }]);
    });
  }
}
