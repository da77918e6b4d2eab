import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, pino, type Logger } from 'pino';

/** Names whose values are secrets wherever they appear in logged request data. */
const SECRET_NAMES = ['authorization', 'Authorization', 'password', 'old_password', 'new_password', 'api_key', 'key'];
/** Those names at the top of a log object and up to three levels down (`req.headers.authorization`, `body.password`). */
const REDACT_PATHS = SECRET_NAMES.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]);
export const REDACTED = '[Redacted]';

/** A query-string name that carries a secret: the names above, and anything about passwords or keys. */
const isSecretName = (name: string) => /password|api_key|^key$|^authorization$|token|secret/i.test(name);

/** Paths whose last segment is a secret: a password-reset token, an email-change or invitation confirmation key. */
const SECRET_PATH = /^(\/accounts\/(?:password\/reset|confirm_new_email|do_confirm)\/|\/join\/)[^/?]+/;

/** A request URL as logged: secret path segments and the values of secret query parameters replaced. */
export function redactUrl(raw: string): string {
  const url = raw.replace(SECRET_PATH, `$1${REDACTED}`);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // a malformed escape: judge the raw name
      }
      return eq >= 0 && isSecretName(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** Fields of a database error worth logging: the statement (placeholders only), SQLSTATE and where it failed. */
const DB_ERROR_FIELDS = ['type', 'message', 'stack', 'code', 'severity', 'query', 'schema', 'table', 'column', 'constraint', 'routine'];

/** A database error (TypeORM's QueryFailedError or pg's DatabaseError), recognised by shape. */
const isDatabaseError = (e: Record<string, unknown>) =>
  'parameters' in e || 'driverError' in e || (typeof e.severity === 'string' && typeof e.routine === 'string');

/** Double-quoted parts of a database message quote input values ('invalid input syntax for type integer: "…"'). */
const withoutQuotedValues = (text: string) => text.replace(/"[^"\n]*"/g, '"…"');

/**
 * pino's error serializer, made safe for database errors: never the query's parameter values,
 * the driver error or its detail (which quotes values: "Key (api_key)=(…) already exists"),
 * only the statement, the error code and the names of what failed.
 */
function serializeError(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return err;
  const s = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!isDatabaseError(err as Record<string, unknown>)) {
    if (s.cause !== undefined) s.cause = serializeError((err as { cause?: unknown }).cause);
    return s;
  }
  const safe: Record<string, unknown> = {};
  for (const f of DB_ERROR_FIELDS) if (s[f] !== undefined) safe[f] = s[f];
  if (typeof safe.message === 'string') safe.message = withoutQuotedValues(safe.message);
  if (typeof safe.stack === 'string') {
    // The stack's first line repeats the message: keep only the frames.
    const frames = safe.stack.split('\n').filter((l) => /^\s+at /.test(l));
    safe.stack = [`${String(safe.type)}: ${String(safe.message)}`, ...frames].join('\n');
  }
  return safe;
}

/**
 * The process's structured (JSON lines) logger. Errors are logged without SQL parameter values;
 * `Authorization`, `password`, `api_key` and `key` are redacted wherever request data is logged.
 */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'svc' },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
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
