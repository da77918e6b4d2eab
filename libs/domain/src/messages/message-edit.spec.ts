import {
  aChannel,
  aDirectMessage,
  aMessage,
  aViewer,
  channelSettings,
  editFacts,
  editRequest,
  GROUP,
  mentionsOf,
  noMentions,
  realmRules,
  refusalOf,
  refusalText,
  secondsAfter,
  T0,
} from '../../test/builders.js';
import type { Channel } from '../channels/channel.js';
import { Role } from '../users/role.js';
import type { EditFacts, Message } from './message.js';
import type { EditRequest, RealmMessageRules } from './message-edit.policy.js';

const at = (s: number) => secondsAfter(T0, s);
const request = (m: Message, o: Partial<EditRequest>, s = 1, realm: RealmMessageRules = realmRules(), editorId = 60) => () =>
  m.requestEdit(editRequest(o), editorId, realm, at(s));
/** requestEdit then edit, as the service does; returns the decided move. */
function editOf(m: Message, o: Partial<EditRequest>, f: Partial<EditFacts> & { to?: Channel } = {}, s = 1) {
  const facts = editFacts(f);
  return () => m.edit(m.requestEdit(editRequest(o), facts.editor.userId, facts.realm, at(s)), facts, at(s));
}
const other = () => aChannel({ id: 12, name: 'other' });
const withContent = (f: Partial<EditFacts> = {}): Partial<EditFacts> => ({ mentions: noMentions(), renderedContent: '<p>new</p>', sourceTopic: { participants: [60], activeSubscribers: 0 }, ...f });

describe('content edits (spec 11 §1.2 step 2)', () => {
  it('are for the sender within the limit + 20 s grace, administrators included', () => {
    expect(refusalText(request(aMessage(), { content: 'x' }, 620))).toBeNull();
    expect(refusalText(request(aMessage(), { content: 'x' }, 621))).toBe('The time limit for editing this message has passed');
    expect(refusalText(request(aMessage(), { content: 'x' }, 1, realmRules(), 61))).toBe("You don't have permission to edit this message");
    expect(refusalText(request(aMessage(), { content: 'x' }, 1e9, realmRules({ contentEditLimitSeconds: null })))).toBeNull();
    expect(refusalText(request(aMessage(), { content: 'x' }, 1, realmRules({ allowMessageEditing: false })))).toBe(
      'Your organization has turned off message editing',
    );
  });

  it('come before every payload check', () => {
    expect(refusalText(request(aMessage({ content: '/poll x' }), { content: 'x', channelId: 12 }, 621))).toBe('The time limit for editing this message has passed');
  });

  it('normalise the content; a blank edit becomes (deleted)', () => {
    expect(request(aMessage(), { content: '\nnew  \n' })()).toEqual({
      content: 'new',
      topic: undefined,
      channelId: undefined,
      resolve: null,
      propagateMode: 'change_one',
      moves: false,
    });
    expect(request(aMessage(), { content: '   ' })().content).toBe('(deleted)');
    expect(refusalText(request(aMessage(), { content: 'a\u0000' }))).toBe('Message must not contain null bytes');
  });
});

