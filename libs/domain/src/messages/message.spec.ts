import {
  aChannel,
  aDirectMessage,
  aMessage,
  aViewer,
  channelSend,
  channelSettings,
  directSend,
  GROUP,
  mentionsOf,
  newMessage,
  noMentions,
  realmRules,
  refusalOf,
  refusalText,
  secondsAfter,
  T0,
} from '../../test/builders.js';
import { Role } from '../users/role.js';
import { Message } from './message.js';

const NOW = secondsAfter(T0, 5);
const send = (o: Parameters<typeof channelSend>[0] = {}, m: Parameters<typeof newMessage>[0] = {}) => () =>
  Message.create(newMessage(m), channelSend(o), NOW);
const sendDirect = (o: Parameters<typeof directSend>[0] = {}, m: Parameters<typeof newMessage>[0] = {}) => () =>
  Message.create(newMessage(m), directSend(o), NOW);
const subscribers = (n: number) => ({ activeSubscribers: n });
const participants = (n: number) => ({ topicParticipants: Array.from({ length: n }, (_, i) => 200 + i) });

describe('Message.create to a channel', () => {
  it('is a new message of the topic with its flag plan (read for the sender, mentions as resolved), recording no event', () => {
    const m = Message.create(newMessage({ mentions: mentionsOf('@**Bob** @**all**', [61]) }), channelSend(), NOW);
    expect(m.snapshot()).toEqual({
      id: 0,
      realmId: 1,
      senderId: 60,
      recipientId: 30,
      channelId: 9,
      topic: 'lunch',
      content: 'hello',
      renderedContent: '<p>hello</p>',
      dateSent: NOW,
      sendingClient: 'website',
      lastEditTime: null,
      lastMovedTime: null,
      editHistory: [],
      hasAttachment: false,
      hasSubmessages: false,
    });
    const plan = { audience: { kind: 'channel', channelId: 9 }, senderId: 60, senderRead: true, alsoReadBy: [], mentioned: [61], streamWildcard: true, topicWildcardUsers: [], alertWordText: 'hello' };
    expect(m.pendingFlagPlan()).toEqual(plan);
    expect(m.pullEvents()).toEqual([]);
  });

  it('gets its id once stored, once', () => {
    const m = send()();
    m.identify(321);
    expect(m.id).toBe(321);
    expect(() => m.identify(322)).toThrow('message 321 already has an id');
    expect(() => m.pendingFlagPlan()).toThrow('only a new message has a flag plan');
  });

  it('takes a widget while new: stored with it as its first submessage, which its event shows', () => {
    const plain = send()();
    expect(plain.pendingWidget()).toBeNull();
    expect(() => plain.identify(1, 2)).toThrow('a widget message is identified with its submessage');
    const m = send()();
    m.attachWidget('{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}');
    expect(m.snapshot().hasSubmessages).toBe(true);
    expect(m.pendingWidget()).toBe('{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}');
    expect(() => m.identify(321)).toThrow('a widget message is identified with its submessage');
    m.identify(321, 7);
    expect(m.pendingWidget()).toBeNull();
    expect(m.newSubmessages()).toEqual([
      { id: 7, messageId: 321, senderId: 60, msgType: 'widget', content: '{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}' },
    ]);
    expect(() => m.attachWidget('{}')).toThrow('only a new message takes a widget');
    expect(Message.restore(m.snapshot()).newSubmessages()).toEqual([]);
  });

  it('needs can_send_message_group, which a bot’s owner lends it', () => {
    const closed = aChannel({ groupSettings: channelSettings({ can_send_message_group: GROUP.ADMINS }) });
    expect(refusalText(send({ channel: closed }))).toBe('You do not have permission to post in this channel.');
    expect(refusalText(send({ channel: closed, sender: aViewer(Role.ADMINISTRATOR) }))).toBeNull();
    expect(refusalText(send({ channel: closed, botOwner: aViewer(Role.ADMINISTRATOR, 70) }))).toBeNull();
  });

  it.each([
    ['an archived channel', { channel: aChannel({ isArchived: true }) }, "Not authorized to send to channel 'general'"],
    ['a private channel, unsubscribed', { channel: aChannel({ inviteOnly: true }), subscribed: false }, "Not authorized to send to channel 'general'"],
    ['a private channel, subscribed', { channel: aChannel({ inviteOnly: true }), subscribed: true }, null],
    ['a private channel, the bot’s owner subscribed', { channel: aChannel({ inviteOnly: true }), subscribed: false, botOwnerSubscribed: true }, null],
    [
      'a private channel with shared history, in can_subscribe_group',
      { channel: aChannel({ inviteOnly: true, groupSettings: channelSettings({ can_subscribe_group: GROUP.MEMBERS }) }), subscribed: false },
      null,
    ],
    [
      'a private channel with protected history, in can_subscribe_group',
      {
        channel: aChannel({ inviteOnly: true, historyPublicToSubscribers: false, groupSettings: channelSettings({ can_subscribe_group: GROUP.MEMBERS }) }),
        subscribed: false,
      },
      "Not authorized to send to channel 'general'",
    ],
    ['a public channel, as an unsubscribed guest', { sender: aViewer(Role.GUEST), subscribed: false }, "Not authorized to send to channel 'general'"],
    ['a web-public channel, as an unsubscribed guest', { channel: aChannel({ isWebPublic: true }), sender: aViewer(Role.GUEST), subscribed: false }, null],
    ['a public channel, as an unsubscribed member', { subscribed: false }, null],
  ])('posting to %s', (_case, facts, refusal) => {
    expect(refusalText(send(facts))).toBe(refusal);
  });

  it('creates a topic only with can_create_topic_group (role:everyone lets anybody; a bot’s owner counts)', () => {
    const nobody = aChannel({ groupSettings: channelSettings({ can_create_topic_group: GROUP.NOBODY }) });
    const named = aChannel({ groupSettings: channelSettings({ can_create_topic_group: { directMembers: [70], directSubgroups: [] } }) });
    expect(refusalText(send({ channel: nobody, topicExists: false }))).toBe('You do not have permission to create new topics in this channel.');
    expect(refusalText(send({ channel: nobody, topicExists: true }))).toBeNull();
    expect(refusalText(send({ channel: named, topicExists: false }))).toBe('You do not have permission to create new topics in this channel.');
    expect(refusalText(send({ channel: named, topicExists: false, botOwner: aViewer(Role.MEMBER, 70) }))).toBeNull();
    expect(refusalText(send({ topicExists: false, realm: { ...channelSend().realm, everyoneGroupId: 999 } }))).toBeNull(); // member holds role:everyone anyway
  });

  it('follows the topics policy, the channel’s or the organization’s when it inherits', () => {
    const data = { empty_topic_display_name: 'general chat' };
    const disabled = aChannel({ topicsPolicy: 'disable_empty_topic' });
    expect(refusalOf(send({ channel: disabled, topic: '' }))).toEqual({
      msg: 'Sending messages to the general chat is not allowed in this channel.',
      code: 'BAD_REQUEST',
      data,
    });
    const realm = { ...channelSend().realm, topicsPolicy: 'disable_empty_topic' as const };
    expect(refusalText(send({ topic: '', realm }))).toBe('Sending messages to the general chat is not allowed in this channel.');
    expect(refusalText(send({ topic: '', realm, channel: aChannel({ topicsPolicy: 'allow_empty_topic' }) }))).toBeNull();
    expect(refusalOf(send({ channel: aChannel({ topicsPolicy: 'empty_topic_only' }) }))).toEqual({
      msg: 'Only the general chat topic is allowed in this channel.',
      code: 'BAD_REQUEST',
      data,
    });
    expect(refusalText(send({ channel: aChannel({ topicsPolicy: 'empty_topic_only' }), topic: '' }))).toBeNull();
  });

  it('refuses loud mentions of a group the sender may not mention', () => {
    const devs = { name: 'devs', canMention: GROUP.ADMINS };
    expect(refusalText(send({}, { mentions: mentionsOf('@*devs*', [], [devs]) }))).toBe("You are not allowed to mention user group 'devs'.");
    expect(refusalText(send({ sender: aViewer(Role.ADMINISTRATOR) }, { mentions: mentionsOf('@*devs*', [], [devs]) }))).toBeNull();
  });

  it('allows channel wildcards up to 15 active subscribers, beyond only with can_mention_many_users_group', () => {
    const all = { mentions: noMentions({ streamWildcard: true }) };
    expect(refusalText(send(subscribers(15), all))).toBeNull();
    expect(refusalOf(send(subscribers(16), all))).toEqual({
      msg: 'You do not have permission to use channel wildcard mentions in this channel.',
      code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      data: {},
    });
    expect(refusalText(send({ ...subscribers(16), sender: aViewer(Role.ADMINISTRATOR) }, all))).toBeNull();
    expect(refusalText(send(subscribers(500)))).toBeNull(); // no wildcard, no limit
  });

  it('allows topic wildcards up to 15 participants, the sender included, and flags them all', () => {
    const topic = { mentions: noMentions({ topicWildcard: true }) };
    expect(refusalText(send(participants(14), topic))).toBeNull();
    expect(refusalOf(send(participants(15), topic))).toEqual({
      msg: 'You do not have permission to use topic wildcard mentions in this topic.',
      code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      data: {},
    });
    expect(refusalText(send({ ...participants(15), topicParticipants: [...participants(14).topicParticipants, 60] }, topic))).toBeNull();
    expect(refusalText(send({ ...participants(15), sender: aViewer(Role.ADMINISTRATOR) }, topic))).toBeNull();
    const m = Message.create(newMessage(topic), channelSend({ topicParticipants: [61, 62] }), NOW);
    expect(m.pendingFlagPlan().topicWildcardUsers).toEqual([61, 62, 60]);
  });

  it('checks in Zulip’s order: posting, topic creation, topics policy, group mentions, wildcards', () => {
    const everything = {
      channel: aChannel({ inviteOnly: true, topicsPolicy: 'empty_topic_only', groupSettings: channelSettings({ can_create_topic_group: GROUP.NOBODY }) }),
      subscribed: false,
      topicExists: false,
      ...subscribers(16),
    };
    const m = { mentions: { ...noMentions({ streamWildcard: true }), loudGroups: [{ name: 'devs', canMention: GROUP.NOBODY }] } };
    expect(refusalText(send(everything, m))).toBe("Not authorized to send to channel 'general'");
    expect(refusalText(send({ ...everything, subscribed: true }, m))).toBe('You do not have permission to create new topics in this channel.');
    expect(refusalText(send({ ...everything, subscribed: true, topicExists: true }, m))).toBe('Only the general chat topic is allowed in this channel.');
    expect(refusalText(send({ ...everything, subscribed: true, topicExists: true, topic: '' }, m))).toBe("You are not allowed to mention user group 'devs'.");
    expect(refusalText(send({ ...everything, subscribed: true, topicExists: true, topic: '' }, { mentions: noMentions({ streamWildcard: true }) }))).toBe(
      'You do not have permission to use channel wildcard mentions in this channel.',
    );
  });
});

