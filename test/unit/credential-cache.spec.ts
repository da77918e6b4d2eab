import { OrganizationSettingsCache } from '../../src/shared/application/settings-cache.js';
import { SettingsInvalidationFanOut } from '../../src/shared/application/settings-invalidation-fan-out.js';
import type { Credentials } from '../../src/users/application/user.ports.js';
import { CredentialCache } from '../../src/users/application/credential-cache.js';

const account = (realmId: number, email: string, apiKey = 'k'.repeat(32)): Credentials => ({
  userId: email.length,
  realmId,
  email,
  deliveryEmail: email,
  apiKey,
  passwordHash: '$argon2id$secret',
  role: 400,
  isActive: true,
  isBot: false,
  botType: null,
  realmDeactivated: false,
  passwordAuthEnabled: true,
  settingsVersion: 7,
});

/** A loader that counts its calls and answers `value` (a function: the current row). */
function loader(value: () => Credentials | null) {
  const l = Object.assign(async () => (l.calls++, value()), { calls: 0 });
  return l;
}

/** A load that answers when told. */
function deferred() {
  let resolve!: (c: Credentials | null) => void;
  const promise = new Promise<Credentials | null>((r) => (resolve = r));
  return { load: () => promise, resolve };
}

describe('CredentialCache', () => {
  it('loads an account once, then answers from memory (email case aside), keeping no password hash', async () => {
    const cache = new CredentialCache();
    const load = loader(() => account(1, 'Ann@example.com'));
    const first = await cache.get(1, 'Ann@example.com', load);
    expect(first).toMatchObject({ userId: 15, apiKey: 'k'.repeat(32), role: 400, settingsVersion: 7 });
    expect(first).not.toHaveProperty('passwordHash');
    expect(await cache.get(1, 'ann@EXAMPLE.com', load)).toBe(first);
    expect(load.calls).toBe(1);
    // Another organization is another key.
    await cache.get(2, 'ann@example.com', load);
    expect(load.calls).toBe(2);
  });

  it('keeps no unknown account, and no failed load', async () => {
    const cache = new CredentialCache();
    const none = loader(() => null);
    expect(await cache.get(1, 'ghost@example.com', none)).toBeNull();
    expect(await cache.get(1, 'ghost@example.com', none)).toBeNull();
    expect(none.calls).toBe(2);
    await expect(cache.get(1, 'a@example.com', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    const ok = loader(() => account(1, 'a@example.com'));
    expect(await cache.get(1, 'a@example.com', ok)).not.toBeNull();
    expect(ok.calls).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('shares one load among concurrent misses of a key', async () => {
    const cache = new CredentialCache();
    const d = deferred();
    let calls = 0;
    const load = () => (calls++, d.load());
    const both = Promise.all([cache.get(1, 'a@example.com', load), cache.get(1, 'A@example.com', load)]);
    d.resolve(account(1, 'a@example.com'));
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(calls).toBe(1);
  });

  it('is bounded: the least recently used account goes first', async () => {
    const cache = new CredentialCache(2);
    const get = (email: string) => cache.get(1, email, async () => account(1, email));
    await get('a@x.test');
    await get('b@x.test');
    await get('a@x.test'); // a is now the most recently used
    await get('c@x.test');
    expect(cache.size).toBe(2);
    const reload = loader(() => account(1, 'b@x.test'));
    await cache.get(1, 'b@x.test', reload);
    expect(reload.calls).toBe(1); // b was evicted
    const kept = loader(() => account(1, 'c@x.test'));
    await cache.get(1, 'c@x.test', kept);
    expect(kept.calls).toBe(0);
  });

  it('drops an organization’s accounts when it changed, and every account on all()', async () => {
    const cache = new CredentialCache();
    let key = 'a'.repeat(32);
    const one = loader(() => account(1, 'a@x.test', key));
    const two = loader(() => account(2, 'a@x.test'));
    await cache.get(1, 'a@x.test', one);
    await cache.get(2, 'a@x.test', two);
    key = 'b'.repeat(32);
    cache.changed(1);
    expect(cache.size).toBe(1);
    expect((await cache.get(1, 'a@x.test', one))?.apiKey).toBe(key);
    await cache.get(2, 'a@x.test', two);
    expect([one.calls, two.calls]).toEqual([2, 1]);
    cache.all();
    expect(cache.size).toBe(0);
    await cache.get(1, 'a@x.test', one);
    await cache.get(2, 'a@x.test', two);
    expect([one.calls, two.calls]).toEqual([3, 2]);
  });

  it('does not keep a load that an invalidation of its organization overtook, nor share it afterwards', async () => {
    for (const invalidate of [(c: CredentialCache) => c.changed(1), (c: CredentialCache) => c.all()]) {
      const cache = new CredentialCache();
      const old = deferred();
      const started = cache.get(1, 'a@x.test', old.load);
      invalidate(cache);
      // A request after the change does not wait for the load that began before it.
      const fresh = deferred();
      const after = cache.get(1, 'a@x.test', fresh.load);
      old.resolve(account(1, 'a@x.test', 'o'.repeat(32)));
      expect((await started)?.apiKey).toBe('o'.repeat(32)); // its own caller gets it
      expect(cache.size).toBe(0);
      fresh.resolve(account(1, 'a@x.test', 'n'.repeat(32)));
      expect((await after)?.apiKey).toBe('n'.repeat(32));
      const later = loader(() => account(1, 'a@x.test', 'z'.repeat(32)));
      expect((await cache.get(1, 'a@x.test', later))?.apiKey).toBe('n'.repeat(32));
      expect(later.calls).toBe(0);
    }
  });

  it('keeps a load overtaken only by another organization’s change', async () => {
    const cache = new CredentialCache();
    const d = deferred();
    const started = cache.get(1, 'a@x.test', d.load);
    cache.changed(2);
    d.resolve(account(1, 'a@x.test'));
    await started;
    expect(cache.size).toBe(1);
  });
});

describe('SettingsInvalidationFanOut', () => {
  it('hands every invalidation to every cache', () => {
    const settings = new OrganizationSettingsCache();
    const credentials = new CredentialCache();
    const calls: string[] = [];
    vi.spyOn(settings, 'changed').mockImplementation((r) => void calls.push(`settings ${r}`));
    vi.spyOn(credentials, 'changed').mockImplementation((r) => void calls.push(`credentials ${r}`));
    vi.spyOn(settings, 'all').mockImplementation(() => void calls.push('settings all'));
    vi.spyOn(credentials, 'all').mockImplementation(() => void calls.push('credentials all'));
    const fanOut = new SettingsInvalidationFanOut([settings, credentials]);
    fanOut.changed(3);
    fanOut.all();
    expect(calls).toEqual(['settings 3', 'credentials 3', 'settings all', 'credentials all']);
  });
});
