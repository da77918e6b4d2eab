import { defaultUserSettings } from '@app/domain/users';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { UserSettingsQueries } from '../../../src/users/application/user-settings.ports.js';
import {
  TypeOrmAccountRepository,
  TypeOrmEmailChangeRepository,
  TypeOrmPasswordResetRepository,
  TypeOrmUserSettingsQueries,
  TypeOrmUserSettingsRepository,
} from '../../../src/users/persistence/typeorm-user-settings.repository.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: UserSettingsQueries;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  queries = t.app.get(UserSettingsQueries);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  await t.createOrganization('other', 'other-owner@example.com');
  otherRealmId = (await ds.query(`SELECT id FROM realms WHERE string_id = 'other'`))[0].id;
});
afterAll(() => t.close());

const now = new Date('2025-05-06T07:08:09Z');
const later = new Date('2025-05-07T07:08:09Z');

async function userRow(u: Account): Promise<{ email: string; delivery_email: string; password_hash: string; date_joined: Date }> {
  return (await ds.query(`SELECT email, delivery_email, password_hash, date_joined FROM users WHERE id = $1`, [u.id]))[0];
}

describe('TypeOrmUserSettingsRepository / TypeOrmUserSettingsQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(queries).toBeInstanceOf(TypeOrmUserSettingsQueries);
    await uow.run(async (tx) => {
      expect(tx.userSettings).toBeInstanceOf(TypeOrmUserSettingsRepository);
      expect(tx.accounts).toBeInstanceOf(TypeOrmAccountRepository);
      expect(tx.emailChanges).toBeInstanceOf(TypeOrmEmailChangeRepository);
      expect(tx.passwordResets).toBeInstanceOf(TypeOrmPasswordResetRepository);
    });
  });

  it('maps the account and its settings whole (the resolved-topic policy by name), within the organization', async () => {
    const u = await t.createUser({ fullName: 'Settings One' });
    const row = await userRow(u);
    const settings = defaultUserSettings();
    expect(await uow.run((tx) => tx.userSettings.getForUpdate(realmId, u.id))).toEqual({
      userId: u.id,
      realmId,
      email: row.email,
      deliveryEmail: row.delivery_email,
      fullName: 'Settings One',
      role: 400,
      isBot: false,
      isActive: true,
      passwordHash: row.password_hash,
      avatarVersion: 1,
      avatarPath: null,
      settings,
    });
    expect(await uow.run((tx) => tx.userSettings.getForUpdate(otherRealmId, u.id))).toBeNull();
    expect(await queries.settingsOf(realmId, u.id)).toEqual(settings);
    expect(await queries.credentials(realmId, u.id)).toEqual({ passwordHash: row.password_hash, deliveryEmail: row.delivery_email, passwordAuthEnabled: true });
    expect(await queries.loginNoticeFacts(realmId, u.id)).toEqual({
      deliveryEmail: row.delivery_email,
      isBot: false,
      dateJoined: row.date_joined,
      enableLoginEmails: true,
      timezone: '',
      twentyFourHourTime: false,
    });
    expect(await queries.loginNoticeFacts(otherRealmId, u.id)).toBeNull();
  });

  it('applies setting changes (the policy stored by number) only within the organization', async () => {
    const u = await t.createUser();
    const changes = [
      { name: 'twenty_four_hour_time', value: true },
      { name: 'web_font_size_px', value: 18 },
      { name: 'emojiset', value: 'text' },
      { name: 'resolved_topic_notice_auto_read_policy', value: 'never' },
    ] as const;
    await uow.run((tx) => tx.userSettings.apply(otherRealmId, u.id, changes));
    expect(await queries.settingsOf(realmId, u.id)).toEqual(defaultUserSettings());
    await uow.run((tx) => tx.userSettings.apply(realmId, u.id, changes));
    await uow.run((tx) => tx.userSettings.apply(realmId, u.id, []));
    expect(await queries.settingsOf(realmId, u.id)).toEqual({
      ...defaultUserSettings(),
      twenty_four_hour_time: true,
      web_font_size_px: 18,
      emojiset: 'text',
      resolved_topic_notice_auto_read_policy: 'never',
    });
    const [row] = await ds.query(`SELECT resolved_topic_notice_auto_read_policy AS p FROM users WHERE id = $1`, [u.id]);
    expect(row.p).toBe(3);
  });

  it('applies a setting to the organization’s humans whose value differs, skipping self-edits on request', async () => {
    const [a, b, c] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const bot = await t.createBot(t.owner, 'settingsbot');
    await uow.run((tx) => tx.userSettings.apply(realmId, c.id, [{ name: 'enter_sends', value: true }]));
    await uow.run(async (tx) => {
      await tx.userSettings.recordSelfEdits(b.id, ['enter_sends']);
      await tx.userSettings.recordSelfEdits(b.id, ['enter_sends']);
      await tx.userSettings.recordSelfEdits(b.id, []);
    });
    const ids = [a.id, b.id, c.id, bot.id];
    expect(await uow.run((tx) => tx.userSettings.applyToUsers(otherRealmId, ids, 'enter_sends', true, false))).toEqual([]);
    const changed = await uow.run((tx) => tx.userSettings.applyToUsers(realmId, ids, 'enter_sends', true, true));
    expect(changed).toEqual([{ id: a.id, email: (await userRow(a)).email }]);
    expect((await uow.run((tx) => tx.userSettings.applyToUsers(realmId, ids, 'enter_sends', true, false))).map((r) => r.id)).toEqual([b.id]);
    expect(await uow.run((tx) => tx.userSettings.applyToUsers(realmId, [], 'enter_sends', true, false))).toEqual([]);
    expect(await uow.run((tx) => tx.userSettings.humansAmong(realmId, [a.id, bot.id, 999_999]))).toEqual({ humans: [a.id], unknown: [999_999] });
    expect(await uow.run((tx) => tx.userSettings.humansAmong(otherRealmId, [a.id]))).toEqual({ humans: [], unknown: [a.id] });
  });

  it('reads group members through subgroups, and the active users of some roles', async () => {
    const admin = await t.createUser({ role: 200 });
    const groups: { id: number; name: string }[] = await ds.query(
      `SELECT id, name FROM user_groups WHERE realm_id = $1 AND name IN ('role:administrators', 'role:owners')`,
      [realmId],
    );
    const adminsGroup = groups.find((g) => g.name === 'role:administrators')!.id;
    const [{ id: foreignGroup }] = await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1 AND name = 'role:owners'`, [otherRealmId]);
    const members = await uow.run((tx) => tx.userSettings.membersOfGroups(realmId, [adminsGroup, foreignGroup]));
    expect(members.unknown).toEqual([foreignGroup]);
    expect(members.userIds.sort((a, b) => a - b)).toEqual([t.owner.id, admin.id].sort((a, b) => a - b));
    expect(await uow.run((tx) => tx.userSettings.membersOfGroups(realmId, []))).toEqual({ userIds: [], unknown: [] });
    expect(await uow.run((tx) => tx.userSettings.activeUserIdsWithRoles(realmId, [100, 200], t.owner.id))).toEqual([admin.id]);
    expect(await uow.run((tx) => tx.userSettings.activeUserIdsWithRoles(realmId, [], 0))).toEqual([]);
  });
});

describe('TypeOrmAccountRepository', () => {
  it('replaces the password hash only while it is the expected one, and sets the key and addresses', async () => {
    const u = await t.createUser();
    const old = (await userRow(u)).password_hash;
    expect(await uow.run((tx) => tx.accounts.replacePasswordHash(otherRealmId, u.id, old, 'h1'))).toBe(false);
    expect(await uow.run((tx) => tx.accounts.replacePasswordHash(realmId, u.id, 'stale', 'h1'))).toBe(false);
    expect(await uow.run((tx) => tx.accounts.replacePasswordHash(realmId, u.id, old, 'h1'))).toBe(true);
    expect(await uow.run((tx) => tx.accounts.replacePasswordHash(realmId, u.id, 'h1', 'h2'))).toBe(true);
    await ds.query(`UPDATE users SET password_hash = NULL WHERE id = $1`, [u.id]);
    expect(await uow.run((tx) => tx.accounts.replacePasswordHash(realmId, u.id, null, 'h3'))).toBe(true);

    await uow.run((tx) => tx.accounts.setApiKey(otherRealmId, u.id, 'x'.repeat(32)));
    await uow.run((tx) => tx.accounts.setApiKey(realmId, u.id, 'k'.repeat(32)));
    await uow.run((tx) => tx.accounts.setEmails(realmId, u.id, { deliveryEmail: 'moved@example.com' }));
    expect(await ds.query(`SELECT password_hash, api_key, email, delivery_email FROM users WHERE id = $1`, [u.id])).toEqual([
      { password_hash: 'h3', api_key: 'k'.repeat(32), email: (await userRow(u)).email, delivery_email: 'moved@example.com' },
    ]);
    await uow.run((tx) => tx.accounts.setEmails(realmId, u.id, { email: 'api@example.com' }));
    expect((await userRow(u)).email).toBe('api@example.com');
  });
});

describe('TypeOrmEmailChangeRepository', () => {
  it('creates a request (revoking the older pending one), maps it whole, and marks it used', async () => {
    const u = await t.createUser();
    const req = (key: string) => ({ realmId, userId: u.id, oldEmail: 'old@example.com', newEmail: `${key}@example.com`, key, now, expiresAt: later });
    await uow.run((tx) => tx.emailChanges.create(req('first')));
    await uow.run((tx) => tx.emailChanges.create(req('second')));
    const first = await uow.run((tx) => tx.emailChanges.findByKeyForUpdate('first'));
    expect(first).toEqual({ id: expect.any(Number), realmId, userId: u.id, oldEmail: 'old@example.com', newEmail: 'first@example.com', expiresAt: later, status: 'revoked' });
    const second = (await uow.run((tx) => tx.emailChanges.findByKeyForUpdate('second')))!;
    expect(second.status).toBe('pending');
    await uow.run((tx) => tx.emailChanges.markUsed(second.id));
    expect(await uow.run((tx) => tx.emailChanges.findByKeyForUpdate('second'))).toEqual({ ...second, status: 'used' });
    expect(await uow.run((tx) => tx.emailChanges.findByKeyForUpdate('unknown'))).toBeNull();
  });
});

describe('TypeOrmPasswordResetRepository', () => {
  it('finds a link by its token digest and uses up every link of the user', async () => {
    const u = await t.createUser();
    await uow.run(async (tx) => {
      await tx.passwordResets.create({ realmId, userId: u.id, tokenSha256: 'a'.repeat(64), now, expiresAt: later });
      await tx.passwordResets.create({ realmId, userId: u.id, tokenSha256: 'b'.repeat(64), now, expiresAt: later });
    });
    const link = await uow.run((tx) => tx.passwordResets.findForUpdate('a'.repeat(64)));
    expect(link).toEqual({ id: expect.any(Number), realmId, userId: u.id, expiresAt: later, used: false });
    await uow.run((tx) => tx.passwordResets.useAll(u.id, now));
    expect(await uow.run((tx) => tx.passwordResets.findForUpdate('a'.repeat(64)))).toEqual({ ...link, used: true });
    expect(await uow.run((tx) => tx.passwordResets.findForUpdate('b'.repeat(64)))).toMatchObject({ used: true });
    expect(await uow.run((tx) => tx.passwordResets.findForUpdate('c'.repeat(64)))).toBeNull();
  });
});
