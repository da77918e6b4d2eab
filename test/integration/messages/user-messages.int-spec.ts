import { FLAG_BITS } from '@app/domain/messages';
import { DataSource } from 'typeorm';
import type { UserMessageRepository } from '../../../src/messages/application/message.ports.js';
import { TypeOrmUserMessageRepository } from '../../../src/messages/persistence/typeorm-user-message.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

/*
 * TypeOrmUserMessageRepository against PostgreSQL: the per-user rows of messages (flags,
 * unreads, read receipts, mention bits after an edit) and who may hear about a message.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = await realmOf(ds, t.owner.id);
});
afterAll(() => t.close());

const repo = <T>(work: (r: UserMessageRepository) => Promise<T>) => uow.run((tx) => work(tx.userMessages));
const flagsOf = async (userId: number, messageId: number): Promise<number | null> =>
  ((await ds.query(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [userId, messageId])) as { flags: number }[])[0]?.flags ?? null;
const ascending = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

/** A new user subscribed to a new channel with `n` messages from the owner (unread for the user); the channel id and message ids. */
async function inbox(name: string, n: number, topic = 't'): Promise<{ user: Account; channelId: number; ids: number[] }> {
  const user = await t.createUser();
  const channelId = await channelWith(t, name, [user]);
  // Only these messages: not the channel's creation notice.
  await t.sql(`DELETE FROM messages WHERE channel_id = $1`, [channelId]);
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) ids.push(await sendToChannel(t, t.owner, name, topic, `m${i}`));
  return { user, channelId, ids };
}