describe('Message.create as a direct message', () => {
  it('goes to the participants, never with topic wildcard flags', () => {
    const m = Message.create(newMessage({ mentions: mentionsOf('@**topic**', [61]), readBySender: false }), directSend(), NOW);
    expect(m.snapshot()).toMatchObject({ channelId: null, topic: '', recipientId: 31 });
    expect(m.pendingFlagPlan()).toEqual({
      audience: { kind: 'direct', userIds: [60, 61] },
      senderId: 60,
      senderRead: false,
      alsoReadBy: [],
      mentioned: [61],
      streamWildcard: false,
      topicWildcardUsers: [],
      alertWordText: 'hello',
    });
  });

  it.each([
    ['bots write to anybody', { senderIsBot: true, someoneAuthorizes: false, senderCanInitiate: false, conversationExists: false }, null],
    ['anybody writes to bots only', { onlyBotsOrSelf: true, someoneAuthorizes: false, permissionGroupIsNobody: true }, null],
    ['nobody may', { someoneAuthorizes: false, permissionGroupIsNobody: true }, 'Direct messages are disabled in this organization.'],
    ['no participant authorizes', { someoneAuthorizes: false }, 'This conversation does not include any users who can authorize it.'],
    ['a new conversation without the initiator group', { senderCanInitiate: false, conversationExists: false }, 'You do not have permission to initiate direct message conversations.'],
    ['an existing conversation without the initiator group', { senderCanInitiate: false, conversationExists: true }, null],
  ])('%s', (_case, facts, refusal) => {
    expect(refusalText(sendDirect(facts))).toBe(refusal);
  });

  it('checks group mentions after the direct-message rules', () => {
    const m = { mentions: { ...noMentions(), loudGroups: [{ name: 'devs', canMention: GROUP.NOBODY }] } };
    expect(refusalText(sendDirect({ someoneAuthorizes: false }, m))).toBe('This conversation does not include any users who can authorize it.');
    expect(refusalText(sendDirect({}, m))).toBe("You are not allowed to mention user group 'devs'.");
  });
});

