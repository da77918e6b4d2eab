import { type Cancel, Scheduler } from '../../src/shared/application/scheduler.js';

/**
 * A Scheduler whose timers fire only when the test says so: one-shot timers on `runPending()`,
 * repeating ones on `runRepeating()`. It records every one-shot delay asked for, and its
 * randomness comes from a list the test sets (cycled).
 */
export class ManualScheduler extends Scheduler {
  /** Every one-shot delay asked for, in order. */
  readonly delays: number[] = [];
  randomValues: number[] = [0.5];
  private draws = 0;
  private oneShots: { fn: () => void; live: boolean }[] = [];
  private repeating: { fn: () => void; live: boolean }[] = [];

  after(ms: number, fn: () => void): Cancel {
    this.delays.push(ms);
    const t = { fn, live: true };
    this.oneShots.push(t);
    return () => {
      t.live = false;
    };
  }

  every(_ms: number, fn: () => void): Cancel {
    const t = { fn, live: true };
    this.repeating.push(t);
    return () => {
      t.live = false;
    };
  }

  random(): number {
    return this.randomValues[this.draws++ % this.randomValues.length];
  }

  /** One-shot timers set and not yet run or cancelled. */
  get pending(): number {
    return this.oneShots.filter((t) => t.live).length;
  }

  /** Fires the one-shot timers pending now (not those they set); returns how many fired. */
  runPending(): number {
    const due = this.oneShots.filter((t) => t.live);
    this.oneShots = [];
    for (const t of due) {
      t.live = false;
      t.fn();
    }
    return due.length;
  }

  /** Fires every repeating timer once. */
  runRepeating(): void {
    for (const t of this.repeating.filter((r) => r.live)) t.fn();
  }
}

