import type { RateLimiter } from '../../src/shared/application/rate-limiter.js';

/**
 * What every RateLimiter adapter answers, figure for figure: Zulip's sliding window, refused
 * requests not counted, the strictest of several rules, the X-RateLimit-* figures.
 * `limiter()` is the adapter under test, fresh for each test.
 */
export function rateLimiterContract(limiter: () => RateLimiter): void {
  const rules = [{ windowSeconds: 60, max: 3 }];

  it('allows max requests per window and tells when the next one is allowed', async () => {
    const l = limiter();
    expect(await l.hit('k', rules, 0)).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: 0, retryAfter: 0 });
    await l.hit('k', rules, 10_000);
    expect(await l.hit('k', rules, 20_000)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await l.hit('k', rules, 30_000);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetAt: 60, retryAfter: 30 });
    // Refused requests do not count: at 60.001 s the first request has left the window.
    expect(await l.hit('k', rules, 60_001)).toMatchObject({ allowed: true, remaining: 0 });
    // The window slides (a fixed window would have started afresh): one request left it, one came in.
    expect(await l.hit('k', rules, 60_002)).toMatchObject({ allowed: false, retryAfter: 9.998 });
  });

  it('counts a request exactly windowSeconds old as outside the window', async () => {
    const l = limiter();
    const one = [{ windowSeconds: 60, max: 1 }];
    await l.hit('k', one, 1_000);
    expect(await l.hit('k', one, 60_999)).toMatchObject({ allowed: false, retryAfter: 0.001 });
    expect(await l.hit('k', one, 61_000)).toMatchObject({ allowed: true });
  });

  it('reports the reset time in whole seconds, rounded up, from the oldest request in the window', async () => {
    const l = limiter();
    expect(await l.hit('k', rules, 1_000_500)).toMatchObject({ resetAt: 1001, remaining: 2 });
    expect(await l.hit('k', rules, 1_010_000)).toMatchObject({ resetAt: 1061, remaining: 1 });
    expect(await l.hit('k', rules, 1_061_000)).toMatchObject({ resetAt: 1070, remaining: 1 });
  });

  it('gives retry-after to the millisecond', async () => {
    const l = limiter();
    const perSecond = [{ windowSeconds: 1, max: 1 }];
    await l.hit('k', perSecond, 5_000);
    expect(await l.hit('k', perSecond, 5_250)).toMatchObject({ allowed: false, retryAfter: 0.75 });
  });

  it('forgets a key on clear()', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.hit('k', rules, i);
    expect((await l.hit('k', rules, 5)).allowed).toBe(false);
    await l.clear('k');
    expect(await l.hit('k', rules, 6)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps keys apart', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.hit('user:1', rules, i);
    expect((await l.hit('user:1', rules, 5)).allowed).toBe(false);
    expect(await l.hit('user:2', rules, 5)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('applies the strictest of several rules', async () => {
    const l = limiter();
    const two = [
      { windowSeconds: 1, max: 10 },
      { windowSeconds: 100, max: 2 },
    ];
    expect(await l.hit('k', two, 0)).toMatchObject({ limit: 2, remaining: 1 });
    await l.hit('k', two, 2000);
    expect(await l.hit('k', two, 4000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: 100, retryAfter: 96 });
    // The short rule refuses on its own too: the longest wait wins.
    const burst = [
      { windowSeconds: 10, max: 2 },
      { windowSeconds: 100, max: 5 },
    ];
    await l.hit('b', burst, 0);
    await l.hit('b', burst, 1000);
    expect(await l.hit('b', burst, 2000)).toMatchObject({ allowed: false, retryAfter: 8 });
    expect(await l.hit('b', burst, 10_001)).toMatchObject({ allowed: true, remaining: 0 });
  });
}
