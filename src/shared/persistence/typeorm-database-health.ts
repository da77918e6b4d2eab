import { Injectable } from '@nestjs/common';
import { DataSource, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { DatabaseHealth } from '../application/database-health.js';

/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), the server shutting
 * down or terminating the backend (57P01–57P03), too many connections (53300).
 */
const OUTAGE_STATES = /^(08...|57P0[123]|53300)$/;
/** Socket-level failures, as Node reports them. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres's own errors for a connection that broke or could not be made. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

@Injectable()
export class TypeOrmDatabaseHealth extends DatabaseHealth {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async isReachable(): Promise<boolean> {
    try {
      await this.ds.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  isOutage(error: unknown): boolean {
    for (let e = error, depth = 0; e instanceof Error && depth < 4; depth++) {
      // TypeORM gives up a transaction's query runner when its connection reports an error;
      // the transaction's next statement then finds it released.
      if (e instanceof QueryRunnerAlreadyReleasedError || e instanceof QueryRunnerProviderAlreadyReleasedError) return true;
      const { code, message } = e as Error & { code?: unknown };
      if (typeof code === 'string' && (OUTAGE_STATES.test(code) || SOCKET_CODES.has(code))) return true;
      // 55000 is also other "object not in prerequisite state" errors: only this one is an outage.
      if (code === '55000' && message.includes('is not currently accepting connections')) return true;
      if (DRIVER_MESSAGES.some((m) => message.startsWith(m))) return true;
      e = (e as { driverError?: unknown }).driverError ?? e.cause;
    }
    return false;
  }
}
