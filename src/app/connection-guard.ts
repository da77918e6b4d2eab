import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import type { AppLogger } from '../shared/logging/logger.js';

/** The unit of work whose transaction the current async context runs in (until its work has ended). */
interface OpenTransaction {
  readonly ds: DataSource;
  open: boolean;
}

const transaction = new AsyncLocalStorage<OpenTransaction>();

/**
 * Runs a unit of work's `work` marked as inside its transaction: from here until `work` has
 * ended (before COMMIT or ROLLBACK), asking `ds`'s pool for another connection is a
 * violation (see `guardPool`). Work that `work` started and that outlives it is not marked.
 */
export async function insideTransaction<T>(ds: DataSource, work: () => Promise<T>): Promise<T> {
  const tx: OpenTransaction = { ds, open: true };
  return transaction.run(tx, async () => {
    try {
      return await work();
    } finally {
      tx.open = false;
    }
  });
}

export class SecondConnectionInTransactionError extends Error {
  constructor(readonly callSite: string) {
    super(
      `a second pooled connection was asked for inside a unit of work's transaction, which already holds one ` +
        `(DB_POOL_SIZE such requests at once wait on each other forever): read through the transaction (tx.<repository>) ` +
        `or before/after it; called from ${callSite}`,
    );
    this.name = 'SecondConnectionInTransactionError';
  }
}

/** Violations seen by pools guarded with `throw` (the test support fails a test that leaves one behind). */
export const connectionViolations: SecondConnectionInTransactionError[] = [];

/**
 * Watches `ds`'s pool: a connection asked for while the current async context is inside a
 * unit of work's transaction on `ds` (a `DataSource.query`, a query class on `ds.manager`,
 * `ds.createQueryRunner()`, a nested unit of work) is reported. `throw`: the statement fails
 * with a `SecondConnectionInTransactionError` (tests); `warn`: it goes ahead and is logged once
 * per call site (production). The event listener's own pg.Client, work outside any unit of
 * work and work after COMMIT are not affected.
 */
export function guardPool(ds: DataSource, mode: 'throw' | 'warn', logger?: AppLogger): void {
  const driver = ds.driver as unknown as { obtainMasterConnection: () => Promise<unknown> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  const warned = new Set<string>();
  driver.obtainMasterConnection = () => {
    const tx = transaction.getStore();
    if (tx?.open === true && tx.ds === ds) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40; // the caller can be deep below TypeORM's frames
      const probe = new Error();
      const site = callSite(probe.stack ?? '');
      const err = mode === 'throw' ? new SecondConnectionInTransactionError(site) : undefined;
      Error.stackTraceLimit = limit;
      if (err !== undefined) {
        connectionViolations.push(err);
        return Promise.reject(err);
      }
      if (!warned.has(site)) {
        warned.add(site);
        logger?.warn({ callSite: site, stack: probe.stack }, 'second pooled connection asked for inside a transaction');
      }
    }
    return obtain();
  };
}

/** The first frame of the project's own code (not TypeORM's, pg's, this file's or the unit of work's). */
function callSite(stack: string): string {
  const frames = stack.split('\n').slice(1);
  const own = frames.find((f) => !/node_modules|node:|connection-guard|typeorm-unit-of-work/.test(f));
  return (own ?? frames[0] ?? '(unknown)').trim().replace(/^at /, '');
}