describe('Message.createNotice', () => {
  it('skips the sending rules and starts read for the bot and the acting user', () => {
    const m = Message.createNotice(
      { realmId: 1, senderId: 5, content: 'moved', renderedContent: '<p>moved</p>', sendingClient: 'Internal' },
      { kind: 'channel', channelId: 9, recipientId: 30, topic: 'lunch' },
      [60],
      NOW,
    );
    expect(m.snapshot()).toMatchObject({ senderId: 5, channelId: 9, topic: 'lunch', sendingClient: 'Internal', hasAttachment: false });
    expect(m.pendingFlagPlan()).toEqual({
      audience: { kind: 'channel', channelId: 9 },
      senderId: 5,
      senderRead: true,
      alsoReadBy: [60],
      mentioned: [],
      streamWildcard: false,
      topicWildcardUsers: [],
      alertWordText: 'moved',
    });
    const dm = Message.createNotice({ realmId: 1, senderId: 5, content: 'r', renderedContent: '<p>r</p>', sendingClient: 'Internal' }, { kind: 'direct', recipientId: 31, participants: [5, 60] }, [], NOW);
    expect(dm.pendingFlagPlan().audience).toEqual({ kind: 'direct', userIds: [5, 60] });
    expect(dm.snapshot()).toMatchObject({ channelId: null, topic: '', recipientId: 31 });
  });
});

