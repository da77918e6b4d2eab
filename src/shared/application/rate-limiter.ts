import { DomainError } from '@app/domain/shared';

/** A rule: at most `max` requests per `windowSeconds`. */
export interface RateRule {
  readonly windowSeconds: number;
  readonly max: number;
}

export const API_BY_USER: readonly RateRule[] = [
  { windowSeconds: 60, max: 200 },
  { windowSeconds: 3600, max: 2000 },
];
/** Unauthenticated API requests (login included), per client address. */
export const API_BY_IP: readonly RateRule[] = [{ windowSeconds: 60, max: 100 }];
export const AUTHENTICATE_BY_USERNAME: readonly RateRule[] = [{ windowSeconds: 1800, max: 5 }];

export interface RateDecision {
  allowed: boolean;
  /** For the X-RateLimit-* headers: the strictest rule's figures. */
  limit: number;
  remaining: number;
  resetAt: number;
  /** Seconds until a request would be allowed again (when refused). */
  retryAfter: number;
}

/**
 * Where the counts live: this process alone (`local`), or a store the server processes share,
 * reachable (`up`) or not (`down`: this process counts alone until it is back).
 */
export type RateStoreState = 'local' | 'up' | 'down';

/**
 * Zulip's sliding-window limiter: a request is allowed when, for every rule, fewer than `max`
 * requests were counted within the last `windowSeconds`. Refused requests are not counted.
 * A key is always used with the same rules (its name says which: `user:`, `ip:`, …).
 * `nowMs` comes from the injected Clock, so every adapter slides the same window.
 */
export abstract class RateLimiter {
  abstract hit(key: string, rules: readonly RateRule[], nowMs: number): Promise<RateDecision>;
  /** Forgets a key's history (a successful login clears its failures). */
  abstract clear(key: string): Promise<void>;
  abstract storeState(): RateStoreState;
}

/** The decision for a key whose counted request times (ascending) are `times`. */
export function slidingWindowDecision(times: readonly number[], rules: readonly RateRule[], nowMs: number): RateDecision {
  let retryAfterMs = 0;
  let limit = Infinity;
  let remaining = Infinity;
  let resetAt = nowMs;
  for (const rule of rules) {
    const windowStart = nowMs - rule.windowSeconds * 1000;
    const inWindow = times.filter((t) => t > windowStart);
    if (inWindow.length >= rule.max) {
      const freeAt = inWindow[inWindow.length - rule.max] + rule.windowSeconds * 1000;
      retryAfterMs = Math.max(retryAfterMs, freeAt - nowMs);
    }
    limit = Math.min(limit, rule.max);
    remaining = Math.min(remaining, Math.max(0, rule.max - inWindow.length - 1));
    if (inWindow.length > 0) resetAt = Math.max(resetAt, inWindow[0] + rule.windowSeconds * 1000);
  }
  const allowed = retryAfterMs === 0;
  return { allowed, limit, remaining: allowed ? remaining : 0, resetAt: Math.ceil(resetAt / 1000), retryAfter: retryAfterMs / 1000 };
}

export const longestWindowMs = (rules: readonly RateRule[]): number => Math.max(...rules.map((r) => r.windowSeconds)) * 1000;

/** The counts in this process's memory: one server process keeps its own. */
export class InProcessRateLimiter extends RateLimiter {
  private readonly history = new Map<string, number[]>();

  hit(key: string, rules: readonly RateRule[], nowMs: number): Promise<RateDecision> {
    return Promise.resolve(this.hitNow(key, rules, nowMs));
  }

  /** The same, synchronously (a decision and its count in one step of the event loop). */
  hitNow(key: string, rules: readonly RateRule[], nowMs: number): RateDecision {
    const longest = longestWindowMs(rules);
    const times = (this.history.get(key) ?? []).filter((t) => t > nowMs - longest);
    const decision = slidingWindowDecision(times, rules, nowMs);
    if (decision.allowed) times.push(nowMs);
    if (times.length > 0) this.history.set(key, times);
    else this.history.delete(key);
    return decision;
  }

  clear(key: string): Promise<void> {
    this.history.delete(key);
    return Promise.resolve();
  }

  /** Forgets every key. */
  clearAll(): void {
    this.history.clear();
  }

  storeState(): RateStoreState {
    return 'local';
  }
}

/** Zulip's 429: `retry-after` in seconds, to the millisecond. */
export function rateLimited(retryAfter: number): DomainError {
  return new DomainError('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 'rate_limited', {
    'retry-after': Math.round(retryAfter * 1000) / 1000,
  });
}
