import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { UserQueries, type UserRecord } from '../../../src/users/application/user.ports.js';
import { TypeOrmUserQueries } from '../../../src/users/persistence/typeorm-user.queries.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: UserQueries;
let realmId: number;
let otherRealmId: number;
let member: Account;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  queries = t.app.get(UserQueries);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  member = await t.createUser({ fullName: 'Member One', email: 'member.one@example.com' });
  await t.createOrganization('other', 'other-owner@example.com');
  otherRealmId = (await ds.query(`SELECT id FROM realms WHERE string_id = 'other'`))[0].id;
});
afterAll(() => t.close());

/** The member's record as the adapter maps it (every column but the secrets). */
async function memberRecord(): Promise<UserRecord> {
  const [row] = await ds.query(`SELECT email, date_joined FROM users WHERE id = $1`, [member.id]);
  return {
    id: member.id,
    realmId,
    email: row.email,
    deliveryEmail: 'member.one@example.com',
    fullName: 'Member One',
    role: 400,
    isActive: true,
    isBot: false,
    botType: null,
    botOwnerId: null,
    isSystemBot: false,
    dateJoined: row.date_joined,
    timezone: '',
    avatarVersion: 1,
    avatarPath: null,
    defaultSendingStreamId: null,
    defaultEventsRegisterStreamId: null,
    defaultAllPublicStreams: false,
    emailAddressVisibility: 1,
  };
}

async function addField(name: string): Promise<number> {
  return uow.run((tx) =>
    tx.profileFields.insert(realmId, {
      name,
      hint: '',
      type: 1,
      fieldData: '',
      displayInProfileSummary: false,
      required: false,
      editableByUser: true,
      useForUserMatching: false,
    }),
  );
}