describe('the payload checks (step 3–4), in order', () => {
  it.each([
    ['no change at all', aMessage(), {}, 'Nothing to change'],
    ['the same topic, after stripping', aMessage(), { topic: '  lunch ' }, 'Nothing to change'],
    ['the same channel', aMessage(), { channelId: 9 }, 'Nothing to change'],
    ['general chat for the empty topic', aMessage({ topic: '' }), { topic: 'general chat' }, 'Nothing to change'],
    ['a direct message to a channel', aDirectMessage(), { channelId: 12, topic: 'x' }, 'Direct messages cannot be moved to channels.'],
    ['a topic for a direct message', aDirectMessage(), { topic: 'x' }, 'Direct messages cannot have topics.'],
    ['change_all for a content edit', aMessage(), { content: 'x', propagateMode: 'change_all' as const }, 'Invalid propagate_mode without topic edit'],
    ['resolving general chat (✔)', aMessage(), { topic: '✔' }, 'General chat cannot be marked as resolved'],
    ['resolving general chat (✔ general chat)', aMessage(), { topic: '✔ general chat' }, 'General chat cannot be marked as resolved'],
    ['an unprintable topic', aMessage(), { topic: 'a\u0001b' }, 'Invalid character in topic, at position 2!'],
    ['content with a channel, even the same one', aMessage(), { content: 'x', channelId: 9 }, 'Cannot change message content while changing channel'],
    ['content of a widget', aMessage({ content: '/todo list', hasSubmessages: true }), { content: 'x' }, 'Widgets cannot be edited.'],
    ['content of a message with submessages (a widget_content widget)', aMessage({ content: 'choose', hasSubmessages: true }), { content: 'x' }, 'Widgets cannot be edited.'],
    ['content that reads like a widget without being one (no submessage)', aMessage({ content: '/todo list' }), { content: 'x' }, null],
    ['a topic of a widget', aMessage({ content: '/todo list', hasSubmessages: true }), { topic: 'x' }, null],
  ])('%s', (_case, m, o, refusal) => {
    expect(refusalText(request(m, o))).toBe(refusal);
  });

  it('check prev_content_sha256 whenever it was sent, even for a topic move', () => {
    expect(refusalOf(request(aMessage(), { topic: 'x', prevContentMatches: false }))).toEqual({
      msg: "'prev_content_sha256' value does not match the expected value.",
      code: 'EXPECTATION_MISMATCH',
      data: { field_name: 'prev_content_sha256' },
    });
    expect(refusalText(request(aMessage(), { topic: 'x', prevContentMatches: true }))).toBeNull();
  });

  it('truncate the new topic and tell resolve toggles apart', () => {
    expect(request(aMessage(), { topic: 'x'.repeat(70) })().topic).toBe(`${'x'.repeat(57)}...`);
    expect(request(aMessage(), { topic: '✔ lunch', propagateMode: 'change_all' })()).toEqual({
      content: undefined,
      topic: '✔ lunch',
      channelId: undefined,
      resolve: 'resolve',
      propagateMode: 'change_all',
      moves: true,
    });
    expect(request(aMessage({ topic: '✔ lunch' }), { topic: 'lunch' })().resolve).toBe('unresolve');
    expect(request(aMessage(), { topic: '✔ dinner' })().resolve).toBeNull();
  });
});

describe('the destination (step 5)', () => {
  it('must exist, be active and readable', () => {
    const unknown = { destination: { channel: null, subscribed: false, recipientId: 0 } };
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, unknown))).toBe('Invalid channel ID');
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { to: aChannel({ id: 12, isArchived: true }) }))).toBe('Invalid channel ID');
    const secret = { destination: { channel: aChannel({ id: 12, inviteOnly: true }), subscribed: false, recipientId: 40 } };
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, secret))).toBe('Invalid channel ID');
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { to: other() }))).toBeNull();
  });

  it('follows the destination’s topics policy', () => {
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { to: aChannel({ id: 12, topicsPolicy: 'empty_topic_only' }) }))).toBe(
      'Only the general chat topic is allowed in this channel.',
    );
    const realm = realmRules({ topicsPolicy: 'disable_empty_topic' });
    expect(refusalText(editOf(aMessage(), { topic: 'general chat' }, { realm }))).toBe('Sending messages to the general chat is not allowed in this channel.');
  });
});

