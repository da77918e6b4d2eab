import { availableParallelism } from 'node:os';
import { connectionsNeeded, restartDelayMs } from '../../src/app/cluster-primary.js';
import { ServerConfig } from '../../src/shared/config/server-config.js';

describe('WORKERS', () => {
  it('is 1 when unset, a given count, or one per core for auto', () => {
    expect(ServerConfig.fromEnv({}).workers).toBe(1);
    expect(ServerConfig.fromEnv({ WORKERS: '3' }).workers).toBe(3);
    expect(ServerConfig.fromEnv({ WORKERS: 'auto' }).workers).toBe(Math.min(availableParallelism(), 64));
    expect(ServerConfig.fromEnv({ WORKERS: ' AUTO ' }).workers).toBe(Math.min(availableParallelism(), 64));
  });

  it.each(['0', '-1', 'two', '1.5', '65', '1e1'])('refuses WORKERS=%s', (value) => {
    expect(() => ServerConfig.fromEnv({ WORKERS: value })).toThrow(`WORKERS must be "auto" or an integer from 1 to 64, got "${value}"`);
  });

  it('shares the password-hashing slots of the machine among the workers by default', () => {
    const cores = availableParallelism();
    expect(ServerConfig.fromEnv({}).passwordHashConcurrency).toBe(cores);
    expect(ServerConfig.fromEnv({ WORKERS: String(cores * 2) }).passwordHashConcurrency).toBe(1);
    expect(ServerConfig.fromEnv({ WORKERS: '2', PASSWORD_HASH_CONCURRENCY: '3' }).passwordHashConcurrency).toBe(3);
  });
});

describe('DB_POOL_SIZE', () => {
  it('is checked, and counted per worker with its LISTEN connection', () => {
    expect(() => ServerConfig.fromEnv({ DB_POOL_SIZE: '0' })).toThrow('DB_POOL_SIZE must be at least 1, got "0"');
    expect(() => ServerConfig.fromEnv({ DB_POOL_SIZE: 'ten' })).toThrow('DB_POOL_SIZE must be an integer, got "ten"');
    expect(connectionsNeeded(ServerConfig.fromEnv({ WORKERS: '4', DB_POOL_SIZE: '10' }))).toBe(44);
  });
});

describe('restarting a dead worker', () => {
  it('waits 0.5 s, doubling with each death in a row, at most 30 s', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map(restartDelayMs)).toEqual([500, 1000, 2000, 4000, 30_000, 30_000, 30_000]);
  });
});
