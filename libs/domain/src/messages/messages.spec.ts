import { normaliseContent, normaliseEditedContent } from './content.js';
import { flagsToApi, FLAG_BITS, parseFlagChange } from './flags.js';
import { extractMentions, referencedUploadPaths } from './mentions.js';
import {
  assertCanChangeChannel,
  assertCanChangeTopic,
  assertCanDelete,
  assertCanEditContent,
  assertWholeTopicMovable,
} from './message-edit.policy.js';
import {
  assertCanPostToChannel,
  assertCanSendDirectMessage,
  assertCanUseWildcards,
  assertTopicAllowed,
  automaticVisibilityAfterSend,
  clientName,
  DEFAULT_AUTOMATIC_VISIBILITY,
  effectiveTopicsPolicy,
  readBySenderDefault,
} from './message-send.policy.js';
import { parseTopicForEdit, parseTopicForSend, resolveChange, truncateTopic } from './topic.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('topics', () => {
  it('strips, maps the empty-topic names, truncates to 57 + ...', () => {
    expect(parseTopicForSend('  lunch ')).toBe('lunch');
    expect(parseTopicForSend('(no topic)')).toBe('');
    expect(parseTopicForSend('general chat')).toBe('');
    expect(parseTopicForEdit('(no topic)')).toBe('(no topic)');
    expect(truncateTopic('😀'.repeat(61))).toBe(`${'😀'.repeat(57)}...`);
    expect(() => parseTopicForSend('a\u0000')).toThrow('Invalid character in topic, at position 2!');
  });
  it.each([
    ['bug', '✔ bug', 'resolve'],
    ['✔ bug', 'bug', 'unresolve'],
    ['✔ ✔ bug', 'bug', 'unresolve'],
    ['bug', '✔ other', null],
    ['bug', 'bug2', null],
  ])('%s → %s is %s', (from, to, kind) => expect(resolveChange(from, to)).toBe(kind));
});

describe('content', () => {
  it('trims the end and leading newlines, keeps leading spaces', () => {
    expect(normaliseContent('\n\n  indented  \n')).toBe('  indented');
  });
  it('truncates to exactly 10000 code points with a notice', () => {
    const out = normaliseContent('é'.repeat(20_000));
    expect([...out]).toHaveLength(10_000);
    expect(out.endsWith('\n[message truncated]')).toBe(true);
  });
  it('refuses empty and NUL content; an emptied edit is (deleted)', () => {
    expect(() => normaliseContent(' \n ')).toThrow('Message must not be empty');
    expect(() => normaliseContent('a\u0000')).toThrow('Message must not contain null bytes');
    expect(normaliseEditedContent('   ')).toBe('(deleted)');
  });
});

describe('flags', () => {
  it('lists flags in bit order with wildcard_mentioned appended', () => {
    expect(flagsToApi(FLAG_BITS.read | FLAG_BITS.starred)).toEqual(['read', 'starred']);
    expect(flagsToApi(FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.read)).toEqual(['read', 'topic_wildcard_mentioned', 'wildcard_mentioned']);
  });
  it('checks the flag before the operation', () => {
    expect(() => parseFlagChange('mentioned', 'bogus')).toThrow("Flag not editable: 'mentioned'");
    expect(() => parseFlagChange('nope', 'add')).toThrow("Invalid flag: 'nope'");
    expect(() => parseFlagChange('read', 'flip')).toThrow("Invalid message flag operation: 'flip'");
    expect(parseFlagChange('starred', 'remove')).toEqual({ bit: 2, add: false, flag: 'starred' });
  });
});

describe('mentions', () => {
  it('finds users, ids, groups and wildcards, and ignores code', () => {
    const m = extractMentions('@**Alice** @**Bob|7** @*devs* @_**Quiet** @**all** `@**Code**`\n```\n@**Fenced**\n```\n@**topic**');
    expect(m).toMatchObject({ userNames: ['alice'], userIds: [7], groupNames: ['devs'], silentUserNames: ['quiet'], streamWildcard: true, topicWildcard: true });
  });
  it('finds referenced uploads', () => {
    expect(referencedUploadPaths('[a](/user_uploads/2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/a.txt) and /user_uploads/x')).toEqual([
      '2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/a.txt',
    ]);
  });
});

