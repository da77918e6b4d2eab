import { aViewer, GROUP, refusalOf } from '../../test/builders.js';
import { Role } from '../users/role.js';
import {
  assertCanDeleteTopic,
  assertReadReceiptsEnabled,
  assertTopicReadable,
  canDeleteTopicsInRealm,
  topicHistory,
  topicNameForRead,
  VISIBILITY_POLICIES,
} from './reading.js';

describe('topic names given to the read endpoints', () => {
  it('take "general chat" for the empty topic, and nothing else', () => {
    expect(topicNameForRead('general chat')).toBe('');
    expect(topicNameForRead('General chat')).toBe('General chat');
    expect(topicNameForRead('(no topic)')).toBe('(no topic)');
    expect(topicNameForRead('')).toBe('');
  });
});

describe('topicHistory (Zulip generate_topic_history_from_db_rows)', () => {
  it('merges case variants under the spelling of the newest message, newest topic first', () => {
    const rows = [
      { topic: 'Lunch', maxId: 10 },
      { topic: 'plans', maxId: 12 },
      { topic: 'LUNCH', maxId: 15 },
      { topic: 'lunch', maxId: 11 },
    ];
    expect(topicHistory(rows, false)).toEqual([
      { name: 'LUNCH', max_id: 15 },
      { name: 'plans', max_id: 12 },
    ]);
  });

  it('names the empty topic "general chat" unless the client takes the empty string', () => {
    expect(topicHistory([{ topic: '', maxId: 3 }], false)).toEqual([{ name: 'general chat', max_id: 3 }]);
    expect(topicHistory([{ topic: '', maxId: 3 }], true)).toEqual([{ name: '', max_id: 3 }]);
    expect(topicHistory([], false)).toEqual([]);
  });
});

describe('read-state checks', () => {
  it('refuse a topic the user received nothing in, with the topic as looked up', () => {
    expect(refusalOf(() => assertTopicReadable('never', false))).toEqual({ msg: "No such topic 'never'", code: 'BAD_REQUEST', data: {} });
    expect(refusalOf(() => assertTopicReadable('', false))?.msg).toBe("No such topic ''");
    expect(refusalOf(() => assertTopicReadable('lunch', true))).toBeNull();
  });

  it('refuse read receipts where the organization disabled them', () => {
    expect(refusalOf(() => assertReadReceiptsEnabled(false))?.msg).toBe('Read receipts are disabled in this organization.');
    expect(refusalOf(() => assertReadReceiptsEnabled(true))).toBeNull();
  });

  it('know the four visibility policies', () => {
    expect(VISIBILITY_POLICIES).toEqual([0, 1, 2, 3]);
  });
});

describe('who may delete a topic', () => {
  const admins = GROUP.ADMINS;
  const nobody = GROUP.NOBODY;
  const administratorRequired = { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL', data: {} };

  it.each([
    [Role.OWNER, true],
    [Role.ADMINISTRATOR, true],
    [Role.MODERATOR, false],
    [Role.MEMBER, false],
    [Role.GUEST, false],
  ])('by default (administrators may delete any message): role %i → %s', (role, allowed) => {
    const facts = { deleter: aViewer(role), realmCanDeleteAny: admins, channelCanDeleteAny: nobody };
    expect(canDeleteTopicsInRealm(facts)).toBe(allowed);
    expect(refusalOf(() => assertCanDeleteTopic(facts))).toEqual(allowed ? null : administratorRequired);
  });

  it('lets the organization’s can_delete_any_message_group in, administrators always', () => {
    expect(canDeleteTopicsInRealm({ deleter: aViewer(Role.MODERATOR), realmCanDeleteAny: GROUP.MODERATORS })).toBe(true);
    expect(canDeleteTopicsInRealm({ deleter: aViewer(Role.ADMINISTRATOR), realmCanDeleteAny: nobody })).toBe(true);
  });

  it('lets the channel’s can_delete_any_message_group in, once the channel is known', () => {
    const bob = aViewer(Role.MEMBER, 61);
    const direct = { directMembers: [61], directSubgroups: [] };
    expect(refusalOf(() => assertCanDeleteTopic({ deleter: bob, realmCanDeleteAny: admins, channelCanDeleteAny: direct }))).toBeNull();
    expect(refusalOf(() => assertCanDeleteTopic({ deleter: bob, realmCanDeleteAny: admins, channelCanDeleteAny: null }))).toEqual(administratorRequired);
    expect(refusalOf(() => assertCanDeleteTopic({ deleter: aViewer(Role.MEMBER, 62), realmCanDeleteAny: admins, channelCanDeleteAny: direct }))).toEqual(
      administratorRequired,
    );
  });
});
