import type { Clock } from './clock.js';
import type { PassLogger, PollingRunner } from './polling-worker.js';

/** Where leased jobs come from: the next due one (or the one asked for), claimed with a lease until `leaseUntil`. */
export interface LeasedJobSource<Job> {
  claimNext(o: { now: Date; leaseUntil: Date; id?: number }): Promise<Job | null>;
}

/**
 * The claim loop shared by the background jobs every server process may run (thumbnails,
 * organization exports): claim one job with a lease, work on it, claim the next, until none is
 * due or the worker stops; a job's failure is logged and does not stop the pass. `idle()` waits
 * for every job this process started, by a pass or right after a request (`startSoon`).
 */
export abstract class LeasedJobRunner<Job> implements PollingRunner {
  private readonly running = new Set<Promise<unknown>>();

  protected constructor(
    private readonly source: LeasedJobSource<Job>,
    protected readonly clock: Clock,
    private readonly leaseMs: number,
    private readonly log: PassLogger,
    /** The log message of a job that threw. */
    private readonly failure: string,
  ) {}

  /** Works on one claimed job (records its outcome; throws only on an unexpected failure). */
  protected abstract attempt(job: Job): Promise<void>;

  /** Works on every due job, one after the other; returns how many it claimed. */
  async runDue(shouldStop: () => boolean = () => false): Promise<number> {
    let claimed = 0;
    while (!shouldStop()) {
      const job = await this.claim();
      if (job === null) break;
      claimed += 1;
      await this.track(this.attempt(job));
    }
    return claimed;
  }

  /** Waits for the jobs this process is working on (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Works on this job now, if no other worker holds it; never rejects (a failure is logged). */
  protected runOne(id: number): Promise<void> {
    return this.track(this.claim(id).then((job) => (job === null ? undefined : this.attempt(job))));
  }

  private claim(id?: number): Promise<Job | null> {
    const now = this.clock.now();
    return this.source.claimNext({ now, leaseUntil: new Date(now.getTime() + this.leaseMs), id });
  }

  private track(p: Promise<void>): Promise<void> {
    const settled = p.catch((err: unknown) => this.log.error({ err }, this.failure));
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
    return settled;
  }
}