describe('Message.delete', () => {
  const rules = realmRules();
  const del = (m: Message, deleter = aViewer(), seconds = 1, o: { channel?: ReturnType<typeof aChannel> | null; ownBot?: boolean; r?: typeof rules } = {}) => () =>
    m.delete(deleter, o.r ?? rules, o.channel === undefined ? aChannel() : o.channel, o.ownBot ?? false, secondsAfter(T0, seconds));

  it('lets senders delete their own message within the limit, without grace, and records it', () => {
    const m = aMessage();
    expect(refusalText(del(m, aViewer(), 600))).toBeNull();
    expect(m.pullEvents()).toEqual([{ type: 'deleted', messageId: 100, channelId: 9, topic: 'lunch' }]);
    expect(refusalText(del(aMessage(), aViewer(), 601))).toBe('The time limit for deleting this message has passed');
    expect(refusalText(del(aMessage(), aViewer(), 1e9, { r: realmRules({ deleteLimitSeconds: null }) }))).toBeNull();
  });

  it('treats a bot’s messages as its owner’s', () => {
    const m = aMessage({ senderId: 80 });
    expect(refusalText(del(m))).toBe("You don't have permission to delete this message");
    expect(refusalText(del(m, aViewer(), 1, { ownBot: true }))).toBeNull();
  });

  it('needs can_delete_own_message_group, of the organization or of the channel', () => {
    const r = realmRules({ groups: { canDeleteOwn: GROUP.NOBODY } });
    expect(refusalText(del(aMessage(), aViewer(), 1, { r }))).toBe("You don't have permission to delete this message");
    const channel = aChannel({ groupSettings: channelSettings({ can_delete_own_message_group: GROUP.MEMBERS }) });
    expect(refusalText(del(aMessage(), aViewer(), 1, { r, channel }))).toBeNull();
    expect(refusalText(del(aDirectMessage(), aViewer(), 1, { r, channel: null }))).toBe("You don't have permission to delete this message");
  });

  it('lets can_delete_any_message_group delete anything at any age', () => {
    const other = () => aMessage({ senderId: 61 });
    expect(refusalText(del(other(), aViewer(Role.ADMINISTRATOR), 1e9))).toBeNull();
    expect(refusalText(del(other(), aViewer(Role.MODERATOR), 1))).toBe("You don't have permission to delete this message");
    const channel = aChannel({ groupSettings: channelSettings({ can_delete_any_message_group: GROUP.MODERATORS }) });
    expect(refusalText(del(other(), aViewer(Role.MODERATOR), 1e9, { channel }))).toBeNull();
  });

  it('records a direct message’s deletion without a channel', () => {
    const m = aDirectMessage();
    del(m, aViewer(), 1, { channel: null })();
    expect(m.pullEvents()).toEqual([{ type: 'deleted', messageId: 100, channelId: null, topic: '' }]);
  });
});
