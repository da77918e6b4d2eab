import { PasswordHasher } from './password-hasher.js';
import { rateLimited } from './rate-limiter.js';

export interface HashingCapacity {
  /** Hashes computed at once. */
  readonly concurrency: number;
  /** Hashes that may wait for a free slot; one more is refused. */
  readonly queue: number;
}

/**
 * A server-wide cap on memory-hard hashing: at most `concurrency` hashes run at once, at most
 * `queue` wait (first come, first served), and a request beyond that is refused with Zulip's
 * 429 rate-limit error instead of pinning every core. `retry-after` estimates when the queue
 * will have drained, from the running average duration of one hash.
 */
export class BoundedPasswordHasher extends PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private averageMs = 100;

  constructor(
    private readonly inner: PasswordHasher,
    private readonly capacity: HashingCapacity,
  ) {
    super();
  }

  hash(password: string): Promise<string> {
    return this.bounded(() => this.inner.hash(password));
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.bounded(() => this.inner.verify(hash, password));
  }

  burn(password: string): Promise<void> {
    return this.bounded(() => this.inner.burn(password));
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.capacity.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.capacity.queue) {
      const rounds = Math.ceil((this.waiting.length + 1) / this.capacity.concurrency);
      throw rateLimited(Math.max(0.001, (rounds * this.averageMs) / 1000));
    }
    // The slot passes straight to the next waiter: `running` stays counted for it.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.running -= 1;
  }
}
