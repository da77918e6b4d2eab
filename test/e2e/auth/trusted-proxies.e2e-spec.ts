import { expectError, OWNER_EMAIL, TestApp } from '../../support/test-app.js';

// Behind a reverse proxy on this host: the client is the address the proxy names in X-Forwarded-For.
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ RATE_LIMITING: 'true', TRUSTED_PROXIES: 'loopback' });
});
afterAll(() => t.close());

const attempt = (username: string, forwardedFor: string) =>
  t.post('fetch_api_key', { as: null, form: { username, password: 'wrong' } }).set('X-Forwarded-For', forwardedFor);

describe('unauthenticated requests per client address behind TRUSTED_PROXIES', () => {
  it('counts per forwarded client address: one client is refused, another is not', async () => {
    for (let i = 0; i < 100; i++) expect((await attempt(`unknown${i}@example.com`, '203.0.113.7')).status).toBe(401);
    expectError(await attempt('other@example.com', '203.0.113.7'), 429, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', {
      'retry-after': expect.any(Number),
    });
    // A spoofed left-most entry does not help: the proxy appends the real client last.
    expectError(
      await attempt('other@example.com', '192.0.2.1, 203.0.113.7'),
      429,
      'API usage exceeded rate limit',
      'RATE_LIMIT_HIT',
      { 'retry-after': expect.any(Number) },
    );
    expectError(await attempt(OWNER_EMAIL, '203.0.113.8'), 401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');
  });
});
