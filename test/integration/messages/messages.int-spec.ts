import { FLAG_BITS, Message, type TopicMove } from '@app/domain/messages';
import { DataSource } from 'typeorm';
import type { MessageRepository } from '../../../src/messages/application/message.ports.js';
import { TypeOrmMessageRepository } from '../../../src/messages/persistence/typeorm-message.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelNotice, channelWith, directNotice, realmOf } from './fixtures.js';

/*
 * TypeOrmMessageRepository against PostgreSQL: the message rows it reads and maps, the
 * recipient rows it writes with a new message (its flag plan), moves, deletions and the topic
 * reads of the edit and move rules.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;
let member: Account;
let outsider: Account;
let other: { owner: Account; realmId: number; messageId: number };

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = await realmOf(ds, t.owner.id);
  member = await t.createUser();
  outsider = await t.createUser();
  const otherOwner = await t.createOrganization('msgother');
  const res = await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'theirs' }] } });
  expect(res.status).toBe(200);
  other = { owner: otherOwner, realmId: await realmOf(ds, otherOwner.id), messageId: await sendToChannel(t, otherOwner, 'theirs', 'x', 'theirs') };
});
afterAll(() => t.close());

const repo = <T>(work: (r: MessageRepository) => Promise<T>) => uow.run((tx) => work(tx.messages));
const rowsOf = async (messageId: number): Promise<{ userId: number; flags: number }[]> =>
  ds.query(`SELECT user_id AS "userId", flags FROM user_messages WHERE message_id = $1 ORDER BY user_id`, [messageId]);
const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);
const byUser = (rows: { userId: number; flags: number }[]) => [...rows].sort((a, b) => a.userId - b.userId);

describe('TypeOrmMessageRepository', () => {
  it('maps every column of a stored message, in its organization only', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmMessageRepository);
    await channelWith(t, 'maps', [member]);
    const id = await sendToChannel(t, t.owner, 'maps', 'Greeting', 'hello **there**');
    const [row] = await ds.query(`SELECT recipient_id, channel_id, date_sent, sending_client FROM messages WHERE id = $1`, [id]);
    const expected = {
      id,
      realmId,
      senderId: t.owner.id,
      recipientId: row.recipient_id,
      channelId: row.channel_id,
      topic: 'Greeting',
      content: 'hello **there**',
      renderedContent: '<p>hello <strong>there</strong></p>',
      dateSent: row.date_sent,
      sendingClient: row.sending_client,
      lastEditTime: null,
      lastMovedTime: null,
      editHistory: [],
      hasAttachment: false,
      hasSubmessages: false,
    };
    expect(row.date_sent).toBeInstanceOf(Date);
    expect(await repo((r) => r.find(realmId, id))).toEqual(expected);
    expect(await repo((r) => r.findMany(realmId, [id, other.messageId, 2 ** 31, -1]))).toEqual(new Map([[id, expected]]));
    expect((await repo((r) => r.getForUpdate(realmId, id)))?.snapshot()).toEqual(expected);
    expect(await repo((r) => r.lastTopicMessage(row.channel_id, 'greeting'))).toEqual(expected);

    expect(await repo((r) => r.find(other.realmId, id))).toBeNull();
    expect(await repo((r) => r.getForUpdate(other.realmId, id))).toBeNull();
    expect(await repo((r) => r.find(realmId, other.messageId))).toBeNull();
    expect(await repo((r) => r.findMany(realmId, [other.messageId]))).toEqual(new Map());
    expect(await repo((r) => r.find(realmId, 2 ** 31))).toBeNull();
    expect(await repo((r) => r.findMany(realmId, []))).toEqual(new Map());
  });

  it('holds the row lock of getForUpdate until the transaction ends', async () => {
    await channelWith(t, 'locks', []);
    const id = await sendToChannel(t, t.owner, 'locks', 'l', 'locked');
    await repo(async (r) => {
      await r.getForUpdate(realmId, id);
      await expect(t.sql(`SELECT id FROM messages WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toMatchObject({ code: '55P03' });
    });
    expect(await t.sql(`SELECT id FROM messages WHERE id = $1 FOR UPDATE NOWAIT`, [id])).toEqual([{ id }]);
  });

  it('stores a channel message with its subscribers’ rows and its channel’s first message, in one statement', async () => {
    const muter = await t.createUser();
    const alerted = await t.createUser();
    const gone = await t.createUser();
    const channelId = await channelWith(t, 'adds', [member, muter, alerted, gone]);
    await t.sql(`INSERT INTO muted_users (realm_id, user_id, muted_user_id, date_muted) VALUES ($1, $2, $3, now())`, [realmId, muter.id, t.owner.id]);
    await t.sql(`INSERT INTO alert_words (realm_id, user_id, word, lower_word) VALUES ($1, $2, 'Deploy', 'deploy')`, [realmId, alerted.id]);
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    expect(await t.sql(`SELECT first_message_id FROM channels WHERE id = $1`, [channelId])).toEqual([{ first_message_id: null }]);

    const recipientId = await uow.run((tx) => tx.conversations.channelRecipient(realmId, channelId));
    const message = channelNotice(realmId, t.owner.id, { channelId, recipientId, topic: 'news' }, 'we deploy today', { alsoReadBy: [member.id] });
    const rows = await repo((r) => r.add(message));

    expect(message.id).toBeGreaterThan(0);
    const expected = [
      { userId: t.owner.id, flags: FLAG_BITS.read },
      { userId: member.id, flags: FLAG_BITS.read },
      { userId: muter.id, flags: FLAG_BITS.read },
      { userId: alerted.id, flags: FLAG_BITS.has_alert_word },
    ];
    expect(byUser(rows)).toEqual(byUser(expected));
    expect(await rowsOf(message.id)).toEqual(byUser(expected));
    expect(await t.sql(`SELECT first_message_id FROM channels WHERE id = $1`, [channelId])).toEqual([{ first_message_id: message.id }]);
    expect(await repo((r) => r.find(realmId, message.id))).toEqual({
      ...message.snapshot(),
      sendingClient: 'test',
      dateSent: new Date('2026-01-02T03:04:05Z'),
      hasAttachment: false,
    });

    // A later message leaves the channel's first message alone.
    const later = channelNotice(realmId, t.owner.id, { channelId, recipientId, topic: 'news' }, 'again');
    await repo((r) => r.add(later));
    expect(await t.sql(`SELECT first_message_id FROM channels WHERE id = $1`, [channelId])).toEqual([{ first_message_id: message.id }]);
  });

  it('stores a widget message with its first submessage', async () => {
    const channelId = await channelWith(t, 'widgets', [member]);
    const recipientId = await uow.run((tx) => tx.conversations.channelRecipient(realmId, channelId));
    const message = channelNotice(realmId, t.owner.id, { channelId, recipientId, topic: 'poll' }, '/poll Lunch?');
    message.attachWidget('{"widget_type":"poll"}');
    await repo((r) => r.add(message));
    const [submessage] = message.newSubmessages();
    expect(submessage.id).toBeGreaterThan(0);
    expect(await ds.query(`SELECT id, message_id, sender_id, msg_type, content FROM submessages WHERE message_id = $1`, [message.id])).toEqual([
      { id: submessage.id, message_id: message.id, sender_id: t.owner.id, msg_type: 'widget', content: '{"widget_type":"poll"}' },
    ]);
    expect((await repo((r) => r.find(realmId, message.id)))?.hasSubmessages).toBe(true);
  });

  it('sets the mention bits a send resolved', async () => {
    await channelWith(t, 'mentions', [member, outsider]);
    const [{ full_name: name }] = await t.sql(`SELECT full_name FROM users WHERE id = $1`, [member.id]);
    const id = await sendToChannel(t, t.owner, 'mentions', 'm', `hi @**${name}**`);
    // Sent through the API, so unread for its sender too.
    expect(await rowsOf(id)).toEqual(
      byUser([
        { userId: t.owner.id, flags: 0 },
        { userId: member.id, flags: FLAG_BITS.mentioned },
        { userId: outsider.id, flags: 0 },
      ]),
    );
  });

  it('stores direct notices in two statements, each with its participants’ rows, in order', async () => {
    const muter = await t.createUser();
    await t.sql(`INSERT INTO muted_users (realm_id, user_id, muted_user_id, date_muted) VALUES ($1, $2, $3, now())`, [realmId, muter.id, t.owner.id]);
    await t.sql(`INSERT INTO alert_words (realm_id, user_id, word, lower_word) VALUES ($1, $2, 'urgent', 'urgent') ON CONFLICT DO NOTHING`, [
      realmId,
      member.id,
    ]);
    const [toMember, toMuter] = await uow.run((tx) =>
      tx.conversations.directConversations(realmId, [
        [t.owner.id, member.id],
        [t.owner.id, muter.id],
      ]),
    );
    const a = directNotice(realmId, t.owner.id, toMember, [t.owner.id, member.id], 'urgent: read this');
    const b = directNotice(realmId, t.owner.id, toMuter, [t.owner.id, muter.id], 'urgent too');
    const rows = await repo((r) => r.addDirectNotices([a, b]));
    expect(a.id).toBeGreaterThan(0);
    expect(b.id).toBeGreaterThan(a.id);
    expect(rows.map(byUser)).toEqual([
      byUser([
        { userId: t.owner.id, flags: FLAG_BITS.read },
        { userId: member.id, flags: FLAG_BITS.has_alert_word },
      ]),
      byUser([
        { userId: t.owner.id, flags: FLAG_BITS.read },
        { userId: muter.id, flags: FLAG_BITS.read },
      ]),
    ]);
    expect(await rowsOf(b.id)).toEqual(byUser(rows[1]));
    expect(await repo((r) => r.find(realmId, b.id))).toMatchObject({ recipientId: toMuter, channelId: null, topic: '', content: 'urgent too' });
    expect(await repo((r) => r.addDirectNotices([]))).toEqual([]);

    const channelId = await channelWith(t, 'notnotice', []);
    const recipientId = await uow.run((tx) => tx.conversations.channelRecipient(realmId, channelId));
    await expect(repo((r) => r.addDirectNotices([channelNotice(realmId, t.owner.id, { channelId, recipientId, topic: 'x' }, 'x')]))).rejects.toThrow(
      'not a direct notice',
    );
  });

  it('saves an edited content, with has_attachment from the message’s upload links', async () => {
    await channelWith(t, 'edits', []);
    const id = await sendToChannel(t, t.owner, 'edits', 'e', 'before');
    const [{ id: attachmentId }] = await t.sql(
      `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time)
       VALUES ($1, $2, 'edits/a.txt', 'a.txt', 3, 'text/plain', now()) RETURNING id`,
      [realmId, t.owner.id],
    );
    await t.sql(`INSERT INTO attachment_messages (attachment_id, message_id) VALUES ($1, $2)`, [attachmentId, id]);
    const editTime = new Date('2026-02-03T04:05:06Z');
    const history = [{ user_id: t.owner.id, timestamp: 1770091506, prev_content: 'before', prev_rendered_content: '<p>before</p>' }];
    await repo(async (r) => {
      const m = (await r.getForUpdate(realmId, id))!;
      await r.saveContent(Message.restore({ ...m.snapshot(), content: 'after', renderedContent: '<p>after</p>', lastEditTime: editTime, editHistory: history }));
    });
    expect(await repo((r) => r.find(realmId, id))).toMatchObject({
      content: 'after',
      renderedContent: '<p>after</p>',
      lastEditTime: editTime,
      editHistory: history,
      hasAttachment: true,
    });
  });

  it('moves messages to another channel: history, move time, rows of non-subscribers dropped, protected destination rows added', async () => {
    const reader = await t.createUser();
    const from = await channelWith(t, 'movefrom', [member]);
    const to = await channelWith(t, 'moveto', [reader]);
    const first = await sendToChannel(t, t.owner, 'movefrom', 'src', 'one');
    const second = await sendToChannel(t, t.owner, 'movefrom', 'src', 'two');
    const recipientId = await uow.run((tx) => tx.conversations.channelRecipient(realmId, to));
    const entry = { user_id: t.owner.id, timestamp: 1770000000, prev_topic: 'src', topic: 'dst', prev_stream: from, stream: to };
    const movedTime = new Date('2026-02-02T00:00:00Z');
    const move: TopicMove = {
      messageId: second,
      from: { channelId: from, topic: 'src' },
      to: { channelId: to, recipientId, topic: 'dst' },
      propagateMode: 'change_all',
      messageIds: [first, second],
      wholeTopic: true,
      topicChanged: true,
      channelChanged: true,
      resolve: null,
      historyEntry: entry,
      historyWrittenFor: second,
      movedTime,
      destinationTopicExisted: false,
      destinationHistoryProtected: true,
    };
    expect(await repo((r) => r.move(move))).toEqual({ dropped: [member.id] });
    const moved = await repo((r) => r.findMany(realmId, [first, second]));
    expect(moved.get(first)).toMatchObject({ channelId: to, recipientId, topic: 'dst', editHistory: [entry], lastMovedTime: movedTime });
    // The message whose history already holds the entry keeps its history as it was.
    expect(moved.get(second)).toMatchObject({ channelId: to, recipientId, topic: 'dst', editHistory: [], lastMovedTime: movedTime });
    for (const id of [first, second]) {
      expect(await rowsOf(id)).toEqual(
        byUser([
          { userId: t.owner.id, flags: 0 },
          { userId: reader.id, flags: FLAG_BITS.read },
        ]),
      );
    }
    expect(await t.sql(`SELECT first_message_id FROM channels WHERE id = $1`, [to])).toEqual([{ first_message_id: first }]);
  });

  it('renames a topic in place without touching rows or the move time of a resolve toggle', async () => {
    const channelId = await channelWith(t, 'renames', [member]);
    const id = await sendToChannel(t, t.owner, 'renames', 'old', 'x');
    const recipientId = await uow.run((tx) => tx.conversations.channelRecipient(realmId, channelId));
    const before = await rowsOf(id);
    const entry = { user_id: t.owner.id, timestamp: 1770000000, prev_topic: 'old', topic: '✔ old' };
    const result = await repo((r) =>
      r.move({
        messageId: id,
        from: { channelId, topic: 'old' },
        to: { channelId, recipientId, topic: '✔ old' },
        propagateMode: 'change_one',
        messageIds: [id],
        wholeTopic: false,
        topicChanged: true,
        channelChanged: false,
        resolve: 'resolve',
        historyEntry: entry,
        historyWrittenFor: null,
        movedTime: null,
        destinationTopicExisted: false,
        destinationHistoryProtected: false,
      }),
    );
    expect(result).toEqual({ dropped: [] });
    expect(await repo((r) => r.find(realmId, id))).toMatchObject({ topic: '✔ old', editHistory: [entry], lastMovedTime: null });
    expect(await rowsOf(id)).toEqual(before);
  });

  it('reads a topic case-insensitively: facts, messages, rows, the locked batch', async () => {
    const channelId = await channelWith(t, 'topics', [member]);
    const a = await sendToChannel(t, t.owner, 'topics', 'Plans', 'a');
    const b = await sendToChannel(t, member, 'topics', 'plans', 'b');
    await t.post('users/me/subscriptions', { as: outsider, form: { subscriptions: [{ name: 'topics' }] } });
    const c = await sendToChannel(t, outsider, 'topics', 'PLANS', 'c');
    await sendToChannel(t, t.owner, 'topics', 'other', 'd');
    const dates: { id: number; date_sent: Date }[] = await ds.query(`SELECT id, date_sent FROM messages WHERE id = ANY($1) ORDER BY id`, [[a, b, c]]);

    const facts = await repo((r) => r.topicFacts(channelId, 'pLaNs'));
    expect({ ...facts, participants: ascending(facts.participants) }).toEqual({ exists: true, participants: ascending([t.owner.id, member.id, outsider.id]) });
    expect(await repo((r) => r.topicFacts(channelId, 'nothing'))).toEqual({ exists: false, participants: [] });
    expect(await repo((r) => r.topicMessages(channelId, 'plans', null))).toEqual(dates.map((d) => ({ id: d.id, dateSent: d.date_sent })));
    // The outsider subscribed after the first two: they hold a row for the third only.
    expect(await repo((r) => r.topicMessages(channelId, 'plans', outsider.id))).toEqual([{ id: c, dateSent: dates[2].date_sent }]);
    const lurker = await t.createUser();
    expect(ascending(await repo((r) => r.usersWithRowsInTopic([member.id, outsider.id, t.owner.id, lurker.id], channelId, 'PLANS')))).toEqual(
      ascending([member.id, outsider.id, t.owner.id]),
    );
    expect(await repo((r) => r.usersWithRowsInTopic([], channelId, 'plans'))).toEqual([]);
    expect((await repo((r) => r.lastTopicMessage(channelId, 'plans')))?.id).toBe(c);
    expect(await repo((r) => r.lastTopicMessage(channelId, 'nothing'))).toBeNull();

    expect(await repo((r) => r.lockTopicBatch(channelId, 'plans', null, 2))).toEqual([
      { id: c, topic: 'PLANS' },
      { id: b, topic: 'plans' },
    ]);
    expect(await repo((r) => r.lockTopicBatch(channelId, 'plans', outsider.id, 10))).toEqual([{ id: c, topic: 'PLANS' }]);
    await repo(async (r) => {
      await r.lockTopicBatch(channelId, 'plans', null, 1);
      await expect(t.sql(`SELECT id FROM messages WHERE id = $1 FOR UPDATE NOWAIT`, [c])).rejects.toMatchObject({ code: '55P03' });
      expect(await t.sql(`SELECT id FROM messages WHERE id = $1 FOR UPDATE NOWAIT`, [b])).toEqual([{ id: b }]);
    });
  });

  it('deletes messages with their rows, and recomputes the channel’s first message', async () => {
    const channelId = await channelWith(t, 'deletes', [member]);
    // Only these messages: not the channel's creation notice.
    await t.sql(`DELETE FROM messages WHERE channel_id = $1`, [channelId]);
    const ids = [
      await sendToChannel(t, t.owner, 'deletes', 'd', '1'),
      await sendToChannel(t, t.owner, 'deletes', 'd', '2'),
      await sendToChannel(t, t.owner, 'deletes', 'd', '3'),
      await sendToChannel(t, t.owner, 'deletes', 'd', '4'),
    ];
    expect(await t.sql(`SELECT first_message_id FROM channels WHERE id = $1`, [channelId])).toEqual([{ first_message_id: ids[0] }]);
    expect(await repo((r) => r.delete(ids[0]))).toBe(true);
    expect(await repo((r) => r.delete(ids[0]))).toBe(false);
    expect(await rowsOf(ids[0])).toEqual([]);
    expect(await repo((r) => r.refreshChannelFirstMessage(channelId))).toEqual({ changed: true, firstMessageId: ids[1] });
    expect(await repo((r) => r.refreshChannelFirstMessage(channelId))).toEqual({ changed: false, firstMessageId: ids[1] });

    expect(await repo((r) => r.deleteMany([ids[3], ids[1], ids[0]]))).toEqual([ids[1], ids[3]]);
    expect(await repo((r) => r.deleteMany([]))).toEqual([]);
    expect(await repo((r) => r.refreshChannelFirstMessage(channelId))).toEqual({ changed: true, firstMessageId: ids[2] });
    await repo((r) => r.deleteMany([ids[2]]));
    expect(await repo((r) => r.refreshChannelFirstMessage(channelId))).toEqual({ changed: true, firstMessageId: null });
    expect(await repo((r) => r.refreshChannelFirstMessage(2 ** 30))).toEqual({ changed: false, firstMessageId: null });
  });

  it('finds direct messages by id like channel messages', async () => {
    const id = await sendDirect(t, t.owner, [member.id], 'psst');
    expect(await repo((r) => r.find(realmId, id))).toMatchObject({ id, channelId: null, topic: '', content: 'psst', editHistory: [] });
  });
});
