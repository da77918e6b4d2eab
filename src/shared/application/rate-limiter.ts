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
 * Zulip's sliding-window limiter: a request is allowed when, for every rule, fewer than `max`
 * requests were counted within the last `windowSeconds`. Refused requests are not counted.
 * In-process memory: one server process keeps its own counts.
 */
export class SlidingWindowRateLimiter {
  private readonly history = new Map<string, number[]>();

  hit(key: string, rules: readonly RateRule[], nowMs: number): RateDecision {
    const longest = Math.max(...rules.map((r) => r.windowSeconds)) * 1000;
    const times = (this.history.get(key) ?? []).filter((t) => t > nowMs - longest);
    let retryAfter = 0;
    let limit = Infinity;
    let remaining = Infinity;
    let resetAt = nowMs;
    for (const rule of rules) {
      const windowStart = nowMs - rule.windowSeconds * 1000;
      const inWindow = times.filter((t) => t > windowStart);
      if (inWindow.length >= rule.max) {
        const freeAt = inWindow[inWindow.length - rule.max] + rule.windowSeconds * 1000;
        retryAfter = Math.max(retryAfter, (freeAt - nowMs) / 1000);
      }
      limit = Math.min(limit, rule.max);
      remaining = Math.min(remaining, Math.max(0, rule.max - inWindow.length - 1));
      if (inWindow.length > 0) resetAt = Math.max(resetAt, inWindow[0] + rule.windowSeconds * 1000);
    }
    const allowed = retryAfter === 0;
    if (allowed) times.push(nowMs);
    if (times.length > 0) this.history.set(key, times);
    else this.history.delete(key);
    return { allowed, limit, remaining: allowed ? remaining : 0, resetAt: Math.ceil(resetAt / 1000), retryAfter };
  }

  clear(key: string): void {
    this.history.delete(key);
  }
}

/** Zulip's 429: `retry-after` in seconds, to the millisecond. */
export function rateLimited(retryAfter: number): DomainError {
  return new DomainError('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 'rate_limited', {
    'retry-after': Math.round(retryAfter * 1000) / 1000,
  });
}
