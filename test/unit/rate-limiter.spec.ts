import { InProcessRateLimiter } from '../../src/shared/application/rate-limiter.js';
import { rateLimiterContract } from '../support/rate-limiter-contract.js';

describe('in-process sliding-window rate limiter', () => {
  rateLimiterContract(() => new InProcessRateLimiter());

  it('counts in this process alone', () => {
    expect(new InProcessRateLimiter().storeState()).toBe('local');
  });
});
