import { randomUUID } from 'node:crypto';
import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import {
  InProcessRateLimiter,
  longestWindowMs,
  type RateDecision,
  RateLimiter,
  type RateRule,
  type RateStoreState,
} from '../application/rate-limiter.js';
import type { AppLogger } from '../logging/logger.js';

/** A command that takes longer than this (Redis hung, network lost) counts as Redis being down. */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
/** A key outlives its longest window by this much, so a node whose clock is a little behind still finds it. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * `slidingWindowDecision` and the in-process count in one atomic step on Redis. A key is a
 * sorted set of the counted requests (score: time in ms, member: unique per request).
 * KEYS[1]: the key. ARGV: now (ms), the new member, expiry (ms), then window (ms) and max of
 * each rule. Returns {allowed 1|0, limit, remaining, reset (ms), retry after (ms)}.
 */
const SLIDING_WINDOW_HIT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local longest = 0
for i = 4, #ARGV, 2 do
  local w = tonumber(ARGV[i])
  if w > longest then longest = w end
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - longest))
local retry, limit, remaining, reset = 0, -1, -1, now
for i = 4, #ARGV, 2 do
  local w = tonumber(ARGV[i])
  local max = tonumber(ARGV[i + 1])
  local since = string.format('(%d', now - w)
  local count = redis.call('ZCOUNT', key, since, '+inf')
  if count >= max then
    local nth = redis.call('ZRANGEBYSCORE', key, since, '+inf', 'WITHSCORES', 'LIMIT', count - max, 1)
    local wait = tonumber(nth[2]) + w - now
    if wait > retry then retry = wait end
  end
  if limit < 0 or max < limit then limit = max end
  local left = max - count - 1
  if left < 0 then left = 0 end
  if remaining < 0 or left < remaining then remaining = left end
  if count > 0 then
    local first = redis.call('ZRANGEBYSCORE', key, since, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    local r = tonumber(first[2]) + w
    if r > reset then reset = r end
  end
end
local allowed = 0
if retry == 0 then
  allowed = 1
  redis.call('ZADD', key, ARGV[1], ARGV[2])
else
  remaining = 0
end
if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ARGV[3]) end
return {allowed, limit, remaining, reset, retry}
`;

type ScriptedRedis = Redis & {
  svcSlidingWindowHit(key: string, ...args: (string | number)[]): Promise<[number, number, number, number, number]>;
};

/**
 * A client for REDIS_URL as the limiter needs it: commands fail at once while Redis is away
 * (no offline queue, no retries) so requests are answered from the in-process counts instead,
 * and it reconnects by itself.
 */
export function redisClient(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
}

/**
 * The counts in Redis, shared by every server process using the same REDIS_URL and prefix,
 * with the semantics of the in-process limiter (same sliding window, refused requests not
 * counted, same figures). While Redis cannot be reached, this process's own counts answer
 * (an insurance limiter: requests never fail because Redis is away) and a warning is logged;
 * when it is back, Redis's counts answer again.
 */
export class RedisRateLimiter extends RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly client: ScriptedRedis;
  private readonly insurance = new InProcessRateLimiter();
  private readonly node = randomUUID();
  private sequence = 0;
  /** Since when requests are answered from the insurance counts (null: from Redis). */
  private degradedSince: Date | null = null;
  private closing = false;

  constructor(
    client: Redis,
    private readonly prefix: string,
    private readonly log: AppLogger,
  ) {
    super();
    client.defineCommand('svcSlidingWindowHit', { numberOfKeys: 1, lua: SLIDING_WINDOW_HIT });
    this.client = client as ScriptedRedis;
    // Without an 'error' listener ioredis prints every failed reconnection attempt.
    client.on('error', (err: Error) => this.degrade(err));
    client.on('close', () => this.degrade(null));
    client.on('ready', () => this.recover());
  }

  /** Connects before the server takes requests; an unreachable Redis does not stop the start. */
  async onModuleInit(): Promise<void> {
    if (this.client.status !== 'wait') return;
    await this.client.connect().catch((err: Error) => this.degrade(err));
  }

  /** Closes the connection and resolves once it is closed, or stops reconnecting while Redis is away. */
  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    const status = this.client.status;
    if (status === 'end') return;
    // Between reconnection attempts there is no socket: cancelling the next attempt is all.
    if (status === 'wait' || status === 'reconnecting' || status === 'close') return this.client.disconnect();
    const ended = new Promise((resolve) => this.client.once('end', resolve));
    if (status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
    await ended;
  }

  async hit(key: string, rules: readonly RateRule[], nowMs: number): Promise<RateDecision> {
    if (this.client.status === 'ready') {
      const now = Math.floor(nowMs);
      const args = [now, `${now}-${this.node}-${(this.sequence += 1)}`, longestWindowMs(rules) + EXPIRY_MARGIN_MS];
      for (const r of rules) args.push(r.windowSeconds * 1000, r.max);
      try {
        const [allowed, limit, remaining, resetMs, retryMs] = await this.client.svcSlidingWindowHit(this.prefix + key, ...args);
        if (this.degradedSince !== null) this.recover();
        return { allowed: allowed === 1, limit, remaining, resetAt: Math.ceil(resetMs / 1000), retryAfter: retryMs / 1000 };
      } catch (err) {
        this.degrade(err);
      }
    } else {
      this.degrade(null);
    }
    return this.insurance.hit(key, rules, nowMs);
  }

  async clear(key: string): Promise<void> {
    await this.insurance.clear(key);
    if (this.client.status !== 'ready') return this.degrade(null);
    try {
      await this.client.del(this.prefix + key);
    } catch (err) {
      this.degrade(err);
    }
  }

  storeState(): RateStoreState {
    return this.client.status === 'ready' && this.degradedSince === null ? 'up' : 'down';
  }

  private degrade(err: unknown): void {
    if (this.closing || this.degradedSince !== null) return;
    this.degradedSince = new Date();
    this.log.warn(
      { err, prefix: this.prefix },
      'Redis is unreachable: rate limits are counted in this server process alone until it is back',
    );
  }

  private recover(): void {
    if (this.degradedSince === null) return;
    this.log.info({ since: this.degradedSince.toISOString() }, 'Redis is reachable again: rate limits are shared again');
    this.degradedSince = null;
    // Redis's counts are authoritative again; the ones kept meanwhile would only hold memory.
    this.insurance.clearAll();
  }
}