describe('topic renames (step 6)', () => {
  const nobodyRenames = realmRules({ groups: { canMoveBetweenTopics: GROUP.NOBODY } });
  it('need the realm’s group, administration, or a channel’s move or administer group (source or destination)', () => {
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { realm: nobodyRenames }))).toBe("You don't have permission to edit this message");
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { realm: nobodyRenames, editor: aViewer(Role.ADMINISTRATOR) }))).toBeNull();
    const movers = aChannel({ groupSettings: channelSettings({ can_move_messages_within_channel_group: GROUP.MEMBERS }) });
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { realm: nobodyRenames, source: movers }))).toBeNull();
    const administered = aChannel({ id: 12, groupSettings: channelSettings({ can_administer_channel_group: { directMembers: [60], directSubgroups: [] } }) });
    expect(refusalText(editOf(aMessage(), { topic: 'x', channelId: 12 }, { realm: nobodyRenames, to: administered }))).toBeNull();
  });

  it('are not the sender’s right', () => {
    expect(refusalText(editOf(aMessage({ senderId: 60 }), { topic: 'x' }, { realm: nobodyRenames }))).toBe("You don't have permission to edit this message");
  });

  it('have the limit + 20 s grace, moderators exempt', () => {
    const realm = realmRules({ moveWithinChannelLimitSeconds: 100 });
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { realm }, 120))).toBeNull();
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { realm }, 121))).toBe("The time limit for editing this message's topic has passed.");
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { realm, editor: aViewer(Role.MODERATOR) }, 1e6))).toBeNull();
  });

  it('resolving needs a can_resolve_topics_group (realm, source or destination) and no time limit', () => {
    const realm = realmRules({ groups: { canResolveTopics: GROUP.NOBODY }, moveWithinChannelLimitSeconds: 100 });
    expect(refusalText(editOf(aMessage(), { topic: '✔ lunch' }, { realm }))).toBe("You don't have permission to resolve topics in this channel.");
    const resolvers = aChannel({ groupSettings: channelSettings({ can_resolve_topics_group: GROUP.MEMBERS }) });
    expect(refusalText(editOf(aMessage(), { topic: '✔ lunch' }, { realm, source: resolvers }, 1e6))).toBeNull();
    const resolversThere = aChannel({ id: 12, groupSettings: channelSettings({ can_resolve_topics_group: GROUP.MEMBERS }) });
    expect(refusalText(editOf(aMessage(), { topic: '✔ lunch', channelId: 12 }, { realm, to: resolversThere }))).toBeNull();
    const everyone = realmRules({ moveWithinChannelLimitSeconds: 100 });
    expect(refusalText(editOf(aMessage({ topic: '✔ lunch' }), { topic: 'lunch' }, { realm: everyone }, 1e6))).toBeNull();
  });
});

describe('content mentions on edit (step 7)', () => {
  it('refuse groups the editor may not mention', () => {
    const f = withContent({ mentions: mentionsOf('@*devs*', [], [{ name: 'devs', canMention: GROUP.ADMINS }]) });
    expect(refusalText(editOf(aMessage(), { content: '@*devs*' }, f))).toBe("You are not allowed to mention user group 'devs'.");
  });

  it('limit channel wildcards to 15 active subscribers and topic wildcards to 15 participants (the sender counted)', () => {
    const all = (n: number) => withContent({ mentions: noMentions({ streamWildcard: true }), sourceTopic: { participants: [60], activeSubscribers: n } });
    expect(refusalText(editOf(aMessage(), { content: '@**all**' }, all(15)))).toBeNull();
    expect(refusalOf(editOf(aMessage(), { content: '@**all**' }, all(16)))?.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    const topic = (ids: number[]) => withContent({ mentions: noMentions({ topicWildcard: true }), sourceTopic: { participants: ids, activeSubscribers: 0 } });
    const fourteen = Array.from({ length: 14 }, (_, i) => 200 + i);
    expect(refusalText(editOf(aMessage(), { content: '@**topic**' }, topic([...fourteen, 60])))).toBeNull();
    expect(refusalOf(editOf(aMessage(), { content: '@**topic**' }, topic([...fourteen, 214])))?.code).toBe('TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
    expect(refusalText(editOf(aMessage(), { content: '@**all**' }, { ...all(16), editor: aViewer(Role.ADMINISTRATOR, 70) }))).toBe(
      "You don't have permission to edit this message",
    ); // administrators are not the sender
  });

  it('have no wildcard limit in direct messages', () => {
    const f = withContent({ source: null, mentions: noMentions({ streamWildcard: true }), sourceTopic: undefined });
    expect(refusalText(editOf(aDirectMessage(), { content: '@**all**' }, f))).toBeNull();
  });
});

describe('channel moves (step 8)', () => {
  it('need to move out of the source: administrator, the realm group, channel administration or can_move_messages_out_of_channel_group', () => {
    const realm = realmRules({ groups: { canMoveBetweenChannels: GROUP.NOBODY } });
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other() }))).toBe("You don't have permission to move this message");
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other(), editor: aViewer(Role.ADMINISTRATOR) }))).toBeNull();
    const outOf = aChannel({ groupSettings: channelSettings({ can_move_messages_out_of_channel_group: GROUP.MEMBERS }) });
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other(), source: outOf }))).toBeNull();
    const administered = aChannel({ groupSettings: channelSettings({ can_administer_channel_group: { directMembers: [60], directSubgroups: [] } }) });
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other(), source: administered }))).toBeNull();
    const unsubscribed = { channel: other(), subscribed: false, recipientId: 40 };
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { destination: unsubscribed, editor: aViewer(Role.GUEST) }))).toBe('Invalid channel ID');
  });

  it('need to post in the destination', () => {
    const closed = aChannel({ id: 12, groupSettings: channelSettings({ can_send_message_group: GROUP.ADMINS }) });
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { to: closed }))).toBe('You do not have permission to post in this channel.');
  });

  it('have the limit + 20 s grace, moderators exempt', () => {
    const realm = realmRules({ moveBetweenChannelsLimitSeconds: 100 });
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other() }, 120))).toBeNull();
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other() }, 121))).toBe("The time limit for editing this message's channel has passed");
    expect(refusalText(editOf(aMessage(), { channelId: 12 }, { realm, to: other(), editor: aViewer(Role.MODERATOR) }, 1e6))).toBeNull();
  });
});

