import { expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// One password hash at a time, one more waiting: a burst of logins to unknown addresses
// (each paying a full 64 MiB argon2id) gets 429s instead of pinning the CPU, and every
// other request is still answered.
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ PASSWORD_HASH_MEMORY_KIB: '65536', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' });
});
afterAll(() => t.close());

describe('the global cap on password hashing', () => {
  it('queues up to the limit, then answers 429 with the rate-limit envelope; other requests are served', async () => {
    const burst = Array.from({ length: 8 }, (_, i) =>
      t.post('fetch_api_key', { as: null, form: { username: `nobody${i}@example.com`, password: 'wrong' } }).then((r) => r),
    );
    const meanwhile = t.get('users/me').then((r) => r);
    const answers = await Promise.all(burst);
    expectSuccess(await meanwhile);
    const refused = answers.filter((r) => r.status === 429);
    const failed = answers.filter((r) => r.status === 401);
    expect(refused.length + failed.length).toBe(8);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeGreaterThanOrEqual(2); // the running one and the queued one
    for (const r of refused) {
      expectError(r, 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': expect.any(Number) });
      expect(r.body['retry-after']).toBeGreaterThan(0);
      expect(Number(r.headers['retry-after'])).toBe(r.body['retry-after']);
    }
    for (const r of failed) expectError(r, 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    // Once the burst has drained, hashing is available again.
    const later = await t.post('fetch_api_key', { as: null, form: { username: 'nobody@example.com', password: 'wrong' } });
    expectError(later, 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
  });
});
