import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { RealmQueries } from '../../../src/realm/application/realm.ports.js';
import { TypeOrmRealmQueries, TypeOrmRealmRepository } from '../../../src/realm/persistence/typeorm-realm.repository.js';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: RealmQueries;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  queries = t.app.get(RealmQueries);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  await t.createOrganization('other', 'other-owner@example.com');
  otherRealmId = (await ds.query(`SELECT id FROM realms WHERE string_id = 'other'`))[0].id;
});
afterAll(() => t.close());

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The realms row as the record shows it: every column camelCased but the settings version, plus hasWebPublicChannels. */
async function expectedRecord(id: number, hasWebPublicChannels = false): Promise<Record<string, unknown>> {
  const [row] = await ds.query(`SELECT * FROM realms WHERE id = $1`, [id]);
  const { settings_version: _, ...rest } = row;
  return { ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [camel(k), v])), hasWebPublicChannels };
}

describe('TypeOrmRealmRepository / TypeOrmRealmQueries (inserting through the RealmRow entity)', () => {
  it('are the adapters of their ports', async () => {
    expect(queries).toBeInstanceOf(TypeOrmRealmQueries);
    await uow.run(async (tx) => expect(tx.realms).toBeInstanceOf(TypeOrmRealmRepository));
  });

  it('maps the realms row whole, with the native types of its columns', async () => {
    const expected = await expectedRecord(realmId);
    expect(expected).toMatchObject({ id: realmId, dateCreated: expect.any(Date), uuid: expect.any(String), iconSource: 'G', messageContentEditLimitSeconds: 600 });
    expect(await queries.get(realmId)).toEqual(expected);
    expect(await queries.getForVisitor(realmId)).toEqual(expected);
    expect(await uow.run((tx) => tx.realms.get(realmId))).toEqual(expected);
    expect(await uow.run((tx) => tx.realms.getForUpdate(realmId))).toEqual(expected);
    expect(await queries.get(otherRealmId)).toEqual(await expectedRecord(otherRealmId));
    await expect(queries.get(999_999)).rejects.toThrow('no realm 999999');
  });

  it('finds organizations by string id and the first one, and inserts one', async () => {
    expect(await queries.idByStringId('other')).toBe(otherRealmId);
    expect(await queries.idByStringId('nowhere')).toBeNull();
    expect(await uow.run((tx) => tx.realms.firstRealmId())).toBe(Math.min(realmId, otherRealmId));
    const date = new Date('2025-01-01T00:00:00Z');
    const id = await uow.run(async (tx) => {
      await tx.realms.lockForBootstrap();
      return tx.realms.insert({ stringId: 'third', name: 'Third', dateCreated: date });
    });
    expect(await queries.get(id)).toMatchObject({ id, stringId: 'third', name: 'Third', dateCreated: date, deactivated: false });
  });

  it('updates properties, announcement channels and images of one organization only', async () => {
    await uow.run(async (tx) => {
      await tx.realms.updateProperties(realmId, { messageContentEditLimitSeconds: null, description: 'Changed' });
      await tx.realms.updateProperties(realmId, {});
      await tx.realms.changeImage(realmId, 'night_logo', 'U');
      await tx.realms.setChannelSettings(realmId, []);
    });
    const [{ id: channelId }] = await ds.query(`SELECT id FROM channels WHERE realm_id = $1 ORDER BY id LIMIT 1`, [realmId]);
    await uow.run((tx) => tx.realms.setChannelSettings(realmId, [{ key: 'signupAnnouncementsStreamId', sent: channelId, channelId }]));
    expect(await queries.get(realmId)).toMatchObject({
      messageContentEditLimitSeconds: null,
      description: 'Changed',
      nightLogoSource: 'U',
      nightLogoVersion: 2,
      signupAnnouncementsStreamId: channelId,
    });
    expect(await queries.get(otherRealmId)).toMatchObject({ messageContentEditLimitSeconds: 600, description: '', nightLogoVersion: 1 });
  });

  it('reads whether a web-public channel exists', async () => {
    const [{ id }] = await ds.query(`SELECT id FROM channels WHERE realm_id = $1 ORDER BY id LIMIT 1`, [otherRealmId]);
    await ds.query(`UPDATE channels SET is_web_public = true WHERE id = $1`, [id]);
    expect(await queries.get(otherRealmId)).toEqual(await expectedRecord(otherRealmId, true));
    await ds.query(`UPDATE channels SET is_web_public = false WHERE id = $1`, [id]);
    expect((await queries.get(otherRealmId)).hasWebPublicChannels).toBe(false);
  });

  it('reads and writes group settings: a named group by id, an anonymous one by its contents', async () => {
    const settings = await queries.groupSettings(realmId);
    expect(Object.values(settings).every((v) => typeof v === 'number')).toBe(true);
    const name = Object.keys(settings)[0];
    const [{ id: anon }] = await ds.query(`INSERT INTO user_groups (realm_id, name) VALUES ($1, NULL) RETURNING id`, [realmId]);
    const [{ id: named }] = await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1 AND name = 'role:members'`, [realmId]);
    await ds.query(`INSERT INTO user_group_members (group_id, user_id, realm_id) VALUES ($1, $2, $3)`, [anon, t.owner.id, realmId]);
    await ds.query(`INSERT INTO user_group_subgroups (supergroup_id, subgroup_id, realm_id) VALUES ($1, $2, $3)`, [anon, named, realmId]);
    await uow.run((tx) => tx.realms.setGroupSettings(realmId, { [name]: anon }));
    const value = { directMembers: [t.owner.id], directSubgroups: [named] };
    expect((await queries.groupSettings(realmId))[name]).toEqual(value);
    expect(await uow.run((tx) => tx.realms.groupSetting(realmId, name))).toEqual(value);
    expect(await uow.run((tx) => tx.realms.groupSettings(realmId))).toEqual({ ...settings, [name]: value });
    await expect(uow.run((tx) => tx.realms.groupSetting(realmId, 'no_such_setting'))).rejects.toThrow(`realm ${realmId} has no no_such_setting`);
    expect((await queries.groupSettings(otherRealmId))[name]).toEqual(expect.any(Number));
  });

  it('adds, finds, changes, counts and removes allowed domains in the order they were added', async () => {
    const a = await uow.run((tx) => tx.realms.addDomain(realmId, 'b.example', false));
    const b = await uow.run((tx) => tx.realms.addDomain(realmId, 'a.example', true));
    await uow.run((tx) => tx.realms.addDomain(otherRealmId, 'b.example', false));
    expect(await queries.domains(realmId)).toEqual([
      { id: a, domain: 'b.example', allowSubdomains: false },
      { id: b, domain: 'a.example', allowSubdomains: true },
    ]);
    expect(await uow.run((tx) => tx.realms.domains(realmId))).toEqual(await queries.domains(realmId));
    expect(await uow.run((tx) => tx.realms.findDomain(realmId, 'b.example'))).toEqual({ id: a, domain: 'b.example', allowSubdomains: false });
    expect(await uow.run((tx) => tx.realms.findDomain(realmId, 'c.example'))).toBeNull();
    await uow.run((tx) => tx.realms.setDomainAllowSubdomains(a, true));
    expect(await uow.run((tx) => tx.realms.findDomain(realmId, 'b.example'))).toMatchObject({ allowSubdomains: true });
    expect(await uow.run((tx) => tx.realms.countDomains(realmId))).toBe(2);
    await uow.run((tx) => tx.realms.removeDomain(b));
    expect(await uow.run((tx) => tx.realms.countDomains(realmId))).toBe(1);
    expect(await uow.run((tx) => tx.realms.countDomains(otherRealmId))).toBe(1);
    await expect(uow.run((tx) => tx.realms.addDomain(realmId, 'b.example', true))).rejects.toMatchObject({
      msg: 'The domain b.example is already a part of your organization.',
    });
  });

  it('lists linkifiers in application order and playgrounds by id', async () => {
    const def = { urlTemplate: 'https://x/{id}', exampleInput: 'X1', reverseTemplate: null, alternativeUrlTemplates: [] };
    const l1 = await uow.run((tx) => tx.linkifiers.insert(realmId, { ...def, pattern: 'A(?P<id>\\d+)' }));
    const l2 = await uow.run((tx) => tx.linkifiers.insert(realmId, { ...def, pattern: 'B(?P<id>\\d+)' }));
    await uow.run((tx) => tx.linkifiers.setOrder(realmId, [l2, l1]));
    expect(await queries.linkifiers(realmId)).toEqual([
      { id: l2, pattern: 'B(?P<id>\\d+)', ...def },
      { id: l1, pattern: 'A(?P<id>\\d+)', ...def },
    ]);
    const p = await uow.run((tx) => tx.playgrounds.insert(realmId, { name: 'P', pygmentsLanguage: 'Python', urlTemplate: 'https://p/{code}' }));
    expect(await queries.playgrounds(realmId)).toEqual([{ id: p, name: 'P', pygmentsLanguage: 'Python', urlTemplate: 'https://p/{code}' }]);
    expect(await queries.linkifiers(otherRealmId)).toEqual([]);
    expect(await queries.playgrounds(otherRealmId)).toEqual([]);
  });
});
