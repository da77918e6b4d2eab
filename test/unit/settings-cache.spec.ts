import { OrganizationSettingsCache } from '../../src/shared/application/settings-cache.js';
import { writesSettings } from '../../src/shared/persistence/settings-scope.js';

describe('OrganizationSettingsCache', () => {
  it('serves an entry only to readers whose version is not newer than it', async () => {
    const cache = new OrganizationSettingsCache();
    const v5 = cache.at(1, 5);
    await v5.value('realm', async () => 'five');
    expect(cache.at(1, 5)).toBe(v5);
    expect(cache.at(1, 3)).toBe(v5); // an older reader may see newer settings
    const v7 = cache.at(1, 7);
    expect(v7).not.toBe(v5);
    expect(await v7.value('realm', async () => 'seven')).toBe('seven');
    expect(cache.at(1, 5)).toBe(v7);
  });

  it('loads a value once for concurrent readers, and again after a failed load', async () => {
    const cache = new OrganizationSettingsCache();
    const entry = cache.at(1, 1);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return loads;
    };
    expect(await Promise.all([entry.value('k', load), entry.value('k', load)])).toEqual([1, 1]);
    await expect(entry.value('bad', async () => Promise.reject(new Error('aborted')))).rejects.toThrow('aborted');
    expect(await entry.value('bad', async () => 'retried')).toBe('retried');
  });

  it('a reader waiting on another transaction’s failed load loads on its own', async () => {
    const entry = new OrganizationSettingsCache().at(1, 1);
    let fail!: (e: Error) => void;
    const first = entry.value('k', () => new Promise<string>((_, reject) => (fail = reject)));
    const second = entry.value('k', async () => 'own');
    fail(new Error('aborted'));
    await expect(first).rejects.toThrow('aborted');
    expect(await second).toBe('own');
  });

  it('is bounded: least recently used organizations and memberships go first', async () => {
    const cache = new OrganizationSettingsCache(2, 2);
    cache.at(1, 1);
    cache.at(2, 1);
    cache.at(1, 1);
    cache.at(3, 1);
    expect(cache.size).toBe(2);
    const e1 = cache.at(1, 1);
    expect(cache.at(1, 1)).toBe(e1); // 1 was used recently, 2 went
    const groups = (id: number) => async () => new Set([id]);
    await e1.groupsOf(10, groups(10));
    await e1.groupsOf(11, groups(11));
    await e1.groupsOf(10, groups(99)); // used: 11 is now the oldest
    await e1.groupsOf(12, groups(12));
    expect([...e1.memberships.keys()]).toEqual([10, 12]);
  });

  it('readers without a version: current until an invalidation, and not stored when one came during the load', async () => {
    const cache = new OrganizationSettingsCache();
    let loads = 0;
    const load = async () => ({ version: 4, value: `load ${++loads}` });
    expect(await cache.loadCurrent(1, 'realm', load)).toBe('load 1');
    expect(await cache.loadCurrent(1, 'realm', load)).toBe('load 1');
    cache.changed(1);
    expect(await cache.loadCurrent(1, 'realm', load)).toBe('load 2');
    cache.all();
    const racing = cache.loadCurrent(1, 'realm', async () => {
      cache.changed(1); // the notification arrives while the row is read
      return { version: 4, value: 'stale?' };
    });
    expect(await racing).toBe('stale?');
    expect(cache.current(1)).toBeUndefined();
    expect(await cache.loadCurrent(1, 'realm', load)).toBe('load 3');
  });
});

describe('writesSettings', () => {
  it('recognises writes to the tables the cache reads, quoted or not, and nothing else', () => {
    for (const sql of [
      'UPDATE realms SET name = $2 WHERE id = $1',
      'INSERT INTO "users"("realm_id", "email") VALUES ($1, $2)',
      'insert into user_group_members (group_id, user_id) select 1, 2',
      'DELETE FROM user_group_subgroups WHERE supergroup_id = $1',
      'WITH d AS (DELETE FROM linkifiers WHERE id = $1 RETURNING id) SELECT 1',
      'INSERT INTO realm_group_settings (realm_id, setting, group_id) VALUES (1, $1, 2) ON CONFLICT DO NOTHING',
      'UPDATE user_groups SET name = $1',
    ]) {
      expect(writesSettings(sql), sql).toBe(true);
    }
    for (const sql of [
      'SELECT * FROM realms WHERE id = $1 FOR UPDATE',
      'INSERT INTO user_messages (user_id, message_id) VALUES (1, 2)',
      'UPDATE users_extra SET x = 1',
      'INSERT INTO messages (realm_id) VALUES (1) ON CONFLICT (id) DO UPDATE SET realm_id = 1',
      'DELETE FROM user_group_stuff',
    ]) {
      expect(writesSettings(sql), sql).toBe(false);
    }
  });
});
