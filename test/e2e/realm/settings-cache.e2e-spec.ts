import type { Actor } from '@app/domain/users';
import pg from 'pg';
import { SETTINGS_CHANGED_CHANNEL, SettingsInvalidation } from '../../../src/shared/application/settings-invalidation.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { writesSettings } from '../../../src/shared/persistence/settings-scope.js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { CredentialCache } from '../../../src/users/application/credential-cache.js';
import { systemGroups } from '../../support/channels.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * The per-process settings cache (organization settings, group membership) is never stale:
 * two servers on one database, a change through A is seen by B's very next authenticated
 * request (the version read by its auth query), and by B's unauthenticated reads once the
 * change notification arrives.
 */
let a: TestApp;
let b: TestApp;
let member: Account;
let other: Account;
let groups: Record<string, number>;
let listener: pg.Client;

beforeAll(async () => {
  a = await TestApp.start();
  b = await a.startPeer();
  member = await a.createUser();
  other = await a.createUser();
  groups = await systemGroups(a);
  // Stands in for the event listener (which hands `svc_settings` notifications to the cache):
  // B learns of changes exactly as a server does, from the database's notification.
  listener = new pg.Client({ connectionString: a.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    if (n.channel === SETTINGS_CHANGED_CHANNEL) b.app.get(SettingsInvalidation).changed(Number(n.payload));
  });
  await listener.query(`LISTEN ${SETTINGS_CHANGED_CHANNEL}`);
});
afterAll(async () => {
  await listener?.end();
  await b?.close();
  await a?.close();
});

const patchRealm = (form: Record<string, unknown>) => a.patch('realm', { form });
const dm = (on: TestApp, from: Account, to: Account) => on.post('messages', { as: from, form: { type: 'direct', to: [to.id], content: 'hi' } });
const version = async () => Number((await a.sql(`SELECT settings_version FROM realms WHERE id = 1`))[0].settings_version);

describe('two servers on one database', () => {
  afterAll(async () => expectSuccess(await patchRealm({ direct_message_permission_group: { new: groups['role:everyone'] } })));
  // B learns of a change from the notification (its cached credentials carry the settings
  // version it saw): a moment after A's commit, bounded here.
  const onB = async (status: number) =>
    vi.waitFor(async () => expect((await dm(b, member, other)).status).toBe(status), { timeout: 10_000, interval: 20 });

  it('a permission setting changed through A holds on B once the notification arrives', async () => {
    expectSuccess(await dm(b, member, other)); // B's cache is warm
    expectSuccess(await patchRealm({ direct_message_permission_group: { new: groups['role:nobody'] } }));
    await onB(400);
    expectSuccess(await patchRealm({ direct_message_permission_group: { new: groups['role:everyone'] } }));
    await onB(200);
  });

  it('group membership changed through A holds on B once the notification arrives', async () => {
    const created = await a.post('user_groups/create', { form: { name: 'may write', description: 'd', members: [] } });
    expectSuccess(created);
    const g = created.body.group_id as number;
    expectSuccess(await patchRealm({ direct_message_permission_group: { new: { direct_members: [], direct_subgroups: [g] } } }));
    await onB(400);
    expect((await dm(b, member, other)).status).toBe(400); // now from B's cache
    expectSuccess(await a.post(`user_groups/${g}/members`, { form: { add: [member.id, other.id] } }));
    await onB(200);
    expectSuccess(await a.post(`user_groups/${g}/members`, { form: { delete: [member.id, other.id] } }));
    await onB(400);
  });

  it("a role changed through A holds on B once the notification arrives (the role's system group)", async () => {
    expectSuccess(await patchRealm({ direct_message_permission_group: { new: groups['role:administrators'] } }));
    await onB(400);
    expect((await dm(b, member, other)).status).toBe(400);
    expectSuccess(await a.patch(`users/${member.id}`, { form: { role: 200 } }));
    await onB(200);
    expectSuccess(await a.patch(`users/${member.id}`, { form: { role: 400 } }));
    await onB(400);
  });

  it('server_settings: read-your-writes on A, and B once the notification arrives', async () => {
    const name = async (on: TestApp) => (await on.get('server_settings', { as: null })).body.realm_name;
    expect(await name(a)).toBe(await name(b)); // both cached now
    expectSuccess(await patchRealm({ name: 'Renamed Org' }));
    expect(await name(a)).toBe('Renamed Org');
    await vi.waitFor(async () => expect(await name(b)).toBe('Renamed Org'), { timeout: 10_000, interval: 20 });
  });
});

