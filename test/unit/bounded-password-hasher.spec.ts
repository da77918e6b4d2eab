import { DomainError } from '@app/domain/shared';
import { BoundedPasswordHasher } from '../../src/shared/application/bounded-password-hasher.js';
import { PasswordHasher } from '../../src/shared/application/password-hasher.js';
import { ServerConfig } from '../../src/shared/config/server-config.js';

/** A hasher whose every call waits until the test lets it finish. */
class ManualHasher extends PasswordHasher {
  readonly started: string[] = [];
  private readonly pending: (() => void)[] = [];
  private run<T>(label: string, value: T): Promise<T> {
    this.started.push(label);
    return new Promise((resolve) => this.pending.push(() => resolve(value)));
  }
  hash(password: string) {
    return this.run(`hash:${password}`, `h(${password})`);
  }
  verify(_hash: string, password: string) {
    return this.run(`verify:${password}`, true);
  }
  burn(password: string) {
    return this.run(`burn:${password}`, undefined);
  }
  finishOne() {
    this.pending.shift()!();
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('bounded password hashing', () => {
  it('runs `concurrency` at once, queues `queue` in order, refuses the next with the 429 rate-limit error', async () => {
    const inner = new ManualHasher();
    const h = new BoundedPasswordHasher(inner, { concurrency: 2, queue: 2 });
    const done: string[] = [];
    const calls = ['a', 'b', 'c', 'd'].map((p) => h.hash(p).then((r) => done.push(r)));
    await tick();
    expect(inner.started).toEqual(['hash:a', 'hash:b']);
    const refused = await h.verify('x', 'e').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ message: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', kind: 'rate_limited' });
    expect((refused as DomainError).data['retry-after']).toBeGreaterThan(0);
    inner.finishOne();
    await tick();
    expect(inner.started).toEqual(['hash:a', 'hash:b', 'hash:c']); // a finished: c takes its slot
    for (let i = 0; i < 3; i++) {
      inner.finishOne();
      await tick();
    }
    await Promise.all(calls);
    expect(done).toEqual(['h(a)', 'h(b)', 'h(c)', 'h(d)']);
    // Drained: the full capacity is available again.
    const again = [h.burn('f'), h.burn('g'), h.burn('i'), h.burn('j')];
    await tick();
    expect(inner.started.slice(4)).toEqual(['burn:f', 'burn:g']);
    for (let i = 0; i < 4; i++) {
      inner.finishOne();
      await tick();
    }
    await Promise.all(again);
  });

  it('frees the slot when the hash fails', async () => {
    const failing = new (class extends ManualHasher {
      override hash(): Promise<string> {
        return Promise.reject(new Error('boom'));
      }
    })();
    const h = new BoundedPasswordHasher(failing, { concurrency: 1, queue: 0 });
    await expect(h.hash('a')).rejects.toThrow('boom');
    await expect(h.hash('b')).rejects.toThrow('boom'); // not refused: the slot was given back
  });
});

describe('hardening settings', () => {
  it('reads TRUSTED_PROXIES as a list and the hashing capacity', () => {
    const c = ServerConfig.fromEnv({ TRUSTED_PROXIES: ' 10.0.0.0/8, loopback ,', PASSWORD_HASH_CONCURRENCY: '3', PASSWORD_HASH_QUEUE: '0' });
    expect(c.trustedProxies).toEqual(['10.0.0.0/8', 'loopback']);
    expect([c.passwordHashConcurrency, c.passwordHashQueue]).toEqual([3, 0]);
    expect(ServerConfig.fromEnv({}).trustedProxies).toEqual([]);
    expect(() => ServerConfig.fromEnv({ PASSWORD_HASH_CONCURRENCY: '0' })).toThrow('PASSWORD_HASH_CONCURRENCY must be positive');
  });
});
