import { SlidingWindowRateLimiter } from '../../src/shared/application/rate-limiter.js';

describe('sliding-window rate limiter', () => {
  const rules = [{ windowSeconds: 60, max: 3 }];
  it('allows max requests per window and tells when the next one is allowed', () => {
    const l = new SlidingWindowRateLimiter();
    expect(l.hit('k', rules, 0)).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    l.hit('k', rules, 10_000);
    expect(l.hit('k', rules, 20_000)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = l.hit('k', rules, 30_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 30 });
    // Refused requests do not count: at 60.001 s the first request has left the window.
    expect(l.hit('k', rules, 60_001).allowed).toBe(true);
  });
  it('forgets a key on clear()', () => {
    const l = new SlidingWindowRateLimiter();
    for (let i = 0; i < 3; i++) l.hit('k', rules, i);
    expect(l.hit('k', rules, 5).allowed).toBe(false);
    l.clear('k');
    expect(l.hit('k', rules, 6).allowed).toBe(true);
  });
  it('applies the strictest of several rules', () => {
    const l = new SlidingWindowRateLimiter();
    const two = [
      { windowSeconds: 1, max: 10 },
      { windowSeconds: 100, max: 2 },
    ];
    l.hit('k', two, 0);
    l.hit('k', two, 2000);
    expect(l.hit('k', two, 4000)).toMatchObject({ allowed: false, retryAfter: 96 });
  });
});
