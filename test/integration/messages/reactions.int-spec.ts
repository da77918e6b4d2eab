import { DomainError } from '@app/domain/shared';
import { DataSource } from 'typeorm';
import type { ReactionRepository } from '../../../src/messages/application/message.ports.js';
import { TypeOrmReactionRepository } from '../../../src/messages/persistence/typeorm-reaction.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

/*
 * TypeOrmReactionRepository against PostgreSQL: a message's reactions in order, adding and
 * removing one, and the unique (user, message, emoji) constraint reported as the rule it keeps.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;
let member: Account;
let otherRealmId: number;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = await realmOf(ds, t.owner.id);
  member = await t.createUser();
  otherRealmId = await realmOf(ds, (await t.createOrganization('reactother')).id);
  await channelWith(t, 'reactions', [member]);
});
afterAll(() => t.close());

const repo = <T>(work: (r: ReactionRepository) => Promise<T>) => uow.run((tx) => work(tx.reactions));
const smile = (userId: number) => ({ userId, emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' });
const custom = (userId: number) => ({ userId, emojiName: 'parrot', emojiCode: '7', reactionType: 'realm_emoji' });

describe('TypeOrmReactionRepository', () => {
  it('stores reactions and reads a message’s, oldest first, in its organization only', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmReactionRepository);
    const id = await sendToChannel(t, t.owner, 'reactions', 't', 'react');
    await repo((r) => r.insert(realmId, id, custom(member.id)));
    await repo((r) => r.insert(realmId, id, smile(t.owner.id)));
    await repo((r) => r.insert(realmId, id, smile(member.id)));
    const reactions = await repo((r) => r.ofMessage({ id, realmId }));
    expect(reactions.list()).toEqual([custom(member.id), smile(t.owner.id), smile(member.id)]);
    expect(await t.sql(`SELECT realm_id, message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = $1 ORDER BY id LIMIT 1`, [id])).toEqual([
      { realm_id: realmId, message_id: id, user_id: member.id, emoji_name: 'parrot', emoji_code: '7', reaction_type: 'realm_emoji' },
    ]);
    expect((await repo((r) => r.ofMessage({ id, realmId: otherRealmId }))).list()).toEqual([]);
  });

  it('deletes one user’s reaction by emoji code and type', async () => {
    const id = await sendToChannel(t, t.owner, 'reactions', 't', 'unreact');
    await repo((r) => r.insert(realmId, id, smile(t.owner.id)));
    await repo((r) => r.insert(realmId, id, smile(member.id)));
    await repo((r) => r.delete(id, { userId: member.id, emojiCode: '1f604', reactionType: 'realm_emoji' }));
    expect((await repo((r) => r.ofMessage({ id, realmId }))).list()).toHaveLength(2);
    await repo((r) => r.delete(id, { userId: member.id, emojiCode: '1f604', reactionType: 'unicode_emoji' }));
    expect((await repo((r) => r.ofMessage({ id, realmId }))).list()).toEqual([smile(t.owner.id)]);
  });

  it('reports a duplicate reaction lost to a concurrent writer as “Reaction already exists.”', async () => {
    const id = await sendToChannel(t, t.owner, 'reactions', 't', 'twice');
    await repo((r) => r.insert(realmId, id, smile(member.id)));
    const error = await repo((r) => r.insert(realmId, id, { ...smile(member.id), emojiName: 'smiley' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ msg: 'Reaction already exists.', code: 'REACTION_ALREADY_EXISTS' });
    // Another emoji, or the same one of another type, is another reaction.
    await repo((r) => r.insert(realmId, id, { ...smile(member.id), reactionType: 'realm_emoji' }));
    expect((await repo((r) => r.ofMessage({ id, realmId }))).list()).toHaveLength(2);
  });
});
