import type { Logger } from 'typeorm';

/**
 * Counts the SQL statements the server sends (enabled by COUNT_SQL_STATEMENTS, used by tests
 * that check a request's statement count does not grow with the data).
 */
export class StatementCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count += 1;
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
