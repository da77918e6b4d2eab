import { tokenMatches } from '../../src/app/metrics/metrics.controller.js';
import { ServerConfig } from '../../src/shared/config/server-config.js';

describe('METRICS_TOKEN', () => {
  it('is unset by default (GET /metrics answers 404), or the given token', () => {
    expect(ServerConfig.fromEnv({}).metricsToken).toBeUndefined();
    expect(ServerConfig.fromEnv({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(ServerConfig.fromEnv({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
  });

  it.each(['short', 'a'.repeat(15), 'with a space in the token'])('refuses METRICS_TOKEN=%s at start-up', (value) => {
    expect(() => ServerConfig.fromEnv({ METRICS_TOKEN: value })).toThrow('METRICS_TOKEN must be at least 16 characters, without spaces');
  });

  it('matches only the exact token, whatever the lengths', () => {
    const token = 'metrics-token-0123456789';
    expect(tokenMatches(token, token)).toBe(true);
    for (const other of ['', 'm', token.slice(0, -1), `${token}x`, token.toUpperCase()]) expect(tokenMatches(other, token)).toBe(false);
  });
});
