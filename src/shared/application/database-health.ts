/** Readiness: does the database answer? */
export abstract class DatabaseHealth {
  abstract isReachable(): Promise<boolean>;
}
