import { DataSource } from 'typeorm';
import { RealmEmojiQueries } from '../../../src/emoji/application/realm-emoji.ports.js';
import { TypeOrmRealmEmojiQueries, TypeOrmRealmEmojiRepository } from '../../../src/emoji/persistence/typeorm-realm-emoji.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TestApp } from '../../support/test-app.js';
import { failure } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;
  realmId = await realmOf(t.owner.id);
  otherRealmId = await realmOf((await t.createOrganization('emojiother')).id);
});
afterAll(() => t.close());

/** A finished upload (the file name set). */
async function uploaded(realm: number, name: string, authorId: number | null = null, animated = false): Promise<number> {
  return uow.run(async (tx) => {
    const id = await tx.realmEmoji.insert({ realmId: realm, name, authorId });
    await tx.realmEmoji.finishUpload(realm, id, `${id}.${animated ? 'gif' : 'png'}`, animated);
    return id;
  });
}

describe('TypeOrmRealmEmojiRepository / TypeOrmRealmEmojiQueries', () => {
  it('are what the transaction and the module hand out', async () => {
    await uow.run(async (tx) => expect(tx.realmEmoji).toBeInstanceOf(TypeOrmRealmEmojiRepository));
    expect(t.app.get(RealmEmojiQueries)).toBeInstanceOf(TypeOrmRealmEmojiQueries);
  });

  it('lists finished uploads (deactivated ones included) with every column, by id, within the organization', async () => {
    const pending = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'list_pending', authorId: t.owner.id }));
    const a = await uploaded(realmId, 'list_a', t.owner.id, true);
    const b = await uploaded(realmId, 'list_b');
    await uow.run((tx) => tx.realmEmoji.deactivate(realmId, b));
    const theirs = await uploaded(otherRealmId, 'list_theirs');
    const expected = [
      { id: a, realmId, name: 'list_a', authorId: t.owner.id, fileName: `${a}.gif`, isAnimated: true, deactivated: false },
      { id: b, realmId, name: 'list_b', authorId: null, fileName: `${b}.png`, isAnimated: false, deactivated: true },
    ];
    const mine = <T extends { id: number }>(list: T[]) => list.filter((e) => [pending, a, b, theirs].includes(e.id));
    expect(mine(await t.app.get(RealmEmojiQueries).list(realmId))).toEqual(expected);
    expect(mine(await uow.run((tx) => tx.realmEmoji.list(realmId)))).toEqual(expected);
    const ids = (await uow.run((tx) => tx.realmEmoji.list(realmId))).map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(mine(await uow.run((tx) => tx.realmEmoji.customEmoji(realmId)))).toEqual([
      { id: a, name: 'list_a', deactivated: false },
      { id: b, name: 'list_b', deactivated: true },
    ]);
    expect(mine(await uow.run((tx) => tx.realmEmoji.customEmoji(otherRealmId)))).toEqual([{ id: theirs, name: 'list_theirs', deactivated: false }]);
  });

  it('reads the active finished emoji of some names', async () => {
    const a = await uploaded(realmId, 'named_a', t.owner.id);
    const gone = await uploaded(realmId, 'named_gone');
    await uow.run((tx) => tx.realmEmoji.deactivate(realmId, gone));
    await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'named_pending', authorId: null }));
    await uploaded(otherRealmId, 'named_theirs');
    expect(await uow.run((tx) => tx.realmEmoji.activeNamed(realmId, ['named_a', 'named_gone', 'named_pending', 'named_theirs', 'NAMED_A']))).toEqual([
      { id: a, realmId, name: 'named_a', authorId: t.owner.id, fileName: `${a}.png`, isAnimated: false, deactivated: false },
    ]);
    expect(await uow.run((tx) => tx.realmEmoji.activeNamed(realmId, []))).toEqual([]);
  });

  it('locks the active emoji of a name, with its author, whether or not its upload finished', async () => {
    const pending = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'lock_me', authorId: t.owner.id }));
    await uow.run(async (tx) => {
      expect(await tx.realmEmoji.lockActiveNamed(realmId, 'lock_me')).toBe(pending);
      expect(await tx.realmEmoji.lockActive(realmId, 'lock_me')).toEqual({ id: pending, authorId: t.owner.id });
      expect(await tx.realmEmoji.lockActive(otherRealmId, 'lock_me')).toBeNull();
      expect(await tx.realmEmoji.lockActiveNamed(otherRealmId, 'lock_me')).toBeNull();
    });
    const holder = uow.run(async (tx) => {
      await tx.realmEmoji.lockActive(realmId, 'lock_me');
      await expect(t.sql(`SELECT 1 FROM realm_emoji WHERE id = $1 FOR UPDATE NOWAIT`, [pending])).rejects.toThrow(/could not obtain lock/);
    });
    await holder;
  });

  it('changes only rows of the organization it is given', async () => {
    const id = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'scoped', authorId: null }));
    await uow.run(async (tx) => {
      await tx.realmEmoji.finishUpload(otherRealmId, id, 'x.png', true);
      await tx.realmEmoji.deactivate(otherRealmId, id);
    });
    expect(await ds.query(`SELECT file_name, is_animated, deactivated FROM realm_emoji WHERE id = $1`, [id])).toEqual([
      { file_name: null, is_animated: false, deactivated: false },
    ]);
  });

  it('reports a duplicate active name lost to a concurrent writer as the rule it protects, and frees it on deactivation', async () => {
    const first = await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'racy', authorId: null }));
    const e = await failure(uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'racy', authorId: null })));
    expect([e.msg, e.code]).toEqual(['A custom emoji with this name already exists.', 'BAD_REQUEST']);
    expect(await uow.run((tx) => tx.realmEmoji.insert({ realmId: otherRealmId, name: 'racy', authorId: null }))).toBeGreaterThan(first);
    await uow.run((tx) => tx.realmEmoji.deactivate(realmId, first));
    expect(await uow.run((tx) => tx.realmEmoji.insert({ realmId, name: 'racy', authorId: null }))).toBeGreaterThan(first);
  });

  it('reads the groups a user belongs to, through subgroups', async () => {
    const [{ id: moderators }] = await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1 AND name = 'role:moderators'`, [realmId]);
    const [{ id: members }] = await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1 AND name = 'role:members'`, [realmId]);
    const groups = await uow.run((tx) => tx.realmEmoji.groupIdsOfUser(t.owner.id));
    expect(groups).toContain(moderators);
    expect(groups).toContain(members);
  });
});