describe('edit and move policies', () => {
  const edit = { allowMessageEditing: true, isSender: true, limitSeconds: 600, dateSent: t0 };
  it('edits content within limit + 20 s', () => {
    assertCanEditContent(edit, at(620));
    expect(() => assertCanEditContent(edit, at(621))).toThrow('The time limit for editing this message has passed');
    expect(() => assertCanEditContent({ ...edit, isSender: false }, at(1))).toThrow("You don't have permission to edit this message");
    expect(() => assertCanEditContent({ ...edit, allowMessageEditing: false }, at(1))).toThrow('Your organization has turned off message editing');
    assertCanEditContent({ ...edit, limitSeconds: null }, at(1e9));
  });
  const topic = { isResolveToggle: false, canResolve: true, canMoveBetweenTopics: true, isModeratorOrAbove: false, limitSeconds: 100, dateSent: t0 };
  it.each([
    [{}, 121, "The time limit for editing this message's topic has passed."],
    [{ isModeratorOrAbove: true }, 10_000, null],
    [{ isResolveToggle: true }, 10_000, null],
    [{ isResolveToggle: true, canResolve: false }, 1, "You don't have permission to resolve topics in this channel."],
    [{ canMoveBetweenTopics: false }, 1, "You don't have permission to edit this message"],
  ])('topic change %j at %is', (o, s, error) => {
    const run = () => assertCanChangeTopic({ ...topic, ...o }, at(s));
    if (error) expect(run).toThrow(error);
    else run();
  });
  it('moves between channels with its own permission and limit', () => {
    const f = { canMoveOut: true, canPostInDestination: true, isModeratorOrAbove: false, limitSeconds: 100, dateSent: t0 };
    expect(() => assertCanChangeChannel({ ...f, canMoveOut: false }, at(1))).toThrow("You don't have permission to move this message");
    expect(() => assertCanChangeChannel({ ...f, canPostInDestination: false }, at(1))).toThrow('You do not have permission to post in this channel.');
    expect(() => assertCanChangeChannel(f, at(121))).toThrow("The time limit for editing this message's channel has passed");
  });
  it('computes the whole-topic counts with the smaller deadline', () => {
    const candidates = [
      { id: 3, dateSent: at(0) },
      { id: 5, dateSent: at(50) },
      { id: 9, dateSent: at(100) },
    ];
    try {
      assertWholeTopicMovable(candidates, { topicSeconds: 100, channelSeconds: 60, topicChanged: true, channelChanged: true }, at(120));
      throw new Error('no error');
    } catch (e) {
      expect(e).toMatchObject({
        code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        msg: 'You only have permission to move the 2/3 most recent messages in this topic.',
        data: { first_message_id_allowed_to_move: 5, total_messages_in_topic: 3, total_messages_allowed_to_move: 2 },
      });
    }
    assertWholeTopicMovable(candidates, { topicSeconds: null, channelSeconds: null, topicChanged: true, channelChanged: true }, at(1e9));
  });
  it('deletes own messages within the limit without grace, any message with the group', () => {
    const f = { canDeleteAny: false, ownMessage: true, canDeleteOwn: true, limitSeconds: 600, dateSent: t0 };
    assertCanDelete(f, at(600));
    expect(() => assertCanDelete(f, at(601))).toThrow('The time limit for deleting this message has passed');
    expect(() => assertCanDelete({ ...f, ownMessage: false }, at(1))).toThrow("You don't have permission to delete this message");
    assertCanDelete({ ...f, ownMessage: false, canDeleteAny: true }, at(1e9));
  });
});

