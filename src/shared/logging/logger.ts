import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';

/** The process's structured (JSON lines) logger. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'svc' } });
}

/** Nest's own log lines (bootstrap, route mapping) go through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

/** DI token for the pino logger (an abstract class, as the house style wants). */
export abstract class AppLogger {
  abstract info(obj: object | string, msg?: string): void;
  abstract warn(obj: object | string, msg?: string): void;
  abstract error(obj: object | string, msg?: string): void;
  abstract debug(obj: object | string, msg?: string): void;
}
