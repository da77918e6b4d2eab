import { ServerConfig } from '../../src/shared/config/server-config.js';

describe('REDIS_URL and REDIS_PREFIX', () => {
  it('default to counting in process, under the svc: prefix when Redis is set', () => {
    expect(ServerConfig.fromEnv({})).toMatchObject({ redisUrl: undefined, redisPrefix: 'svc:' });
    expect(ServerConfig.fromEnv({ REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  it('take a redis:// or rediss:// URL and any prefix', () => {
    expect(ServerConfig.fromEnv({ REDIS_URL: 'redis://127.0.0.1:6379/0', REDIS_PREFIX: 'chat-a:' })).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379/0',
      redisPrefix: 'chat-a:',
    });
    expect(ServerConfig.fromEnv({ REDIS_URL: 'rediss://:secret@redis.example.com:6380' }).redisUrl).toBe('rediss://:secret@redis.example.com:6380');
  });

  it.each(['127.0.0.1:6379', 'http://127.0.0.1:6379', 'redis://', 'not a url'])('refuse %j at start-up', (url) => {
    expect(() => ServerConfig.fromEnv({ REDIS_URL: url })).toThrow(`REDIS_URL must be a redis:// or rediss:// URL, got "${url}"`);
  });
});
