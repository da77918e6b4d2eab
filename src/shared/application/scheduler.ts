/** Cancels what `Scheduler.after` or `Scheduler.every` set up. */
export type Cancel = () => void;

/**
 * Deferred and repeated background work, and the randomness that spreads it (jitter), injected
 * so tests decide when timers fire instead of sleeping. Timers never keep the process alive.
 */
export abstract class Scheduler {
  /** Runs `fn` once, `ms` milliseconds from now. */
  abstract after(ms: number, fn: () => void): Cancel;
  /** Runs `fn` every `ms` milliseconds. */
  abstract every(ms: number, fn: () => void): Cancel;
  /** A number in [0, 1). */
  abstract random(): number;
}

export class SystemScheduler extends Scheduler {
  after(ms: number, fn: () => void): Cancel {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  }

  every(ms: number, fn: () => void): Cancel {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  }

  random(): number {
    return Math.random();
  }
}
