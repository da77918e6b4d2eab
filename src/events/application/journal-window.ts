import type { JournalRow } from './queue-record.js';

/** One listener pass: the rows of the transactions in [from, to), in (xid, id) order. */
interface Segment {
  readonly from: number;
  readonly to: number;
  readonly rows: readonly JournalRow[];
  readonly at: number;
}

/** How many journal rows (and for how long) a process keeps for the polls it answers. */
export interface WindowLimits {
  readonly maxRows: number;
  readonly maxAgeMs: number;
}

/** The journal rows a process keeps in memory for the polls it answers (older ones are read from the database). */
export const WINDOW_LIMITS: WindowLimits = { maxRows: 5_000, maxAgeMs: 2 * 60_000 };

/**
 * The journal rows this process's listener read lately, kept so that a poll takes its queue's new
 * events from memory: the rows of every transaction in [start, end), where `end` is the listener's
 * boundary (every transaction below it has ended). A queue whose boundary is below `start` (it was
 * last read by another process, or before this one started) reads its rows from the database.
 * Whole passes are dropped from the old end beyond the limits.
 */
export class JournalWindow {
  private segments: Segment[] = [];
  private startAt: number | null = null;
  private endAt: number | null = null;
  private rowCount = 0;
  private starts = 0;

  constructor(private readonly limits: WindowLimits) {}

  /** The listener's boundary; null until its first pass. */
  get end(): number | null {
    return this.endAt;
  }

  get start(): number | null {
    return this.startAt;
  }

  /** How many times the window began anew (its first pass, or after a gap): what it holds does not join what came before. */
  get generation(): number {
    return this.starts;
  }

  /** Records a pass: the rows of the transactions in [from, to) (from = the previous `end`, or where reading began). */
  append(from: number, to: number, rows: readonly JournalRow[], nowMs: number): void {
    if (this.endAt === null || from !== this.endAt) {
      // The first pass, or a gap: what was kept no longer joins up with what comes.
      this.segments = [];
      this.rowCount = 0;
      this.startAt = from;
      this.starts += 1;
    }
    this.endAt = to;
    if (rows.length > 0) {
      this.segments.push({ from, to, rows, at: nowMs });
      this.rowCount += rows.length;
    }
    while (this.segments.length > 0 && (this.rowCount > this.limits.maxRows || nowMs - this.segments[0].at > this.limits.maxAgeMs)) {
      const dropped = this.segments.shift()!;
      this.rowCount -= dropped.rows.length;
      this.startAt = dropped.to;
    }
  }

  /**
   * The rows of transactions from `from` up to `end` (and that `end`), or null when the window no
   * longer (or not yet) holds all of them.
   */
  rowsFrom(from: number): { rows: JournalRow[]; end: number } | null {
    if (this.startAt === null || this.endAt === null || from < this.startAt) return null;
    const rows: JournalRow[] = [];
    // The first segment that may hold a row at or past `from` (segments are in order, each ending where the next begins).
    let lo = 0;
    let hi = this.segments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.segments[mid].to <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.segments.length; i++) for (const r of this.segments[i].rows) if (r.xid >= from) rows.push(r);
    return { rows, end: this.endAt };
  }
}
