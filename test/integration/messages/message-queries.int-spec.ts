import { FLAG_BITS, HISTORICAL_FLAGS } from '@app/domain/messages';
import { DataSource } from 'typeorm';
import { type CompiledNarrow, type Condition, MessageQueries } from '../../../src/messages/application/message-queries.js';
import { NEWEST, TypeOrmMessageQueries } from '../../../src/messages/persistence/typeorm-message.queries.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

/*
 * TypeOrmMessageQueries against PostgreSQL: the narrow SQL it builds (every condition, the
 * user's rows, a channel's history, a spectator's view), anchoring, and the reads that complete
 * a message view, scoped to the organization.
 */

let t: TestApp;
let ds: DataSource;
let q: MessageQueries;
let realmId: number;
let reader: Account;
let other: { owner: Account; realmId: number; channelId: number; messageId: number };
/** The reader's messages, oldest first. */
const m: Record<'alpha' | 'link' | 'resolved' | 'dm' | 'mention' | 'percent', number> = { alpha: 0, link: 0, resolved: 0, dm: 0, mention: 0, percent: 0 };
let channelId: number;
let later: number;
let readerName: string;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  q = t.app.get(MessageQueries);
  realmId = await realmOf(ds, t.owner.id);
  reader = await t.createUser({ fullName: 'Rita Reader' });
  readerName = 'Rita Reader';
  channelId = await channelWith(t, 'queries', [reader]);
  await t.sql(`DELETE FROM messages WHERE channel_id = $1`, [channelId]);
  m.alpha = await sendToChannel(t, t.owner, 'queries', 'Alpha', 'first words');
  m.link = await sendToChannel(t, reader, 'queries', 'alpha', 'see https://example.com');
  m.resolved = await sendToChannel(t, t.owner, 'queries', '✔ done', 'resolved one');
  m.dm = await sendDirect(t, t.owner, [reader.id], 'just us');
  m.mention = await sendToChannel(t, t.owner, 'queries', 'Alpha', `hey @**${readerName}**`);
  m.percent = await sendToChannel(t, t.owner, 'queries', 'beta', '100% sure_thing');
  // Joined later: holds no rows for the messages above.
  const late = await t.createUser();
  await channelWith(t, 'queries', [late]);
  later = late.id;

  await t.sql(`UPDATE user_messages SET flags = flags | $3 WHERE user_id = $1 AND message_id = $2`, [reader.id, m.link, FLAG_BITS.starred | FLAG_BITS.read]);
  await t.sql(`UPDATE user_messages SET flags = flags | $3 WHERE user_id = $1 AND message_id = $2`, [reader.id, m.alpha, FLAG_BITS.read | FLAG_BITS.has_alert_word]);
  await t.sql(`UPDATE messages SET has_attachment = true, rendered_content = rendered_content || '<img src="x">' WHERE id = $1`, [m.resolved]);
  await t.sql(`INSERT INTO reactions (realm_id, message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES ($1, $2, $3, 'smile', '1f604', 'unicode_emoji')`, [
    realmId,
    m.alpha,
    reader.id,
  ]);

  const otherOwner = await t.createOrganization('queryother');
  const res = await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'queries' }] } });
  expect(res.status).toBe(200);
  const otherRealm = await realmOf(ds, otherOwner.id);
  const [{ id: otherChannel }] = await t.sql(`SELECT id FROM channels WHERE realm_id = $1 AND name = 'queries'`, [otherRealm]);
  other = { owner: otherOwner, realmId: otherRealm, channelId: otherChannel, messageId: await sendToChannel(t, otherOwner, 'queries', 'Alpha', 'theirs') };
});
afterAll(() => t.close());

const rowsOnly: CompiledNarrow = { channelHistory: null, conditions: [] };
/** A condition without its `negated` (distributed over the union's members). */
type Term = Condition extends infer C ? (C extends Condition ? Omit<C, 'negated'> : never) : never;
const cond = (c: Term, negated = false): Condition => ({ ...c, negated }) as Condition;
const idsOf = async (conditions: Condition[], userId = reader.id, n: Partial<CompiledNarrow> = {}) =>
  (await q.range(realmId, userId, { ...rowsOnly, ...n, conditions }, 'oldest', 0, 1000, true)).messages.map((f) => f.message.id);