describe('the whole-topic limit of change_all (step 9)', () => {
  const topicMessages = [
    { id: 90, dateSent: secondsAfter(T0, -50) },
    { id: 100, dateSent: T0 },
    { id: 110, dateSent: secondsAfter(T0, 50) },
  ];
  const realm = realmRules({ moveWithinChannelLimitSeconds: 100 });

  it('refuses with the counts when older messages are past the limit', () => {
    expect(refusalOf(editOf(aMessage(), { topic: 'x', propagateMode: 'change_all' }, { realm, topicMessages }, 120))).toEqual({
      msg: 'You only have permission to move the 2/3 most recent messages in this topic.',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      data: { first_message_id_allowed_to_move: 100, total_messages_in_topic: 3, total_messages_allowed_to_move: 2 },
    });
  });

  it('takes the smaller of both limits when the channel changes too', () => {
    const both = realmRules({ moveWithinChannelLimitSeconds: 1000, moveBetweenChannelsLimitSeconds: 40 });
    expect(refusalOf(editOf(aMessage(), { topic: 'x', channelId: 12, propagateMode: 'change_all' }, { realm: both, topicMessages, to: other() }, 20))?.data).toEqual({
      first_message_id_allowed_to_move: 100,
      total_messages_in_topic: 3,
      total_messages_allowed_to_move: 2,
    });
  });

  it('does not apply to moderators, resolve toggles, change_later, or without limits', () => {
    expect(refusalText(editOf(aMessage(), { topic: 'x', propagateMode: 'change_all' }, { realm, topicMessages, editor: aViewer(Role.MODERATOR) }, 120))).toBeNull();
    expect(refusalText(editOf(aMessage(), { topic: '✔ lunch', propagateMode: 'change_all' }, { realm, topicMessages }, 120))).toBeNull();
    expect(refusalText(editOf(aMessage(), { topic: 'x', propagateMode: 'change_later' }, { realm, topicMessages }, 120))).toBeNull();
    const unlimited = realmRules({ moveWithinChannelLimitSeconds: null });
    expect(refusalText(editOf(aMessage(), { topic: 'x', propagateMode: 'change_all' }, { realm: unlimited, topicMessages }, 1e6))).toBeNull();
  });

  it('comes after the per-message topic limit on the target itself', () => {
    expect(refusalText(editOf(aMessage(), { topic: 'x', propagateMode: 'change_all' }, { realm, topicMessages }, 121))).toBe(
      "The time limit for editing this message's topic has passed.",
    );
  });
});

describe('a move into a new topic (step 10)', () => {
  const noTopics = aChannel({ groupSettings: channelSettings({ can_create_topic_group: GROUP.NOBODY }) });
  it('needs can_create_topic_group, unless the topic exists or it is a resolve toggle', () => {
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { source: noTopics }))).toBe('You do not have permission to create new topics in this channel.');
    expect(refusalText(editOf(aMessage(), { topic: 'x' }, { source: noTopics, destinationTopicExists: true }))).toBeNull();
    expect(refusalText(editOf(aMessage(), { topic: '✔ lunch' }, { source: noTopics }))).toBeNull();
  });
});