describe('send policies', () => {
  const post = {
    channelName: 'c',
    canSendMessage: true,
    isArchived: false,
    isWebPublic: false,
    inviteOnly: false,
    historyPublicToSubscribers: true,
    senderIsGuest: false,
    subscribed: false,
    botOwnerSubscribed: false,
    inContentGrantingGroup: false,
  };
  it.each([
    [{}, null],
    [{ canSendMessage: false }, 'You do not have permission to post in this channel.'],
    [{ isArchived: true }, "Not authorized to send to channel 'c'"],
    [{ senderIsGuest: true }, "Not authorized to send to channel 'c'"],
    [{ senderIsGuest: true, isWebPublic: true }, null],
    [{ inviteOnly: true }, "Not authorized to send to channel 'c'"],
    [{ inviteOnly: true, botOwnerSubscribed: true }, null],
    [{ inviteOnly: true, inContentGrantingGroup: true }, null],
    [{ inviteOnly: true, inContentGrantingGroup: true, historyPublicToSubscribers: false }, "Not authorized to send to channel 'c'"],
  ])('posting %j', (o, error) => {
    const run = () => assertCanPostToChannel({ ...post, ...o });
    if (error) expect(run).toThrow(error);
    else run();
  });
  it('applies topics policies', () => {
    expect(effectiveTopicsPolicy('inherit', 'disable_empty_topic')).toBe('disable_empty_topic');
    expect(() => assertTopicAllowed('', 'disable_empty_topic')).toThrow('Sending messages to the general chat is not allowed in this channel.');
    expect(() => assertTopicAllowed('x', 'empty_topic_only')).toThrow('Only the general chat topic is allowed in this channel.');
    assertTopicAllowed('', 'allow_empty_topic');
  });
  it('restricts wildcards above 15', () => {
    const f = { streamWildcard: true, topicWildcard: false, activeSubscribers: 16, topicParticipants: 0, canMentionManyUsers: false };
    expect(() => assertCanUseWildcards(f)).toThrow('You do not have permission to use channel wildcard mentions in this channel.');
    assertCanUseWildcards({ ...f, activeSubscribers: 15 });
    assertCanUseWildcards({ ...f, canMentionManyUsers: true });
    expect(() => assertCanUseWildcards({ ...f, streamWildcard: false, topicWildcard: true, topicParticipants: 16 })).toThrow(
      'You do not have permission to use topic wildcard mentions in this topic.',
    );
  });
  it('checks direct-message permissions', () => {
    const f = { senderIsBot: false, onlyBotsOrSelf: false, someoneAuthorizes: true, permissionGroupIsNobody: false, senderCanInitiate: true, conversationExists: false };
    assertCanSendDirectMessage(f);
    expect(() => assertCanSendDirectMessage({ ...f, someoneAuthorizes: false, permissionGroupIsNobody: true })).toThrow('Direct messages are disabled in this organization.');
    expect(() => assertCanSendDirectMessage({ ...f, someoneAuthorizes: false })).toThrow('This conversation does not include any users who can authorize it.');
    expect(() => assertCanSendDirectMessage({ ...f, senderCanInitiate: false })).toThrow('You do not have permission to initiate direct message conversations.');
    assertCanSendDirectMessage({ ...f, senderCanInitiate: false, conversationExists: true });
    assertCanSendDirectMessage({ ...f, someoneAuthorizes: false, onlyBotsOrSelf: true });
  });
  it('decides read_by_sender from the client name', () => {
    expect(readBySenderDefault(clientName(undefined, 'ZulipMobile/27.1 (Android 14)'))).toBe(true);
    expect(readBySenderDefault(clientName('website', undefined))).toBe(true);
    expect(readBySenderDefault(clientName(undefined, 'Zulip Desktop App/5.9'))).toBe(true);
    expect(readBySenderDefault(clientName(undefined, 'curl/8.0'))).toBe(false);
    expect(clientName(undefined, undefined)).toBe('Unspecified');
  });
  it('follows new topics by default and changes nothing twice', () => {
    expect(automaticVisibilityAfterSend(DEFAULT_AUTOMATIC_VISIBILITY, 0, false, true)).toBe(3);
    expect(automaticVisibilityAfterSend(DEFAULT_AUTOMATIC_VISIBILITY, 0, false, false)).toBeNull();
    expect(automaticVisibilityAfterSend(DEFAULT_AUTOMATIC_VISIBILITY, 3, false, true)).toBeNull();
    expect(automaticVisibilityAfterSend(DEFAULT_AUTOMATIC_VISIBILITY, 0, true, false)).toBe(2);
    expect(automaticVisibilityAfterSend({ followPolicy: 1, unmuteInMutedChannelsPolicy: 4 }, 1, false, false)).toBe(3);
    expect(automaticVisibilityAfterSend({ followPolicy: 4, unmuteInMutedChannelsPolicy: 4 }, 0, true, true)).toBeNull();
  });
});
