import { DataSource } from 'typeorm';
import type { ConversationRepository } from '../../../src/messages/application/message.ports.js';
import { RECIPIENT_CHANNEL, RECIPIENT_DIRECT, TypeOrmConversationRepository } from '../../../src/messages/persistence/typeorm-conversation.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

/*
 * TypeOrmConversationRepository against PostgreSQL: what a send reads about its sender, channel
 * and topic in one statement, recipients and direct conversations made on first use, channel
 * audiences, mention and channel-link lookups, render settings and group members.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;
let member: Account;
let guest: Account;
let other: { owner: Account; realmId: number };

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = await realmOf(ds, t.owner.id);
  member = await t.createUser({ fullName: 'Mona Member' });
  guest = await t.createUser({ role: 600, fullName: 'Gus Guest' });
  const otherOwner = await t.createOrganization('convother');
  other = { owner: otherOwner, realmId: await realmOf(ds, otherOwner.id) };
});
afterAll(() => t.close());

const repo = <T>(work: (r: ConversationRepository) => Promise<T>) => uow.run((tx) => work(tx.conversations));
const ascending = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe('TypeOrmConversationRepository', () => {
  it('reads the sender, subscriptions, topic and recipient of a channel send in one statement', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmConversationRepository);
    const bot = await t.createBot(member, 'sender');
    const channelId = await channelWith(t, 'sends', [member, bot]);
    await sendToChannel(t, member, 'sends', 'Topic', 'one');
    await sendToChannel(t, t.owner, 'sends', 'topic', 'two');
    await t.sql(`UPDATE subscriptions SET is_muted = true WHERE user_id = $1 AND channel_id = $2`, [bot.id, channelId]);
    await t.sql(`INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated) VALUES ($1, $2, $3, 'TOPIC', 3, now())`, [
      realmId,
      bot.id,
      channelId,
    ]);
    const [{ id: recipientId }] = await t.sql(`SELECT id FROM recipients WHERE type = $1 AND type_id = $2`, [RECIPIENT_CHANNEL, channelId]);
    const [u] = await t.sql(`SELECT email, delivery_email, date_joined, timezone, avatar_version, email_address_visibility FROM users WHERE id = $1`, [bot.id]);

    expect(await repo((r) => r.channelSendReads(realmId, bot.id, channelId, 'tOpIc', { participants: true, subscriberCount: true }))).toEqual({
      sender: {
        id: bot.id,
        realmId,
        email: u.email,
        deliveryEmail: u.delivery_email,
        fullName: 'sender bot',
        role: 400,
        isActive: true,
        isBot: true,
        botType: 1,
        botOwnerId: member.id,
        isSystemBot: false,
        dateJoined: u.date_joined,
        timezone: u.timezone,
        avatarVersion: u.avatar_version,
        avatarPath: null,
        defaultSendingStreamId: null,
        defaultEventsRegisterStreamId: null,
        defaultAllPublicStreams: false,
        emailAddressVisibility: u.email_address_visibility,
      },
      subscribed: true,
      muted: true,
      ownerSubscribed: true,
      topicExists: true,
      topicParticipants: expect.arrayContaining([member.id, t.owner.id]),
      senderTopicPolicy: 3,
      recipientId,
      activeSubscribers: 3,
    });
    // Not subscribed, nothing asked for, a new topic, a channel without messages yet.
    const quiet = await channelWith(t, 'quiet', []);
    await t.sql(`DELETE FROM messages WHERE channel_id = $1`, [quiet]);
    await t.sql(`DELETE FROM recipients WHERE type = $1 AND type_id = $2`, [RECIPIENT_CHANNEL, quiet]);
    expect(await repo((r) => r.channelSendReads(realmId, guest.id, quiet, 'new', { participants: false, subscriberCount: false }))).toMatchObject({
      sender: { id: guest.id, role: 600, isBot: false, botOwnerId: null },
      subscribed: false,
      muted: false,
      ownerSubscribed: false,
      topicExists: false,
      topicParticipants: [],
      senderTopicPolicy: 0,
      recipientId: null,
      activeSubscribers: 0,
    });
  });

  it('makes a channel’s recipient once', async () => {
    const channelId = await channelWith(t, 'recipients', []);
    await t.sql(`DELETE FROM messages WHERE channel_id = $1`, [channelId]);
    await t.sql(`DELETE FROM recipients WHERE type = $1 AND type_id = $2`, [RECIPIENT_CHANNEL, channelId]);
    const id = await repo((r) => r.channelRecipient(realmId, channelId));
    expect(await repo((r) => r.channelRecipient(realmId, channelId))).toBe(id);
    expect(await t.sql(`SELECT id, realm_id, type, type_id FROM recipients WHERE type_id = $1 AND type = $2`, [channelId, RECIPIENT_CHANNEL])).toEqual([
      { id, realm_id: realmId, type: RECIPIENT_CHANNEL, type_id: channelId },
    ]);
  });

  it('makes a direct conversation per set of participants, on first use, per organization', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const first = await repo((r) => r.directConversation(realmId, [b.id, a.id, a.id]));
    expect(first).toEqual({ recipientId: expect.any(Number), hasMessages: false });
    expect(await repo((r) => r.directConversation(realmId, [a.id, b.id]))).toEqual(first);
    const [group] = await t.sql(
      `SELECT g.realm_id, g.participant_key, r.type FROM recipients r JOIN direct_message_groups g ON g.id = r.type_id WHERE r.id = $1`,
      [first.recipientId],
    );
    expect(group).toEqual({ realm_id: realmId, participant_key: ascending([a.id, b.id]).join(','), type: RECIPIENT_DIRECT });
    expect(await repo((r) => r.directParticipantsOf([first.recipientId]))).toEqual(new Map([[first.recipientId, ascending([a.id, b.id])]]));

    await sendDirect(t, a, [b.id], 'hi');
    expect(await repo((r) => r.directConversation(realmId, [a.id, b.id]))).toEqual({ recipientId: first.recipientId, hasMessages: true });

    const c = await t.createUser();
    const [again, fresh, self] = await repo((r) =>
      r.directConversations(realmId, [
        [b.id, a.id],
        [a.id, c.id, b.id],
        [c.id, c.id],
      ]),
    );
    expect(again).toBe(first.recipientId);
    expect(new Set([again, fresh, self]).size).toBe(3);
    expect(await repo((r) => r.directConversations(realmId, []))).toEqual([]);
    expect(await repo((r) => r.directParticipantsOf([fresh, self, again]))).toEqual(
      new Map([
        [again, ascending([a.id, b.id])],
        [fresh, ascending([a.id, b.id, c.id])],
        [self, [c.id]],
      ]),
    );
    expect(await repo((r) => r.directParticipantsOf([]))).toEqual(new Map());

    expect(await repo((r) => r.directRecipientsOf(realmId, [[a.id, b.id], [c.id, a.id], [c.id], [a.id, b.id, c.id]]))).toEqual([again, null, self, fresh]);
    expect(await repo((r) => r.directRecipientsOf(other.realmId, [[a.id, b.id]]))).toEqual([null]);
    expect(await repo((r) => r.directRecipientsOf(realmId, []))).toEqual([]);
  });

  it('counts and lists a channel’s active subscribers', async () => {
    const gone = await t.createUser();
    const left = await t.createUser();
    const channelId = await channelWith(t, 'audience', [member, gone, left]);
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    await t.sql(`UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = $2`, [left.id, channelId]);
    expect(await repo((r) => r.activeSubscriberCount(channelId))).toBe(2);
    // The subscriptions themselves: a deactivated user's is still active.
    expect(ascending(await repo((r) => r.activeSubscribers(channelId)))).toEqual(ascending([t.owner.id, member.id, gone.id]));
  });

  it('looks up mentioned users and groups of the organization', async () => {
    const gone = await t.createUser({ fullName: 'Gone Person' });
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    const res = await t.post('user_groups/create', { form: { name: 'Crew', description: '', members: [member.id] } });
    expect(res.status).toBe(200);
    const groupId: number = res.body.group_id;
    const [{ can_mention_group_id: canMention }] = await t.sql(`SELECT can_mention_group_id FROM user_groups WHERE id = $1`, [groupId]);
    await t.post('user_groups/create', { as: other.owner, form: { name: 'Crew', description: '', members: [] } });

    const found = await repo((r) => r.mentionCandidates(realmId, ['mona member', 'gone person'], [guest.id, other.owner.id], ['Crew', 'role:everyone', 'nope']));
    expect({ ...found, users: [...found.users].sort((p, q) => p.id - q.id) }).toEqual({
      users: [
        { id: member.id, fullName: 'Mona Member', isBot: false },
        { id: guest.id, fullName: 'Gus Guest', isBot: false },
      ].sort((p, q) => p.id - q.id),
      groups: [{ id: groupId, name: 'Crew', canMentionGroupId: canMention }],
    });
    expect((await repo((r) => r.mentionCandidates(realmId, ['mona member'], [guest.id], []))).users).toHaveLength(2);
    expect(await repo((r) => r.mentionCandidates(realmId, [], [], []))).toEqual({ users: [], groups: [] });
  });

  it('finds the channels a viewer may link to by their exact names', async () => {
    const open = await channelWith(t, 'Open', []);
    const secret = await channelWith(t, 'Secret', [], { inviteOnly: true });
    const shared = await channelWith(t, 'Shared', [guest], { inviteOnly: true });
    const archived = await channelWith(t, 'Archived', []);
    await t.sql(`UPDATE channels SET is_archived = true WHERE id = $1`, [archived]);
    const names = ['Open', 'Secret', 'Shared', 'Archived', 'open'];
    const linkable = async (viewer: number | null) =>
      (await repo((r) => r.linkableChannels(realmId, names, viewer))).sort((a, b) => a.id - b.id);
    expect(await linkable(null)).toEqual([
      { id: open, name: 'Open' },
      { id: secret, name: 'Secret' },
      { id: shared, name: 'Shared' },
    ]);
    expect(await linkable(member.id)).toEqual([{ id: open, name: 'Open' }]);
    expect(await linkable(guest.id)).toEqual([{ id: shared, name: 'Shared' }]);
    expect(await repo((r) => r.linkableChannels(other.realmId, names, null))).toEqual([]);
    expect(await repo((r) => r.linkableChannels(realmId, [], null))).toEqual([]);
  });

  it('reads the organization’s render settings with its linkifiers in order', async () => {
    const linkifier = (pattern: string, urlTemplate: string) => ({ pattern, urlTemplate, exampleInput: null, reverseTemplate: null, alternativeUrlTemplates: [] });
    const [{ string_id: stringId }] = await t.sql(`SELECT string_id FROM realms WHERE id = $1`, [realmId]);
    expect(await repo((r) => r.renderSettings(other.realmId))).toEqual({ stringId: 'convother', linkifiers: [] });
    const a = await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('A(?P<id>\\d+)', 'https://a/{id}')));
    const b = await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('B(?P<id>\\d+)', 'https://b/{id}')));
    await uow.run((tx) => tx.linkifiers.setOrder(realmId, [b, a]));
    expect(await repo((r) => r.renderSettings(realmId))).toEqual({
      stringId,
      linkifiers: [
        { pattern: 'B(?P<id>\\d+)', urlTemplate: 'https://b/{id}' },
        { pattern: 'A(?P<id>\\d+)', urlTemplate: 'https://a/{id}' },
      ],
    });
  });

  it('expands groups to their active members through subgroups', async () => {
    const x = await t.createUser();
    const y = await t.createUser();
    const gone = await t.createUser();
    const inner = (await t.post('user_groups/create', { form: { name: 'Inner', description: '', members: [y.id, gone.id] } })).body.group_id;
    const outer = (await t.post('user_groups/create', { form: { name: 'Outer', description: '', members: [x.id], subgroups: [inner] } })).body.group_id;
    await t.sql(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    expect(ascending(await repo((r) => r.groupMembers([outer])))).toEqual(ascending([x.id, y.id]));
    expect(ascending(await repo((r) => r.groupMembers([inner, outer])))).toEqual(ascending([x.id, y.id]));
    expect(await repo((r) => r.groupMembers([]))).toEqual([]);
  });
});
