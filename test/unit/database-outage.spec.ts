import { DatabaseError } from 'pg';
import { type DataSource, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { TypeOrmDatabaseHealth } from '../../src/shared/persistence/typeorm-database-health.js';

/** Which errors count as the database being away (503), and which stay failures of a statement (500 or a rule's error). */
const health = new TypeOrmDatabaseHealth({} as DataSource);
const pgError = (code: string, message: string) => Object.assign(new DatabaseError(message, 0, 'error'), { code });
const failedQuery = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

it.each([
  ['a terminated backend', failedQuery(pgError('57P01', 'terminating connection due to administrator command'))],
  ['a refused database', pgError('55000', 'database "x" is not currently accepting connections')],
  ['a connection exception', pgError('08006', 'connection failure')],
  ['too many connections', pgError('53300', 'sorry, too many clients already')],
  ['a refused socket', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ['a socket closed under a query', failedQuery(new Error('Connection terminated unexpectedly'))],
  ['a transaction whose connection was given up', new QueryRunnerAlreadyReleasedError()],
])('%s is an outage', (_what, error) => {
  expect(health.isOutage(error)).toBe(true);
});

it.each([
  ['a unique violation', failedQuery(pgError('23505', 'duplicate key value violates unique constraint'))],
  ['another 55000', pgError('55000', 'cannot execute this in the current state')],
  ['a syntax error', failedQuery(pgError('42601', 'syntax error at or near "x"'))],
  ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['not an error', 'Connection terminated'],
])('%s is not', (_what, error) => {
  expect(health.isOutage(error)).toBe(false);
});