describe('TypeOrmUserQueries', () => {
  it('is the UserQueries adapter', () => {
    expect(queries).toBeInstanceOf(TypeOrmUserQueries);
  });

  it('reads credentials by real address, case-insensitively, within the organization', async () => {
    const [realm] = await ds.query(`SELECT settings_version FROM realms WHERE id = $1`, [realmId]);
    const [secrets] = await ds.query(`SELECT email, api_key, password_hash FROM users WHERE id = $1`, [member.id]);
    expect(await queries.credentialsByEmail(realmId, 'MEMBER.one@example.com')).toEqual({
      userId: member.id,
      realmId,
      email: secrets.email,
      deliveryEmail: 'member.one@example.com',
      apiKey: secrets.api_key,
      passwordHash: secrets.password_hash,
      role: 400,
      isActive: true,
      isBot: false,
      botType: null,
      realmDeactivated: false,
      passwordAuthEnabled: true,
      settingsVersion: Number(realm.settings_version),
    });
    expect(await queries.credentialsByEmail(otherRealmId, 'member.one@example.com')).toBeNull();
  });

  it('maps a user row whole, and scopes get and findByDeliveryEmail by organization', async () => {
    const expected = await memberRecord();
    expect(await queries.get(realmId, member.id)).toEqual(expected);
    expect(await queries.get(otherRealmId, member.id)).toBeNull();
    expect(await queries.findByDeliveryEmail(realmId, ' Member.One@example.com ', [1, 2])).toEqual(expected);
    expect(await queries.findByDeliveryEmail(realmId, 'member.one@example.com', [2, 3])).toBeNull();
    expect(await queries.findByDeliveryEmail(otherRealmId, 'member.one@example.com', [1])).toBeNull();
  });

  it('lists the organization’s users by id without the system bots, and the system bots apart', async () => {
    const users = await queries.list(realmId);
    expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => a - b));
    expect(users).toContainEqual(await memberRecord());
    expect(users.every((u) => u.realmId === realmId && !u.isSystemBot)).toBe(true);
    const bots = await queries.systemBots(realmId);
    expect(bots.length).toBeGreaterThan(0);
    expect(bots.every((u) => u.realmId === realmId && u.isSystemBot && u.isBot)).toBe(true);
    expect((await queries.list(otherRealmId)).map((u) => u.id)).not.toContain(member.id);
  });

  it('reads the newest message a user received (-1: none)', async () => {
    const u = await t.createUser();
    expect(await queries.maxMessageId(u.id)).toBe(-1);
    const res = await t.post('messages', { as: u, form: { type: 'direct', to: JSON.stringify([u.id]), content: 'note to self' } });
    expect(res.status).toBe(200);
    expect(await queries.maxMessageId(u.id)).toBe(res.body.id);
    const own = await queries.ownProfile(realmId, u.id);
    expect(own?.maxMessageId).toBe(res.body.id);
  });

  it('reads the own profile with its field values in field order, and the directory with everyone’s', async () => {
    const a = await addField('Zeta');
    const b = await addField('Alpha');
    await uow.run(async (tx) => {
      await tx.profileFields.setOrder(realmId, new Map([[a, 2], [b, 1]]));
      await tx.profileFields.upsertValues(realmId, member.id, [
        { fieldId: a, value: 'z', renderedValue: null },
        { fieldId: b, value: 'a', renderedValue: '<p>a</p>' },
      ]);
    });
    const values = [
      { userId: member.id, fieldId: b, value: 'a', renderedValue: '<p>a</p>' },
      { userId: member.id, fieldId: a, value: 'z', renderedValue: null },
    ];
    expect(await queries.ownProfile(realmId, member.id)).toEqual({ user: await memberRecord(), profileValues: values, maxMessageId: -1 });
    expect(await queries.ownProfile(otherRealmId, member.id)).toBeNull();
    const owner = await queries.ownProfile(realmId, t.owner.id);
    expect(owner?.profileValues).toEqual([]);

    const directory = await queries.directory(realmId);
    expect(directory.users).toEqual(await queries.list(realmId));
    expect(directory.systemBots).toEqual(await queries.systemBots(realmId));
    expect(directory.profileValues.get(member.id)).toEqual(values);
    expect(directory.profileValues.has(t.owner.id)).toBe(false);
    expect((await queries.directory(otherRealmId)).users.map((u) => u.id)).not.toContain(member.id);
  });

  it('lists the named groups with members, subgroups and settings (deactivated ones on request)', async () => {
    const groups = await queries.listGroups(realmId, false);
    const members = groups.find((g) => g.name === 'role:members');
    expect(members).toMatchObject({ isSystemGroup: true, deactivated: false, creatorId: null, description: expect.any(String) });
    expect(members?.members).toContain(member.id);
    expect(members?.directSubgroupIds.length).toBeGreaterThan(0);
    expect(Object.keys(members?.settings ?? {}).length).toBeGreaterThan(0);
    expect(Object.values(members?.settings ?? {}).every((v) => typeof v === 'number' || 'directMembers' in v)).toBe(true);
    expect(groups.every((g) => g.name !== null)).toBe(true);

    const [{ id }] = await ds.query(
      `INSERT INTO user_groups (realm_id, name, description, creator_id, date_created, deactivated,
         can_add_members_group_id, can_join_group_id, can_leave_group_id, can_manage_group_id, can_mention_group_id, can_remove_members_group_id)
       SELECT realm_id, 'retired', 'd', $2, now(), true,
         can_add_members_group_id, can_join_group_id, can_leave_group_id, can_manage_group_id, can_mention_group_id, can_remove_members_group_id
       FROM user_groups WHERE realm_id = $1 AND name = 'role:members' RETURNING id`,
      [realmId, t.owner.id],
    );
    expect((await queries.listGroups(realmId, false)).map((g) => g.id)).not.toContain(id);
    expect((await queries.listGroups(realmId, true)).find((g) => g.id === id)).toMatchObject({ name: 'retired', deactivated: true, creatorId: t.owner.id });
    expect((await queries.listGroups(otherRealmId, true)).map((g) => g.id)).not.toContain(id);
  });
});