describe('versions', () => {
  it('every write the cache depends on gives the organization a new version', async () => {
    const writes = [
      `UPDATE realms SET description = description || 'x' WHERE id = 1`,
      `INSERT INTO linkifiers (realm_id, pattern, url_template, "order") VALUES (1, 'v(?P<id>[0-9]+)', 'https://v.example/{id}', 99)`,
      `DELETE FROM linkifiers WHERE realm_id = 1 AND "order" = 99`,
      `UPDATE user_groups SET description = 'changed' WHERE realm_id = 1 AND name = 'may write'`,
      `INSERT INTO user_group_members (group_id, user_id, realm_id) SELECT id, ${other.id}, 1 FROM user_groups WHERE name = 'may write'`,
      `DELETE FROM user_group_members WHERE user_id = ${other.id} AND group_id = (SELECT id FROM user_groups WHERE name = 'may write')`,
      `INSERT INTO user_group_subgroups (supergroup_id, subgroup_id, realm_id)
       SELECT g.id, s.id, 1 FROM user_groups g, user_groups s WHERE g.name = 'may write' AND s.name = 'role:members'`,
      `DELETE FROM user_group_subgroups WHERE supergroup_id = (SELECT id FROM user_groups WHERE name = 'may write')`,
      `UPDATE users SET is_active = false WHERE id = ${other.id}`,
      `UPDATE users SET is_active = true WHERE id = ${other.id}`,
      `UPDATE realm_group_settings SET group_id = group_id WHERE realm_id = 1`,
    ];
    for (const sql of writes) {
      const before = await version();
      await a.sql(sql);
      expect(await version(), sql).toBeGreaterThan(before);
    }
    const before = await version();
    await a.sql(`UPDATE users SET full_name = full_name || '.' WHERE id = ${other.id}`);
    expect(await version()).toBe(before);
  });
});

describe('inside one transaction', () => {
  const actor = async (): Promise<Actor> => ({
    userId: a.owner.id,
    realmId: 1,
    email: a.owner.email,
    role: 100,
    isBot: false,
    botType: null,
    settingsVersion: await version(),
  });

  it('a transaction that changed settings reads its own changes, and never caches them', async () => {
    const uow = a.app.get(UnitOfWork);
    const me = await actor();
    const original = (await uow.run((tx) => tx.realms.get(1, me))).name;
    await expect(
      uow.run(async (tx) => {
        expect((await tx.realms.get(1, me)).name).toBe(original); // cached
        await tx.realms.updateProperties(1, { name: 'Uncommitted' } as never);
        expect((await tx.realms.get(1, me)).name).toBe('Uncommitted');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await uow.run((tx) => tx.realms.get(1, me))).name).toBe(original);
    expect((await a.get('server_settings', { as: null })).body.realm_name).toBe(original);
  });
});

describe('statements', () => {
  it('a warm send reads none of the cached settings', async () => {
    const counter = a.app.get(StatementCounter);
    const send = () => a.post('messages', { as: member, form: { type: 'direct', to: [other.id], content: 'warm' } });
    expectSuccess(await send());
    counter.statements = [];
    try {
      expectSuccess(await send());
      const cachedReads = counter.statements.filter((s) =>
        /realm_group_settings|FROM user_groups|FROM realms|linkifiers|WITH RECURSIVE up/i.test(s),
      );
      expect(cachedReads).toEqual([]);
      // Nor does it write anything the cache reads (which would evict this process's entries).
      expect(counter.statements.filter(writesSettings)).toEqual([]);
    } finally {
      counter.statements = null;
    }
  });

  it('GET /users/me is the auth query and one read', async () => {
    const counter = a.app.get(StatementCounter);
    expectSuccess(await a.get('users/me', { as: member }));
    // The auth query is counted: no warm credential cache spares it (B's included: passport, which
    // calls the authenticator, keeps one strategy per process, the last app's).
    for (const app of [a, b]) app.app.get(CredentialCache).all();
    const before = counter.count;
    const res = await a.get('users/me', { as: member });
    expectSuccess(res, { user_id: member.id, email: member.email, profile_data: {} });
    expect(res.body.max_message_id).toBeGreaterThan(0);
    expect(counter.count - before).toBe(2);
  });

  it('cold, the organization settings take one statement and no group members beyond anonymous groups', async () => {
    const counter = b.app.get(StatementCounter);
    b.app.get(SettingsInvalidation).all();
    // A change gives the organization a new version: B's next send loads everything again.
    await a.sql(`UPDATE realms SET description = description WHERE id = 1`);
    counter.statements = [];
    try {
      expectSuccess(await dm(b, member, other));
      const settingsReads = counter.statements.filter((s) => /realm_group_settings/.test(s));
      expect(settingsReads).toHaveLength(1);
      expect(counter.statements.filter((s) => /FROM user_groups g WHERE g.realm_id/.test(s))).toEqual([]);
    } finally {
      counter.statements = null;
    }
  });
});
