/** Readiness: does the database answer? */
export abstract class DatabaseHealth {
  abstract isReachable(): Promise<boolean>;
  /**
   * Whether an error means the database could not be reached or dropped the connection (the
   * request may succeed when retried), as opposed to a failing statement or a bug.
   */
  abstract isOutage(error: unknown): boolean;
}
