import { defaultUserSettings } from '@app/domain/users';
import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { RealmUserDefaultsQueries } from '../../../src/users/application/realm-user-defaults.ports.js';
import {
  TypeOrmRealmUserDefaultsQueries,
  TypeOrmRealmUserDefaultsRepository,
} from '../../../src/users/persistence/typeorm-realm-user-defaults.repository.js';
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

const modelDefaults = () => {
  const { timezone: _, ...rest } = defaultUserSettings();
  return rest;
};

describe('TypeOrmRealmUserDefaultsRepository / TypeOrmRealmUserDefaultsQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(t.app.get(RealmUserDefaultsQueries)).toBeInstanceOf(TypeOrmRealmUserDefaultsQueries);
    await uow.run(async (tx) => expect(tx.realmUserDefaults).toBeInstanceOf(TypeOrmRealmUserDefaultsRepository));
  });

  it('reads the model defaults without a row, writes changes (making the row) and reads them back by name', async () => {
    await ds.query(`DELETE FROM realm_user_defaults WHERE realm_id IN ($1, $2)`, [realmId, otherRealmId]);
    const queries = t.app.get(RealmUserDefaultsQueries);
    expect(await queries.of(realmId)).toEqual(modelDefaults());
    expect(await uow.run((tx) => tx.realmUserDefaults.getForUpdate(realmId))).toEqual(modelDefaults());
    await uow.run((tx) =>
      tx.realmUserDefaults.apply(realmId, [
        { name: 'enter_sends', value: true },
        { name: 'resolved_topic_notice_auto_read_policy', value: 'never' },
      ]),
    );
    await uow.run((tx) => tx.realmUserDefaults.apply(realmId, [{ name: 'web_font_size_px', value: 20 }]));
    await uow.run((tx) => tx.realmUserDefaults.apply(realmId, []));
    const changed = { ...modelDefaults(), enter_sends: true, resolved_topic_notice_auto_read_policy: 'never', web_font_size_px: 20 };
    expect(await queries.of(realmId)).toEqual(changed);
    expect(await uow.run((tx) => tx.realmUserDefaults.getForUpdate(realmId))).toEqual(changed);
    expect(await queries.of(otherRealmId)).toEqual(modelDefaults());
  });

  it('copies the defaults onto a new account and returns its address visibility (null without a row)', async () => {
    const u = await t.createUser();
    await ds.query(`DELETE FROM realm_user_defaults WHERE realm_id = $1`, [realmId]);
    expect(await uow.run((tx) => tx.realmUserDefaults.copyToNewUser(realmId, u.id))).toBeNull();
    await uow.run((tx) =>
      tx.realmUserDefaults.apply(realmId, [
        { name: 'twenty_four_hour_time', value: true },
        { name: 'email_address_visibility', value: 3 },
      ]),
    );
    expect(await uow.run((tx) => tx.realmUserDefaults.copyToNewUser(otherRealmId, u.id))).toBeNull();
    expect(await uow.run((tx) => tx.realmUserDefaults.copyToNewUser(realmId, u.id))).toBe(3);
    expect(await ds.query(`SELECT twenty_four_hour_time, email_address_visibility FROM users WHERE id = $1`, [u.id])).toEqual([
      { twenty_four_hour_time: true, email_address_visibility: 3 },
    ]);
  });
});
