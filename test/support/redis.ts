import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { Redis } from 'ioredis';
import { AppLogger } from '../../src/shared/logging/logger.js';
import { TEST_DB_PREFIX } from './databases.js';

/** The machine's Redis (`.ci/run` starts it); TEST_REDIS_URL points the tests at another one. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** A key prefix of its own for every test run and file, so parallel workers and checkouts never share a key. */
export function uniqueRedisPrefix(): string {
  return `${TEST_DB_PREFIX}:${process.pid}:${randomUUID().slice(0, 8)}:`;
}

/** Fails (never skips) when the test Redis does not answer. */
export async function requireRedis(): Promise<void> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new Error(
      `These tests need Redis at ${TEST_REDIS_URL} (TEST_REDIS_URL): ${(err as Error).message}. ` +
        'Start it: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
      { cause: err },
    );
  } finally {
    client.disconnect();
  }
}

/** Deletes every key under `prefix` (keys also expire on their own). */
export async function dropRedisKeys(prefix: string): Promise<void> {
  const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await client.quit();
  }
}

/** The keys under `prefix`. */
export async function redisKeys(prefix: string): Promise<string[]> {
  const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
  try {
    return await client.keys(`${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`);
  } finally {
    await client.quit();
  }
}

/** A logger that keeps what it is told, for assertions on warnings. */
export class RecordingLogger extends AppLogger {
  readonly lines: { level: string; msg: string }[] = [];
  info(obj: object | string, msg?: string): void {
    this.lines.push({ level: 'info', msg: typeof obj === 'string' ? obj : (msg ?? '') });
  }
  warn(obj: object | string, msg?: string): void {
    this.lines.push({ level: 'warn', msg: typeof obj === 'string' ? obj : (msg ?? '') });
  }
  error(obj: object | string, msg?: string): void {
    this.lines.push({ level: 'error', msg: typeof obj === 'string' ? obj : (msg ?? '') });
  }
  debug(): void {}
  count(level: string): number {
    return this.lines.filter((l) => l.level === level).length;
  }
}

/**
 * A TCP relay on `port` to the test Redis: closing it is Redis going away for whoever connects
 * through it (its connections are cut), opening it again is Redis coming back.
 */
export class RedisRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}/${new URL(TEST_REDIS_URL).pathname.slice(1) || '0'}`;
  }

  async open(): Promise<void> {
    const target = new URL(TEST_REDIS_URL);
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => s.destroy());
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
