import { DataSource } from 'typeorm';
import { OrganizationSettingsCache } from '../../../src/shared/application/settings-cache.js';
import { bindSettingsScope, cachedSetting, settingsEntry, TxSettingsScope, writesSettings, wroteSettings } from '../../../src/shared/persistence/settings-scope.js';
import { TestApp } from '../../support/test-app.js';

/** TxSettingsScope on a real transaction: which settings-cache entry its repositories may use, and when it must bypass the cache. */
let t: TestApp;
let ds: DataSource;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
});
afterAll(() => t.close());

describe('TxSettingsScope', () => {
  it('gives the transaction the entry of the newest version its readers have seen, kept across loads', async () => {
    const cache = new OrganizationSettingsCache();
    const scope = new TxSettingsScope(cache);
    await ds.transaction(async (em) => {
      bindSettingsScope(em, scope);
      expect(settingsEntry(em, 1)).toBeUndefined(); // no version seen yet
      const entry = settingsEntry(em, 1, { realmId: 1, settingsVersion: 5 });
      expect(entry).toBe(cache.at(1, 5));
      expect(settingsEntry(em, 1, { realmId: 1, settingsVersion: 3 })).toBe(entry); // an older reader does not move it back
      expect(settingsEntry(em, 2, { realmId: 1, settingsVersion: 9 })).toBeUndefined(); // a reader of another organization says nothing about this one
      let loads = 0;
      const load = async () => ((await em.query(`SELECT $1::int AS n`, [(loads += 1)])) as { n: number }[])[0].n;
      expect(await cachedSetting(em, 1, undefined, 'k', load)).toBe(1);
      expect(await cachedSetting(em, 1, undefined, 'k', load)).toBe(1);
      expect(loads).toBe(1);
    });
  });

  it('bypasses the cache once the transaction has written a table the cache reads', async () => {
    const cache = new OrganizationSettingsCache();
    const scope = new TxSettingsScope(cache);
    await ds.transaction(async (em) => {
      bindSettingsScope(em, scope);
      await em.query(`SELECT name FROM realms WHERE id = 1`);
      expect(wroteSettings(em)).toBe(false);
      expect(settingsEntry(em, 1, { realmId: 1, settingsVersion: 1 })).toBeDefined();
      await em.query(`UPDATE realms SET name = name WHERE id = 1`);
      expect(wroteSettings(em)).toBe(true);
      expect(scope.wroteSettings).toBe(true);
      expect(settingsEntry(em, 1, { realmId: 1, settingsVersion: 1 })).toBeUndefined();
      let loads = 0;
      const load = async () => (loads += 1);
      await cachedSetting(em, 1, undefined, 'k', load);
      await cachedSetting(em, 1, undefined, 'k', load);
      expect(loads).toBe(2);
    });
    expect(wroteSettings(ds.manager)).toBe(false); // outside any unit of work
  });

  it('recognises the statements that write what the cache reads, and only those', () => {
    for (const sql of [
      'INSERT INTO user_groups (realm_id) VALUES ($1)',
      'update "realms" set name = $1',
      'DELETE FROM linkifiers WHERE id = $1',
      'TRUNCATE TABLE users',
      'UPDATE ONLY realm_user_defaults SET x = 1',
    ])
      expect(writesSettings(sql)).toBe(true);
    for (const sql of ['SELECT * FROM realms', 'INSERT INTO messages (id) VALUES (1)', 'UPDATE users_extra SET x = 1', 'DELETE FROM user_groups_log'])
      expect(writesSettings(sql)).toBe(false);
  });
});
