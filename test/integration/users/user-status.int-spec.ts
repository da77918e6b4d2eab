import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TestApp } from '../../support/test-app.js';
import { UserStatusQueries } from '../../../src/users/application/user-status.ports.js';
import { RealmEmojiQueries } from '../../../src/emoji/application/realm-emoji.ports.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  realmId = (await ds.query('SELECT realm_id FROM users WHERE id = $1', [t.owner.id]))[0].realm_id;
});
afterAll(() => t.close());

const now = new Date('2025-01-02T03:04:05Z');

describe('TypeOrmUserStatusRepository / TypeOrmUserStatusQueries', () => {
  it('lists the whole statuses of the organization in user order', async () => {
    const [a, b] = [await t.createUser(), await t.createUser()];
    await uow.run(async (tx) => {
      await tx.userStatus.upsert(realmId, b.id, { emoji: { name: 'zulip', code: 'zulip', reactionType: 'zulip_extra_emoji' } }, now);
      await tx.userStatus.upsert(realmId, a.id, { statusText: 'away' }, now);
    });
    const listed = (await t.app.get(UserStatusQueries).listActive(realmId)).filter((s) => s.userId === a.id || s.userId === b.id);
    expect(listed).toEqual([
      { userId: a.id, presenceEnabled: true, statusText: 'away', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' },
      { userId: b.id, presenceEnabled: true, statusText: '', emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' },
    ]);
    expect(await t.app.get(UserStatusQueries).get(realmId, t.owner.id)).toBeNull();
  });

  it('creates the row on the first update, with defaults for what was not given', async () => {
    const u = await t.createUser();
    await uow.run((tx) => tx.userStatus.upsert(realmId, u.id, {}, now));
    const [row] = await ds.query('SELECT * FROM user_status WHERE user_id = $1', [u.id]);
    expect(row).toEqual({
      user_id: u.id,
      realm_id: realmId,
      status_text: '',
      emoji_name: '',
      emoji_code: '',
      reaction_type: 'unicode_emoji',
      updated_at: now,
    });
  });

  it('changes only the given parts and reads them back with the presence setting', async () => {
    const u = await t.createUser();
    const later = new Date(now.getTime() + 60_000);
    await uow.run(async (tx) => {
      await tx.userStatus.upsert(realmId, u.id, { statusText: 'busy' }, now);
      await tx.userStatus.upsert(realmId, u.id, { emoji: { name: 'car', code: '1f697', reactionType: 'unicode_emoji' } }, later);
      await tx.userStatus.setPresenceEnabled(realmId, u.id, false);
    });
    expect(await t.app.get(UserStatusQueries).get(realmId, u.id)).toEqual({
      userId: u.id,
      presenceEnabled: false,
      statusText: 'busy',
      emojiName: 'car',
      emojiCode: '1f697',
      reactionType: 'unicode_emoji',
    });
    const [row] = await ds.query('SELECT updated_at FROM user_status WHERE user_id = $1', [u.id]);
    expect(row.updated_at).toEqual(later);
  });

  it('scopes reads and writes by organization', async () => {
    const u = await t.createUser();
    await uow.run(async (tx) => {
      await tx.userStatus.upsert(realmId, u.id, { statusText: 'mine' }, now);
      await tx.userStatus.setPresenceEnabled(realmId + 1000, u.id, false);
      await tx.userStatus.upsert(realmId + 1000, u.id, { statusText: 'hijack' }, now);
    });
    const queries = t.app.get(UserStatusQueries);
    expect(await queries.get(realmId + 1000, u.id)).toBeNull();
    expect(await queries.get(realmId, u.id)).toMatchObject({ statusText: 'mine', presenceEnabled: true });
    expect((await queries.listActive(realmId + 1000)).length).toBe(0);
  });

  it('lists active users only', async () => {
    const u = await t.createUser();
    await uow.run((tx) => tx.userStatus.upsert(realmId, u.id, { statusText: 'x' }, now));
    const ids = async () => (await t.app.get(UserStatusQueries).listActive(realmId)).map((s) => s.userId);
    expect(await ids()).toContain(u.id);
    await ds.query('UPDATE users SET is_active = false WHERE id = $1', [u.id]);
    expect(await ids()).not.toContain(u.id);
  });
});

describe('TypeOrmRealmEmojiRepository / queries', () => {
  it('hides rows whose upload has not finished', async () => {
    const id = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'pending', authorId: t.owner.id }));
    expect(await uow.run((tx) => tx.realmEmoji.customEmoji(realmId))).not.toContainEqual(expect.objectContaining({ id }));
    expect((await t.app.get(RealmEmojiQueries).list(realmId)).map((e) => e.id)).not.toContain(id);
    await uow.run((tx) => tx.realmEmoji.finishUpload(realmId, id, 'f.gif', true));
    expect(await uow.run((tx) => tx.realmEmoji.customEmoji(realmId))).toContainEqual({ id, name: 'pending', deactivated: false });
    expect((await t.app.get(RealmEmojiQueries).list(realmId)).find((e) => e.id === id)).toEqual({
      id,
      realmId,
      name: 'pending',
      authorId: t.owner.id,
      fileName: 'f.gif',
      isAnimated: true,
      deactivated: false,
    });
  });

  it('reports a duplicate active name lost to a concurrent writer as the rule it protects', async () => {
    await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'racy', authorId: null }));
    await expect(uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'racy', authorId: null }))).rejects.toMatchObject({
      msg: 'A custom emoji with this name already exists.',
    });
  });

  it('frees the name once the emoji is deactivated', async () => {
    const first = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'reused', authorId: null }));
    await uow.run(async (tx) => {
      expect(await tx.realmEmoji.lockActiveNamed(realmId, 'reused')).toBe(first);
      await tx.realmEmoji.deactivate(realmId, first);
      expect(await tx.realmEmoji.lockActiveNamed(realmId, 'reused')).toBeNull();
    });
    const second = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'reused', authorId: null }));
    expect(second).not.toBe(first);
  });
});