describe('TypeOrmMessageQueries', () => {
  it('is the MessageQueries of the app', () => {
    expect(q).toBeInstanceOf(TypeOrmMessageQueries);
  });

  it('maps a fetched message and the reader’s flags', async () => {
    const [row] = await ds.query(`SELECT recipient_id, date_sent, sending_client FROM messages WHERE id = $1`, [m.link]);
    const [fetched] = await q.byIds(realmId, reader.id, rowsOnly, [m.link]);
    expect(fetched).toEqual({
      message: {
        id: m.link,
        realmId,
        senderId: reader.id,
        recipientId: row.recipient_id,
        channelId,
        topic: 'alpha',
        content: 'see https://example.com',
        renderedContent: '<p>see <a href="https://example.com">https://example.com</a></p>',
        dateSent: row.date_sent,
        sendingClient: row.sending_client,
        lastEditTime: null,
        lastMovedTime: null,
        editHistory: [],
        hasAttachment: false,
        hasSubmessages: false,
      },
      flags: FLAG_BITS.starred | FLAG_BITS.read,
    });
  });

  it('finds the reader’s messages for every condition, and their negations', async () => {
    const all = [m.alpha, m.link, m.resolved, m.dm, m.mention, m.percent];
    expect(await idsOf([])).toEqual(all);
    const cases: [Term, number[]][] = [
      [{ kind: 'channel', channelId }, [m.alpha, m.link, m.resolved, m.mention, m.percent]],
      [{ kind: 'topic', topic: 'ALPHA' }, [m.alpha, m.link, m.mention]],
      [{ kind: 'sender', userId: reader.id }, [m.link]],
      [{ kind: 'recipient', recipientId: null }, []],
      [{ kind: 'dm_including', userId: t.owner.id }, [m.dm]],
      [{ kind: 'is', what: 'dm' }, [m.dm]],
      [{ kind: 'is', what: 'starred' }, [m.link]],
      [{ kind: 'is', what: 'unread' }, [m.resolved, m.dm, m.mention, m.percent]],
      [{ kind: 'is', what: 'mentioned' }, [m.mention]],
      [{ kind: 'is', what: 'alerted' }, [m.alpha]],
      [{ kind: 'is', what: 'resolved' }, [m.resolved]],
      [{ kind: 'id', id: m.dm }, [m.dm]],
      [{ kind: 'id', id: 2 ** 31 }, []],
      [{ kind: 'search', text: 'FIRST' }, [m.alpha]],
      [{ kind: 'search', text: 'alp' }, [m.alpha, m.link, m.mention]],
      [{ kind: 'search', text: '100%' }, [m.percent]],
      [{ kind: 'search', text: '_' }, [m.percent]],
      [{ kind: 'search', text: '%' }, [m.percent]],
      [{ kind: 'has', what: 'attachment' }, [m.resolved]],
      [{ kind: 'has', what: 'link' }, [m.link]],
      [{ kind: 'has', what: 'image' }, [m.resolved]],
      [{ kind: 'has', what: 'reaction' }, [m.alpha]],
    ];
    for (const [c, expected] of cases) {
      expect([c, await idsOf([cond(c)])]).toEqual([c, expected]);
      // Every negated term keeps exactly the others, direct messages included (Zulip's `-channel:` too).
      const negatedExpected = all.filter((id) => !expected.includes(id));
      expect([c, 'negated', await idsOf([cond(c, true)])]).toEqual([c, 'negated', negatedExpected]);
    }
    const [{ recipient_id: dmRecipient }] = await t.sql(`SELECT recipient_id FROM messages WHERE id = $1`, [m.dm]);
    expect(await idsOf([cond({ kind: 'recipient', recipientId: dmRecipient })])).toEqual([m.dm]);
    expect(await idsOf([cond({ kind: 'channel', channelId }), cond({ kind: 'topic', topic: 'alpha' }), cond({ kind: 'sender', userId: t.owner.id })])).toEqual([
      m.alpha,
      m.mention,
    ]);
  });

  it('anchors a range and says which ends it found', async () => {
    const range = (anchor: number | 'newest' | 'oldest' | 'first_unread', before: number, after: number, includeAnchor = true) =>
      q.range(realmId, reader.id, rowsOnly, anchor, before, after, includeAnchor);
    const summary = async (r: ReturnType<typeof range>) => {
      const x = await r;
      return { ids: x.messages.map((f) => f.message.id), anchor: x.anchor, foundAnchor: x.foundAnchor, foundOldest: x.foundOldest, foundNewest: x.foundNewest };
    };
    expect(await summary(range('newest', 2, 0))).toEqual({ ids: [m.mention, m.percent], anchor: NEWEST, foundAnchor: false, foundOldest: false, foundNewest: true });
    expect(await summary(range('oldest', 0, 2))).toEqual({ ids: [m.alpha, m.link], anchor: 0, foundAnchor: false, foundOldest: true, foundNewest: false });
    expect(await summary(range('first_unread', 1, 1))).toEqual({
      ids: [m.link, m.resolved, m.dm],
      anchor: m.resolved,
      foundAnchor: true,
      foundOldest: false,
      foundNewest: false,
    });
    expect(await summary(range(m.dm, 1, 10, false))).toEqual({
      ids: [m.resolved, m.mention, m.percent],
      anchor: m.dm,
      foundAnchor: true,
      foundOldest: false,
      foundNewest: true,
    });
    await t.sql(`UPDATE user_messages SET flags = flags | ${FLAG_BITS.read} WHERE user_id = $1`, [later]);
    expect((await q.range(realmId, later, rowsOnly, 'first_unread', 0, 1, true)).anchor).toBe(NEWEST);
    expect((await q.range(realmId, reader.id, rowsOnly, 2 ** 40, 1, 0, true)).messages.map((f) => f.message.id)).toEqual([m.percent]);
  });

  it('reads nothing at or after an anchor past every message id (newest): one statement, with the messages after it too', async () => {
    const query = vi.spyOn(ds, 'query');
    try {
      const r = await q.range(realmId, reader.id, rowsOnly, 'newest', 2, 5, true);
      expect(r.messages.map((f) => f.message.id)).toEqual([m.mention, m.percent]);
      expect(r).toMatchObject({ foundAnchor: false, foundNewest: true });
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
  });

  it('reads a channel’s history with the reader’s rows where they have them, in its organization only', async () => {
    const history = (userId: number, requireRow: boolean, realm = realmId, channel = channelId) =>
      q.range(realm, userId, { channelHistory: { channelId: channel, requireRow }, conditions: [] }, 'oldest', 0, 100, true);
    const flagsOf = async (userId: number, requireRow: boolean) => (await history(userId, requireRow)).messages.map((f) => [f.message.id, f.flags]);
    expect(await flagsOf(later, false)).toEqual([m.alpha, m.link, m.resolved, m.mention, m.percent].map((id) => [id, null]));
    expect(await flagsOf(later, true)).toEqual([]);
    expect((await flagsOf(reader.id, true)).map(([id]) => id)).toEqual([m.alpha, m.link, m.resolved, m.mention, m.percent]);
    expect((await history(reader.id, false, realmId, other.channelId)).messages).toEqual([]);
    const theirs = (await history(other.owner.id, false, other.realmId, other.channelId)).messages;
    expect(theirs.map((f) => f.message.id)).toContain(other.messageId);
    expect(theirs.every((f) => f.message.realmId === other.realmId)).toBe(true);
    // Conditions on flags read a missing row as historical: read.
    expect(await idsOf([cond({ kind: 'is', what: 'unread' })], later, { channelHistory: { channelId, requireRow: false } })).toEqual([]);
    expect(HISTORICAL_FLAGS & FLAG_BITS.read).toBe(FLAG_BITS.read);
  });

  it('shows spectators the web-public channels of the organization, read', async () => {
    const spectator: CompiledNarrow = { channelHistory: null, conditions: [], spectator: true };
    const seen = async (realm: number) => (await q.range(realm, 0, spectator, 'oldest', 0, 100, true)).messages;
    expect((await seen(realmId)).filter((f) => f.message.channelId === channelId)).toEqual([]);
    await t.sql(`UPDATE channels SET is_web_public = true WHERE id = ANY($1)`, [[channelId, other.channelId]]);
    try {
      const mine = (await seen(realmId)).filter((f) => f.message.channelId === channelId);
      expect(mine.map((f) => [f.message.id, f.flags])).toEqual([m.alpha, m.link, m.resolved, m.mention, m.percent].map((id) => [id, FLAG_BITS.read]));
      expect((await seen(realmId)).map((f) => f.message.id)).not.toContain(other.messageId);
    } finally {
      await t.sql(`UPDATE channels SET is_web_public = false WHERE id = ANY($1)`, [[channelId, other.channelId]]);
    }
  });

  it('fetches by ids and matches ids against a narrow among received messages', async () => {
    expect((await q.byIds(realmId, reader.id, rowsOnly, [m.dm, m.alpha, other.messageId])).map((f) => f.message.id)).toEqual([m.alpha, m.dm]);
    expect(await q.byIds(realmId, reader.id, rowsOnly, [])).toEqual([]);
    const history: CompiledNarrow = { channelHistory: { channelId, requireRow: false }, conditions: [cond({ kind: 'topic', topic: 'alpha' })] };
    expect(await q.matching(realmId, reader.id, history, [m.mention, m.link, m.dm, m.percent])).toEqual([
      { id: m.link, topic: 'alpha', renderedContent: '<p>see <a href="https://example.com">https://example.com</a></p>' },
      { id: m.mention, topic: 'Alpha', renderedContent: expect.stringContaining('user-mention') },
    ]);
    // The late subscriber holds no rows: nothing matches for them.
    expect(await q.matching(realmId, later, history, [m.link])).toEqual([]);
    expect(await q.matching(realmId, reader.id, history, [])).toEqual([]);
  });

  it('lists the topic spellings of a channel with their newest message', async () => {
    const byTopic = (rows: { topic: string; maxId: number }[]) => [...rows].sort((a, b) => a.maxId - b.maxId);
    expect(byTopic(await q.topicVariants(realmId, channelId, null))).toEqual([
      { topic: 'alpha', maxId: m.link },
      { topic: '✔ done', maxId: m.resolved },
      { topic: 'Alpha', maxId: m.mention },
      { topic: 'beta', maxId: m.percent },
    ]);
    expect(await q.topicVariants(realmId, channelId, later)).toEqual([]);
    expect(await q.topicVariants(other.realmId, channelId, null)).toEqual([]);
  });

  it('reads senders, reactions, submessages, channel names, direct participants and the organization', async () => {
    const [u] = await t.sql(`SELECT email, delivery_email, email_address_visibility, avatar_version FROM users WHERE id = $1`, [reader.id]);
    expect(await q.senders([reader.id])).toEqual(
      new Map([
        [
          reader.id,
          {
            id: reader.id,
            email: u.email,
            deliveryEmail: u.delivery_email,
            emailAddressVisibility: u.email_address_visibility,
            fullName: 'Rita Reader',
            avatarVersion: u.avatar_version,
            avatarPath: null,
          },
        ],
      ]),
    );
    expect(await q.senders([])).toEqual(new Map());

    const reaction = { userId: reader.id, emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' };
    expect(await q.reactions(realmId, [m.alpha, m.link])).toEqual(new Map([[m.alpha, [reaction]]]));
    expect(await q.reactions(other.realmId, [m.alpha])).toEqual(new Map());

    const [{ id: s1 }] = await t.sql(`INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES ($1, $2, 'widget', '{}') RETURNING id`, [
      m.percent,
      t.owner.id,
    ]);
    const [{ id: s2 }] = await t.sql(`INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES ($1, $2, 'widget', '{"v":1}') RETURNING id`, [
      m.percent,
      reader.id,
    ]);
    expect(await q.submessages(realmId, [m.percent, m.alpha])).toEqual(
      new Map([
        [
          m.percent,
          [
            { id: s1, messageId: m.percent, senderId: t.owner.id, msgType: 'widget', content: '{}' },
            { id: s2, messageId: m.percent, senderId: reader.id, msgType: 'widget', content: '{"v":1}' },
          ],
        ],
      ]),
    );
    expect(await q.submessages(other.realmId, [m.percent])).toEqual(new Map());

    expect(await q.channelNames([channelId, other.channelId])).toEqual(new Map([[channelId, 'queries'], [other.channelId, 'queries']]));
    const [{ recipient_id: dmRecipient }] = await t.sql(`SELECT recipient_id FROM messages WHERE id = $1`, [m.dm]);
    const participants = await q.directParticipants([dmRecipient]);
    expect(participants.get(dmRecipient)?.map((p) => p.id)).toEqual([t.owner.id, reader.id].sort((a, b) => a - b));
    expect(participants.get(dmRecipient)?.find((p) => p.id === reader.id)).toEqual((await q.senders([reader.id])).get(reader.id));
    expect(await q.directParticipants([])).toEqual(new Map());

    expect(await q.realmStringId(other.realmId)).toBe('queryother');
  });
});
