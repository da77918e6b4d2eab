/**
 * A PostgreSQL snapshot (`pg_current_snapshot()`: xmin, xmax and the transactions in progress)
 * taken when a queue is opened: the client's initial state, read after it, holds the events of
 * exactly the transactions it sees as committed, so the queue drops those. Transaction ids are
 * xid8 values (epoch-extended, 64-bit), kept as numbers: exact below 2^53, more transactions
 * than a server runs in centuries.
 */
export class JournalSnapshot {
  private constructor(
    readonly xmin: number,
    readonly xmax: number,
    private readonly inProgress: ReadonlySet<number>,
  ) {}

  /** Parses the text form of `pg_snapshot`: `xmin:xmax:xip,xip,…`. */
  static parse(text: string): JournalSnapshot {
    const [xmin, xmax, xip = ''] = text.split(':');
    return new JournalSnapshot(Number(xmin), Number(xmax), new Set(xip === '' ? [] : xip.split(',').map(Number)));
  }

  /** Whether transaction `xid` had committed (or aborted) when the snapshot was taken. */
  includes(xid: number): boolean {
    return xid < this.xmin || (xid < this.xmax && !this.inProgress.has(xid));
  }
}