describe('what an edit changes and records', () => {
  it('a content edit: content, rendering, edit time, a history entry, mention flags', () => {
    const m = aMessage();
    const move = editOf(m, { content: 'new @**Bob**' }, withContent({ mentions: mentionsOf('new @**Bob**', [61]) }), 30)();
    expect(move).toBeNull();
    expect(m.snapshot()).toMatchObject({
      content: 'new @**Bob**',
      renderedContent: '<p>new</p>',
      lastEditTime: at(30),
      editHistory: [{ user_id: 60, timestamp: Math.floor(at(30).getTime() / 1000), prev_content: 'hello', prev_rendered_content: '<p>hello</p>' }],
    });
    expect(m.pullEvents()).toEqual([
      {
        type: 'content_edited',
        messageId: 100,
        editorId: 60,
        previous: { content: 'hello', renderedContent: '<p>hello</p>' },
        mentionFlags: { mentioned: [61], streamWildcard: false, topicWildcardUsers: [], alertWordText: 'new @**bob**' },
      },
    ]);
  });

  it('a topic rename: the move with its history entry and moved time', () => {
    const m = aMessage();
    const move = editOf(m, { topic: 'dinner' }, {}, 30)()!;
    const entry = { user_id: 60, timestamp: Math.floor(at(30).getTime() / 1000), prev_topic: 'lunch', topic: 'dinner' };
    expect(move).toEqual({
      messageId: 100,
      from: { channelId: 9, topic: 'lunch' },
      to: { channelId: 9, recipientId: 30, topic: 'dinner' },
      propagateMode: 'change_one',
      messageIds: [100],
      wholeTopic: true,
      topicChanged: true,
      channelChanged: false,
      resolve: null,
      historyEntry: entry,
      historyWrittenFor: null,
      movedTime: at(30),
      destinationTopicExisted: false,
      destinationHistoryProtected: false,
    });
    expect(m.snapshot()).toMatchObject({ topic: 'dinner', lastMovedTime: at(30), lastEditTime: null, editHistory: [entry] });
    expect(m.pullEvents()).toEqual([{ type: 'moved', move }]);
  });

  it('a channel move: the destination’s recipient, stream keys in the entry, rows for a protected destination', () => {
    const m = aMessage();
    const protectedDestination = { destination: { channel: aChannel({ id: 12, historyPublicToSubscribers: false, inviteOnly: true }), subscribed: true, recipientId: 40 } };
    const decided = editOf(m, { channelId: 12 }, protectedDestination, 30)()!;
    expect(decided.to).toEqual({ channelId: 12, recipientId: 40, topic: 'lunch' });
    expect(decided.historyEntry).toEqual({ user_id: 60, timestamp: Math.floor(at(30).getTime() / 1000), prev_stream: 9, stream: 12 });
    expect(decided.destinationHistoryProtected).toBe(true);
    expect(m.snapshot()).toMatchObject({ channelId: 12, recipientId: 40 });
  });

  it('content and topic together: one combined entry, written with the content', () => {
    const m = aMessage();
    const move = editOf(m, { content: 'new', topic: 'dinner' }, withContent(), 30)()!;
    expect(move.historyWrittenFor).toBe(100);
    expect(m.snapshot().editHistory).toEqual([
      { user_id: 60, timestamp: Math.floor(at(30).getTime() / 1000), prev_topic: 'lunch', topic: 'dinner', prev_content: 'hello', prev_rendered_content: '<p>hello</p>' },
    ]);
    expect(m.pullEvents().map((e) => e.type)).toEqual(['content_edited', 'moved']);
  });

  it('a resolve toggle: no moved time', () => {
    const m = aMessage({ lastMovedTime: T0 });
    const move = editOf(m, { topic: '✔ lunch', propagateMode: 'change_all' }, {}, 30)()!;
    expect(move).toMatchObject({ resolve: 'resolve', movedTime: null });
    expect(m.snapshot().lastMovedTime).toEqual(T0);
  });
});