describe('TypeOrmUserMessageRepository', () => {
  it('reads a user’s flags, and null without a row', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmUserMessageRepository);
    const { user, ids } = await inbox('flags', 2);
    await t.sql(`UPDATE user_messages SET flags = $3 WHERE user_id = $1 AND message_id = $2`, [user.id, ids[1], FLAG_BITS.starred | FLAG_BITS.read]);
    const stranger = await t.createUser();
    expect(await repo((r) => r.flags(user.id, ids[1]))).toBe(FLAG_BITS.starred | FLAG_BITS.read);
    expect(await repo((r) => r.flags(stranger.id, ids[1]))).toBeNull();
    expect(await repo((r) => r.existingFlags(user.id, [...ids, 2 ** 30]))).toEqual(
      new Map([
        [ids[0], 0],
        [ids[1], FLAG_BITS.starred | FLAG_BITS.read],
      ]),
    );
    expect(await repo((r) => r.existingFlags(user.id, []))).toEqual(new Map());
  });

  it('sets and clears a bit only where it changes, and returns those ids ascending', async () => {
    const { user, ids } = await inbox('setflag', 3);
    await t.sql(`UPDATE user_messages SET flags = $3 WHERE user_id = $1 AND message_id = $2`, [user.id, ids[1], FLAG_BITS.starred]);
    expect(await repo((r) => r.setFlag(user.id, [ids[2], ids[1], ids[0]], FLAG_BITS.starred, true))).toEqual([ids[0], ids[2]]);
    expect(await flagsOf(user.id, ids[0])).toBe(FLAG_BITS.starred);
    expect(await repo((r) => r.setFlag(user.id, [ids[2], ids[0]], FLAG_BITS.starred, false))).toEqual([ids[0], ids[2]]);
    expect(await repo((r) => r.setFlag(user.id, [ids[2], ids[0]], FLAG_BITS.starred, false))).toEqual([]);
    expect(await flagsOf(user.id, ids[1])).toBe(FLAG_BITS.starred);
    expect(await repo((r) => r.setFlag(user.id, [], FLAG_BITS.read, true))).toEqual([]);
  });

  it('inserts historical rows where the user has none', async () => {
    const { ids } = await inbox('historical', 2);
    const late = await t.createUser();
    await t.sql(`INSERT INTO user_messages (user_id, message_id, flags) VALUES ($1, $2, 0)`, [late.id, ids[0]]);
    await repo((r) => r.insertHistoricalRows(late.id, ids, FLAG_BITS.read | FLAG_BITS.starred));
    expect(await flagsOf(late.id, ids[0])).toBe(0);
    expect(await flagsOf(late.id, ids[1])).toBe(FLAG_BITS.read | FLAG_BITS.starred | FLAG_BITS.historical);
    await repo((r) => r.insertHistoricalRows(late.id, [], 0));
  });

  it('marks all, a channel’s or a topic’s unread rows read', async () => {
    const { user, channelId, ids } = await inbox('markall', 2, 'One');
    const two = await sendToChannel(t, t.owner, 'markall', 'two', 'x');
    const dm = await sendDirect(t, t.owner, [user.id], 'dm');
    expect(ascending(await repo((r) => r.markAllRead(user.id, channelId, 'ONE')))).toEqual(ids);
    expect(await flagsOf(user.id, two)).toBe(0);
    expect(await repo((r) => r.markAllRead(user.id, channelId, null))).toEqual([two]);
    const rest = await repo((r) => r.markAllRead(user.id, null, null));
    expect(rest).toContain(dm);
    expect(await repo((r) => r.markAllRead(user.id, null, null))).toEqual([]);
    expect(await flagsOf(user.id, dm)).toBe(FLAG_BITS.read);
  });

  it('marks the newest unread rows read in batches', async () => {
    const { user, ids } = await inbox('batches', 3);
    await t.sql(`UPDATE user_messages SET flags = flags | $2 WHERE user_id = $1 AND message_id <> ALL($3)`, [user.id, FLAG_BITS.read, ids]);
    expect(ascending(await repo((r) => r.markReadBatch(user.id, 2)))).toEqual([ids[1], ids[2]]);
    expect(await repo((r) => r.markReadBatch(user.id, 2))).toEqual([ids[0]]);
    expect(await repo((r) => r.markReadBatch(user.id, 2))).toEqual([]);
  });

  it('marks a sender’s messages read', async () => {
    const { user, ids } = await inbox('fromsender', 2);
    const other = await t.createUser();
    await channelWith(t, 'fromsender', [other]);
    const theirs = await sendToChannel(t, other, 'fromsender', 't', 'theirs');
    expect(await repo((r) => r.markReadFromSender(user.id, t.owner.id))).toEqual(ids);
    expect(await flagsOf(user.id, theirs)).toBe(0);
    expect(await repo((r) => r.markReadFromSender(user.id, t.owner.id))).toEqual([]);
  });

  it('lists read receipts of active users who share them, the sender left out', async () => {
    const reader = await t.createUser();
    const privateReader = await t.createUser();
    const gone = await t.createUser();
    const unread = await t.createUser();
    await channelWith(t, 'receipts', [reader, privateReader, gone, unread]);
    const id = await sendToChannel(t, t.owner, 'receipts', 't', 'read me');
    await t.sql(`UPDATE user_messages SET flags = flags | $2 WHERE message_id = $1 AND user_id <> $3`, [id, FLAG_BITS.read, unread.id]);
    await t.sql(`UPDATE users SET send_read_receipts = false WHERE id = $1`, [privateReader.id]);
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    expect(await repo((r) => r.readReceipts(id, t.owner.id))).toEqual([reader.id]);
  });

  it('knows whether a user holds a row in a topic', async () => {
    const { user, channelId } = await inbox('hastopic', 1, 'Here');
    const stranger = await t.createUser();
    expect(await repo((r) => r.userHasTopic(user.id, channelId, 'here'))).toBe(true);
    expect(await repo((r) => r.userHasTopic(user.id, channelId, 'there'))).toBe(false);
    expect(await repo((r) => r.userHasTopic(stranger.id, channelId, 'here'))).toBe(false);
  });

  it('re-evaluates the mention and alert-word bits of every row, keeping the others', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    await channelWith(t, 'remention', [a, b]);
    const id = await sendToChannel(t, t.owner, 'remention', 't', 'plain');
    await t.sql(`UPDATE user_messages SET flags = $2 WHERE message_id = $1`, [id, FLAG_BITS.read | FLAG_BITS.starred | FLAG_BITS.mentioned | FLAG_BITS.has_alert_word]);
    await t.sql(`INSERT INTO alert_words (realm_id, user_id, word, lower_word) VALUES ($1, $2, 'Ship', 'ship')`, [realmId, b.id]);
    await repo((r) => r.updateMentionFlags(id, { mentioned: [a.id], streamWildcard: true, topicWildcardUsers: [b.id], alertWordText: 'we ship it' }));
    const kept = FLAG_BITS.read | FLAG_BITS.starred;
    expect(await repo((r) => r.readers(id))).toEqual(
      expect.arrayContaining([
        { userId: t.owner.id, flags: kept | FLAG_BITS.stream_wildcard_mentioned },
        { userId: a.id, flags: kept | FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned },
        { userId: b.id, flags: kept | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.has_alert_word },
      ]),
    );
    expect(await repo((r) => r.readers(id))).toHaveLength(3);
  });

  it('finds who may hear about a message: row holders and active subscribers', async () => {
    const holder = await t.createUser();
    const guest = await t.createUser({ role: 600 });
    const { channelId, ids } = await inbox('audience', 2);
    const joined = await t.createUser();
    const gone = await t.createUser();
    await channelWith(t, 'audience', [guest, joined, gone]);
    await t.sql(`INSERT INTO user_messages (user_id, message_id, flags) VALUES ($1, $2, 0)`, [holder.id, ids[0]]);
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    const [{ user_id: firstReader }] = await t.sql(`SELECT user_id FROM user_messages WHERE message_id = $1 AND user_id <> $2 AND user_id <> $3`, [
      ids[0],
      t.owner.id,
      holder.id,
    ]);
    const sorted = <T extends { userId: number }>(xs: T[]): T[] => [...xs].sort((p, q) => p.userId - q.userId);
    expect(sorted(await repo((r) => r.audienceCandidates(ids[0], channelId)))).toEqual(
      sorted([
        { userId: t.owner.id, hasRow: true, subscribed: true, isGuest: false },
        { userId: firstReader, hasRow: true, subscribed: true, isGuest: false },
        { userId: holder.id, hasRow: true, subscribed: false, isGuest: false },
        { userId: guest.id, hasRow: false, subscribed: true, isGuest: true },
        { userId: joined.id, hasRow: false, subscribed: true, isGuest: false },
        { userId: gone.id, hasRow: false, subscribed: false, isGuest: false },
      ]),
    );
    expect(sorted(await repo((r) => r.audienceCandidates(ids[1], null)))).toEqual(
      sorted([
        { userId: t.owner.id, hasRow: true, subscribed: false, isGuest: false },
        { userId: firstReader, hasRow: true, subscribed: false, isGuest: false },
      ]),
    );
    expect((await repo((r) => r.audienceCandidatesOfMany(ids, channelId))).find((c) => c.userId === holder.id)).toEqual({
      userId: holder.id,
      hasRow: true,
      subscribed: false,
      isGuest: false,
    });
  });
});
