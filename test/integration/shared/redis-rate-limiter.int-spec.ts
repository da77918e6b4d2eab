import { Redis } from 'ioredis';
import type { RateLimiter } from '../../../src/shared/application/rate-limiter.js';
import { redisClient, RedisRateLimiter } from '../../../src/shared/persistence/redis-rate-limiter.js';
import { rateLimiterContract } from '../../support/rate-limiter-contract.js';
import { dropRedisKeys, RecordingLogger, RedisRelay, redisKeys, requireRedis, TEST_REDIS_URL, uniqueRedisPrefix } from '../../support/redis.js';
import { freePort } from '../../support/server-process.js';

/** The Redis adapter against the machine's Redis: the in-process limiter's semantics, shared by every node, and its insurance when Redis is away. */
const prefix = uniqueRedisPrefix();
const open: RedisRateLimiter[] = [];
let testNumber = 0;

async function limiterAt(url: string, keyPrefix: string, log = new RecordingLogger()): Promise<RedisRateLimiter> {
  const l = new RedisRateLimiter(redisClient(url), keyPrefix, log);
  open.push(l);
  await l.onModuleInit();
  return l;
}

beforeAll(requireRedis);
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.onApplicationShutdown()));
});
afterAll(() => dropRedisKeys(prefix));

describe('in Redis', () => {
  let current: RedisRateLimiter;
  beforeEach(async () => {
    testNumber += 1;
    current = await limiterAt(TEST_REDIS_URL, `${prefix}t${testNumber}:`);
  });
  rateLimiterContract((): RateLimiter => current);

  it('reports Redis as up', () => {
    expect(current.storeState()).toBe('up');
  });
});

describe('several nodes on one Redis', () => {
  it('share one count per key', async () => {
    const p = `${prefix}shared:`;
    const [a, b] = [await limiterAt(TEST_REDIS_URL, p), await limiterAt(TEST_REDIS_URL, p)];
    const rules = [{ windowSeconds: 60, max: 3 }];
    await a.hit('user:1', rules, 1000);
    await b.hit('user:1', rules, 2000);
    expect(await a.hit('user:1', rules, 3000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await b.hit('user:1', rules, 4000)).toMatchObject({ allowed: false, retryAfter: 57 });
    await b.clear('user:1');
    expect(await a.hit('user:1', rules, 5000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('never allow more than max, however many requests race', async () => {
    const p = `${prefix}race:`;
    const nodes = await Promise.all([1, 2, 3].map(() => limiterAt(TEST_REDIS_URL, p)));
    const rules = [{ windowSeconds: 60, max: 10 }];
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => nodes[i % 3].hit('ip:203.0.113.9', rules, 1_000_000)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    const raw = new Redis(TEST_REDIS_URL);
    try {
      expect(await raw.zcard(`${p}ip:203.0.113.9`)).toBe(10); // refused requests were not counted
    } finally {
      await raw.quit();
    }
  });

  it('keep deployments with different prefixes apart', async () => {
    const rules = [{ windowSeconds: 60, max: 1 }];
    const [a, b] = [await limiterAt(TEST_REDIS_URL, `${prefix}one:`), await limiterAt(TEST_REDIS_URL, `${prefix}two:`)];
    await a.hit('user:1', rules, 0);
    expect((await a.hit('user:1', rules, 1)).allowed).toBe(false);
    expect((await b.hit('user:1', rules, 1)).allowed).toBe(true);
  });

  it('let a key expire once its longest window (and a margin) has passed', async () => {
    const p = `${prefix}ttl:`;
    const l = await limiterAt(TEST_REDIS_URL, p);
    await l.hit('k', [{ windowSeconds: 60, max: 5 }, { windowSeconds: 3600, max: 50 }], Date.now());
    expect(await redisKeys(p)).toEqual([`${p}k`]);
    const raw = new Redis(TEST_REDIS_URL);
    try {
      const ttl = await raw.pttl(`${p}k`);
      expect(ttl).toBeGreaterThan(3_600_000);
      expect(ttl).toBeLessThanOrEqual(3_660_000);
    } finally {
      await raw.quit();
    }
  });
});

describe('when Redis is away', () => {
  const rules = [{ windowSeconds: 60, max: 2 }];

  it('answers from this process’s counts, with the same semantics, and warns once', async () => {
    const log = new RecordingLogger();
    const l = await limiterAt(`redis://127.0.0.1:${await freePort()}/0`, `${prefix}down:`, log);
    expect(l.storeState()).toBe('down');
    expect(await l.hit('k', rules, 0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await l.hit('k', rules, 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await l.hit('k', rules, 2000)).toMatchObject({ allowed: false, retryAfter: 58 });
    await l.clear('k');
    expect((await l.hit('k', rules, 3000)).allowed).toBe(true);
    expect(log.lines).toEqual([{ level: 'warn', msg: 'Redis is unreachable: rate limits are counted in this server process alone until it is back' }]);
  });

  it('falls back when Redis goes away and shares the counts again when it is back', async () => {
    const relay = new RedisRelay(await freePort());
    await relay.open();
    const log = new RecordingLogger();
    const client = redisClient(relay.url);
    const l = new RedisRateLimiter(client, `${prefix}flap:`, log);
    open.push(l);
    await l.onModuleInit();
    try {
      const other = await limiterAt(TEST_REDIS_URL, `${prefix}flap:`); // a node that keeps its Redis
      expect(await l.hit('k', rules, 0)).toMatchObject({ allowed: true, remaining: 1 });
      expect(l.storeState()).toBe('up');

      const closed = new Promise((resolve) => client.once('close', resolve));
      await relay.close();
      await closed;
      expect(l.storeState()).toBe('down');
      // Counted here alone: the request counted in Redis is not seen, and none of these reach it.
      expect(await l.hit('k', rules, 1000)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await l.hit('k', rules, 2000)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await l.hit('k', rules, 3000)).allowed).toBe(false);
      expect(await other.hit('k', rules, 3000)).toMatchObject({ allowed: true, remaining: 0 });
      expect(log.count('warn')).toBe(1);

      const ready = new Promise((resolve) => client.once('ready', resolve));
      await relay.open();
      await ready;
      expect(l.storeState()).toBe('up');
      expect(log.lines.at(-1)).toEqual({ level: 'info', msg: 'Redis is reachable again: rate limits are shared again' });
      // Redis's count again: the two requests of both nodes before and during the outage.
      expect(await l.hit('k', rules, 4000)).toMatchObject({ allowed: false, retryAfter: 56 });
      expect(await other.hit('k', rules, 60_001)).toMatchObject({ allowed: true, remaining: 0 });
    } finally {
      await l.onApplicationShutdown();
      await relay.close();
    }
  });

  it('closes its connection at shutdown', async () => {
    const client = redisClient(TEST_REDIS_URL);
    const l = new RedisRateLimiter(client, `${prefix}close:`, new RecordingLogger());
    await l.onModuleInit();
    expect(client.status).toBe('ready');
    await l.onApplicationShutdown();
    expect(client.status).toBe('end');
  });

  it('stops reconnecting at shutdown while Redis is away', async () => {
    const client = redisClient(`redis://127.0.0.1:${await freePort()}/0`);
    const l = new RedisRateLimiter(client, `${prefix}close:`, new RecordingLogger());
    await l.onModuleInit();
    expect(client.status).not.toBe('ready');
    await l.onApplicationShutdown();
    // No next attempt is scheduled (ioredis keeps its timer there), so nothing keeps the process alive.
    expect((client as unknown as { reconnectTimeout: unknown }).reconnectTimeout).toBeNull();
  });
});
