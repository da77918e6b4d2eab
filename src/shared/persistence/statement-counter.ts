import type { Logger } from 'typeorm';

/**
 * Prefix of the statements background work sends on its own schedule (the event listener's
 * journal reads): they belong to no request, so the counter leaves them out.
 */
export const BACKGROUND_SQL = '/* background */ ';

/**
 * Counts the SQL statements the server sends (enabled by COUNT_SQL_STATEMENTS, used by tests
 * that check a request's statement count does not grow with the data).
 */
export class StatementCounter implements Logger {
  count = 0;
  /** When set (by a test), the text of every counted statement is appended. */
  statements: string[] | null = null;
  logQuery(query: string): void {
    if (query.startsWith(BACKGROUND_SQL)) return;
    this.count += 1;
    this.statements?.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
