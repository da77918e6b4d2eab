import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { AlertWordQueries } from '../../../src/users/application/alert-words.ports.js';
import { TypeOrmAlertWordQueries, TypeOrmAlertWordRepository } from '../../../src/users/persistence/typeorm-alert-word.repository.js';
import { startAdapterSuite } from '../../support/adapter-suite.js';
import type { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId } = await startAdapterSuite());
});
afterAll(() => t.close());

describe('TypeOrmAlertWordRepository / TypeOrmAlertWordQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(t.app.get(AlertWordQueries)).toBeInstanceOf(TypeOrmAlertWordQueries);
    await uow.run(async (tx) => expect(tx.alertWords).toBeInstanceOf(TypeOrmAlertWordRepository));
  });

  it('adds words in the order given (a known key is skipped), lists and removes them within the organization', async () => {
    const u = await t.createUser();
    const words = (...w: string[]) => w.map((word) => ({ word, key: word.toLowerCase() }));
    await uow.run((tx) => tx.alertWords.add(realmId, u.id, words('Zeta', 'alpha', 'Mid')));
    await uow.run((tx) => tx.alertWords.add(realmId, u.id, words('ZETA', 'beta')));
    await uow.run((tx) => tx.alertWords.add(realmId, u.id, []));
    expect(await uow.run((tx) => tx.alertWords.list(realmId, u.id))).toEqual(['Zeta', 'alpha', 'Mid', 'beta']);
    expect(await t.app.get(AlertWordQueries).list(realmId, u.id)).toEqual(['Zeta', 'alpha', 'Mid', 'beta']);
    expect(await t.app.get(AlertWordQueries).list(otherRealmId, u.id)).toEqual([]);

    await uow.run((tx) => tx.alertWords.remove(otherRealmId, u.id, ['zeta']));
    await uow.run((tx) => tx.alertWords.remove(realmId, u.id, []));
    await uow.run((tx) => tx.alertWords.remove(realmId, u.id, ['zeta', 'mid', 'unknown']));
    expect(await uow.run((tx) => tx.alertWords.list(realmId, u.id))).toEqual(['alpha', 'beta']);
    const [row] = await ds.query(`SELECT realm_id, user_id, word, lower_word FROM alert_words WHERE user_id = $1 ORDER BY id LIMIT 1`, [u.id]);
    expect(row).toEqual({ realm_id: realmId, user_id: u.id, word: 'alpha', lower_word: 'alpha' });
  });
});
