import {
  archiveNotice,
  channelCreatedNotice,
  channelPolicyName,
  channelUpdateNotices,
  channelLinkSyntax,
  newChannelsAnnouncement,
  signupAnnouncement,
  invitationAcceptedNotice,
  subscriptionMessagePlan,
  youWereSubscribedMessage,
} from './channel-notices.js';

const ada = { id: 4, fullName: 'Ada' };
const channel = (o: Partial<Parameters<typeof channelCreatedNotice>[0]> = {}) => ({
  id: 9,
  name: 'design',
  description: '',
  inviteOnly: false,
  isWebPublic: false,
  historyPublicToSubscribers: true,
  topicsPolicy: 'inherit' as const,
  ...o,
});

describe('Notification Bot texts', () => {
  it('names the privacy of a new channel and quotes its description', () => {
    expect(channelCreatedNotice(channel(), ada)).toEqual({
      channelId: 9,
      topic: 'channel events',
      content: '**Public** channel created by @_**Ada|4**. **Description:**\n```` quote\n*No description.*\n````',
    });
    expect(channelCreatedNotice(channel({ isWebPublic: true, description: 'Hi' }), ada)!.content).toMatch(/^\*\*Web-public\*\* channel [^]*\nHi\n/);
    expect(channelCreatedNotice(channel({ inviteOnly: true }), ada)!.content).toMatch(/^\*\*Private, shared history\*\*/);
    expect(channelCreatedNotice(channel({ inviteOnly: true, historyPublicToSubscribers: false }), ada)!.content).toMatch(/^\*\*Private, protected history\*\*/);
    expect(channelCreatedNotice(channel({ historyPublicToSubscribers: false }), ada)).toBeNull();
    expect(channelCreatedNotice(channel({ topicsPolicy: 'empty_topic_only' }), ada)!.topic).toBe('');
  });

  it('announces one or several channels', () => {
    expect(newChannelsAnnouncement(1, [{ id: 9, name: 'design' }], ada)).toEqual({
      channelId: 1,
      topic: 'new channels',
      content: '@_**Ada|4** created a new channel #**design**.',
    });
    expect(newChannelsAnnouncement(1, [{ id: 9, name: 'a' }, { id: 10, name: 'b' }], ada).content).toBe('@_**Ada|4** created the following channels: #**a**, #**b**.');
  });

  it('links a channel whose name would break #**…** with a Markdown link', () => {
    expect(channelLinkSyntax({ id: 3, name: 'a>b' })).toBe('[#a>b](#narrow/channel/3-a.3Eb)');
    expect(channelLinkSyntax({ id: 3, name: 'plain name' })).toBe('#**plain name**');
  });

  it('tells subscribed users of one channel inline and of several in a sorted list', () => {
    expect(youWereSubscribedMessage(ada, ['x'])).toBe('@_**Ada|4** subscribed you to #**x**.');
    expect(youWereSubscribedMessage(ada, ['z', 'a'])).toBe('@_**Ada|4** subscribed you to the following channels:\n\n* #**a**\n* #**z**');
    expect(signupAnnouncement(ada)).toBe('@_**Ada|4** joined this organization.');
    expect(invitationAcceptedNotice(ada, 'Acme')).toBe('@_**Ada|4** accepted your invitation to join Acme!');
  });

  it('sends "you were subscribed" only to other humans, for channels that existed, within the bulk limit', () => {
    const joined = new Map([
      [4, [{ id: 1, name: 'old' }]],
      [5, [{ id: 1, name: 'old' }, { id: 2, name: 'new' }]],
      [6, [{ id: 1, name: 'old' }]],
      [7, [{ id: 2, name: 'new' }]],
    ]);
    const o = { callerId: 4, botIds: new Set([6]), createdChannelIds: new Set([2]), requested: true, maxBulk: 100 };
    expect(subscriptionMessagePlan(joined, o)).toEqual({ sent: true, messages: new Map([[5, ['old']]]) });
    expect(subscriptionMessagePlan(joined, { ...o, requested: false })).toEqual({ sent: false, messages: new Map() });
    expect(subscriptionMessagePlan(joined, { ...o, maxBulk: 3 })).toEqual({ sent: false, messages: new Map() });
  });
});

describe('channel change notices', () => {
  const base = { name: 'c', description: 'd', inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true, messageRetentionDays: null, topicsPolicy: 'inherit' as const };

  it('resolves the organization default retention and says forever for -1', () => {
    expect(channelUpdateNotices(base, { ...base, messageRetentionDays: -1 }, ada, 90)).toEqual([
      '@_**Ada|4** has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: 90 days\n* **New retention period**: Forever\n\nMessages in this channel will now be retained forever.',
    ]);
    expect(channelUpdateNotices(base, base, ada, 90)).toEqual([]);
  });

  it('names every privacy policy', () => {
    expect(channelPolicyName({ inviteOnly: false, isWebPublic: true, historyPublicToSubscribers: true })).toBe('Web-public');
    expect(channelPolicyName({ inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: false })).toBe('Public, protected history');
    expect(channelPolicyName({ inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: true })).toBe('Private, shared history');
    expect(archiveNotice('x', true)).toBe('Channel #**x** has been archived.');
  });
});
