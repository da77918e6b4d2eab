import { Role } from '../users/role.js';
import { Channel } from './channel.js';
import {
  channelViewers,
  canAddSubscribers,
  hasContentAccess,
  hasMetadataAccess,
  isChannelAdministrator,
  subscribingReveals,
  unsubscribingHides,
} from './channel-access.policy.js';
import { assertCanCreateChannel, effectiveHistory, type CreationFacts } from './channel-creation.policy.js';
import { channelEmailLocalPart, slugify } from './channel-email.js';
import { normaliseDescription, parseChannelFolderName, parseChannelName } from './channel-name.js';
import { parseRetentionDays, streamPostPolicy } from './channel-settings.js';
import { assertCanRemoveSubscribers } from './subscription.policy.js';

import { aViewer, channelSettings, channelState, GROUP } from '../../test/builders.js';

const { NOBODY, ADMINS, EVERYONE } = GROUP;
const DEVS = 20; // a user group
const settings = channelSettings;
const channel = channelState;
const viewer = aViewer;

describe('channel names and descriptions', () => {
  it.each([
    ['', "Channel name can't be empty."],
    ['   ', "Channel name can't be empty."],
    ['x'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['ab\u0000', 'Invalid character in channel name, at position 3.'],
    ['a\uFDD0', 'Invalid character in channel name, at position 2.'],
    ['😀\uFFFE', 'Invalid character in channel name, at position 2.'],
  ])('rejects %j', (raw, msg) => expect(() => parseChannelName(raw)).toThrow(msg));
  it('trims and counts code points', () => {
    expect(parseChannelName('  dev ops ')).toBe('dev ops');
    expect(parseChannelName('😀'.repeat(60))).toHaveLength(120);
  });
  it('flattens descriptions to one line', () => expect(normaliseDescription('a\nb\r\nc')).toBe('a b c'));
  it('checks folder names', () => {
    expect(() => parseChannelFolderName(' ')).toThrow("Channel folder name can't be empty.");
    expect(() => parseChannelFolderName('a\u0001')).toThrow('Invalid character in channel folder name, at position 2.');
  });
});

describe('message_retention_days', () => {
  it.each([
    ['realm_default', null],
    ['unlimited', -1],
    [30, 30],
  ])('%j → %j', (v, out) => expect(parseRetentionDays(v)).toBe(out));
  it.each([0, -1, 'forever', 'invalid'])('rejects %j', (v) => {
    expect(() => parseRetentionDays(v)).toThrow(`Bad value for 'message_retention_days': ${v}`);
  });
});

describe('stream_post_policy', () => {
  it('maps system groups and defaults to everyone', () => {
    expect(streamPostPolicy('role:everyone')).toBe(1);
    expect(streamPostPolicy('role:administrators')).toBe(2);
    expect(streamPostPolicy('role:fullmembers')).toBe(3);
    expect(streamPostPolicy('role:moderators')).toBe(4);
    expect(streamPostPolicy(null)).toBe(1);
  });
});

describe('access: role × channel kind', () => {
  const publicC = channel();
  const privateC = channel({ inviteOnly: true, historyPublicToSubscribers: false });
  const webPublic = channel({ isWebPublic: true });
  it.each([
    // role, channel, subscribed, content, metadata, administers
    [Role.OWNER, publicC, false, true, true, true],
    [Role.ADMINISTRATOR, privateC, false, false, true, true],
    [Role.MODERATOR, privateC, false, false, false, false],
    [Role.MEMBER, publicC, false, true, true, false],
    [Role.MEMBER, privateC, false, false, false, false],
    [Role.MEMBER, privateC, true, true, true, false],
    [Role.GUEST, publicC, false, false, false, false],
    [Role.GUEST, publicC, true, true, true, false],
    [Role.GUEST, webPublic, false, true, true, false],
  ] as const)('role %i: content %#', (role, c, subscribed, content, metadata, administers) => {
    const v = viewer(role);
    expect(hasContentAccess(c, v, subscribed)).toBe(content);
    expect(hasMetadataAccess(c, v, subscribed)).toBe(metadata);
    expect(isChannelAdministrator(c, v)).toBe(administers);
  });

  it('grants access through can_subscribe_group and can_add_subscribers_group, never to guests', () => {
    const c = channel({ inviteOnly: true, groupSettings: settings({ can_subscribe_group: DEVS }) });
    expect(hasContentAccess(c, viewer(Role.MEMBER, 60, [DEVS]), false)).toBe(true);
    expect(hasContentAccess(c, viewer(Role.GUEST, 60, [DEVS]), false)).toBe(false);
    const admin = channel({ inviteOnly: true, groupSettings: settings({ can_administer_channel_group: DEVS }) });
    expect(hasMetadataAccess(admin, viewer(Role.MEMBER, 60, [DEVS]), false)).toBe(true);
    expect(hasContentAccess(admin, viewer(Role.MEMBER, 60, [DEVS]), false)).toBe(false);
    expect(isChannelAdministrator(admin, viewer(Role.GUEST, 60, [DEVS]))).toBe(false);
  });

  it('decides who may add subscribers', () => {
    const c = channel();
    const realmMembers = 6;
    expect(canAddSubscribers(c, viewer(Role.MEMBER), false, realmMembers)).toBe(true);
    expect(canAddSubscribers(c, viewer(Role.MEMBER), false, ADMINS)).toBe(false);
    expect(canAddSubscribers(channel({ inviteOnly: true }), viewer(Role.MEMBER), false, realmMembers)).toBe(false);
    expect(canAddSubscribers(channel({ groupSettings: settings({ can_add_subscribers_group: DEVS }) }), viewer(Role.MEMBER, 60, [DEVS]), false, ADMINS)).toBe(true);
    expect(canAddSubscribers(c, viewer(Role.MEMBER, 50), false, ADMINS)).toBe(true); // channel administrator
    expect(canAddSubscribers(channel({ inviteOnly: true }), viewer(Role.ADMINISTRATOR), false, NOBODY)).toBe(true);
  });

  it('decides who may remove others, all channels or none', () => {
    const c = channel();
    expect(() => assertCanRemoveSubscribers([{ channel: c, subscribed: true }], viewer(Role.MEMBER))).toThrow('Insufficient permission');
    assertCanRemoveSubscribers([{ channel: c, subscribed: false }], viewer(Role.ADMINISTRATOR));
    assertCanRemoveSubscribers([{ channel: c, subscribed: false }], viewer(Role.MEMBER, 50));
    const open = channel({ groupSettings: settings({ can_remove_subscribers_group: 6 }) });
    assertCanRemoveSubscribers([{ channel: open, subscribed: false }], viewer(Role.MEMBER));
    expect(() =>
      assertCanRemoveSubscribers([{ channel: open, subscribed: false }, { channel: c, subscribed: false }], viewer(Role.MEMBER)),
    ).toThrow('Insufficient permission');
    const privateOpen = channel({ inviteOnly: true, groupSettings: settings({ can_remove_subscribers_group: 6 }) });
    expect(() => assertCanRemoveSubscribers([{ channel: privateOpen, subscribed: false }], viewer(Role.MEMBER))).toThrow('Insufficient permission');
    expect(() => assertCanRemoveSubscribers([{ channel: open, subscribed: true }], viewer(Role.GUEST))).toThrow('Insufficient permission');
  });
});

describe('creating channels', () => {
  const facts: CreationFacts = {
    everyoneGroupId: EVERYONE,
    nobodyGroupId: NOBODY,
    isAdmin: false,
    isOwner: false,
    canSetDeleteMessagePolicy: false,
    canCreatePrivate: true,
    canCreatePublic: true,
    webPublicEnabled: false,
    canCreateWebPublic: false,
  };
  const req = { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: undefined, isDefault: false, messageRetentionDays: null, groupSettings: {} };
  it.each([
    [{ inviteOnly: true, groupSettings: { can_create_topic_group: 6 } }, {}, 'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group'],
    [{ historyPublicToSubscribers: false, groupSettings: { can_create_topic_group: 6 } }, {}, 'Unsupported parameter combination'],
    [{ groupSettings: { can_delete_own_message_group: 6 } }, {}, 'Insufficient permission'],
    [{ inviteOnly: true }, { canCreatePrivate: false }, 'Insufficient permission'],
    [{}, { canCreatePublic: false }, 'Insufficient permission'],
    [{ isDefault: true }, {}, 'Insufficient permission'],
    [{ isDefault: true, inviteOnly: true }, { isAdmin: true }, 'A default channel cannot be private.'],
    [{ isWebPublic: true }, {}, 'Web-public channels are not enabled.'],
    [{ isWebPublic: true }, { webPublicEnabled: true }, 'Insufficient permission'],
    [{ messageRetentionDays: 5 }, { isAdmin: true }, 'Must be an organization owner'],
  ])('refuses %j with %j', (r, f, msg) => {
    expect(() => assertCanCreateChannel({ ...req, ...r }, { ...facts, ...f })).toThrow(msg);
  });
  it('accepts the allowed combinations', () => {
    assertCanCreateChannel({ ...req, groupSettings: { can_create_topic_group: 6, can_delete_own_message_group: NOBODY } }, facts);
    assertCanCreateChannel({ ...req, isWebPublic: true }, { ...facts, webPublicEnabled: true, canCreateWebPublic: true });
    assertCanCreateChannel({ ...req, messageRetentionDays: -1 }, { ...facts, isOwner: true });
  });
  it('gives public channels shared history and private ones protected by default', () => {
    expect(effectiveHistory({ inviteOnly: false, historyPublicToSubscribers: false })).toBe(true);
    expect(effectiveHistory({ inviteOnly: true, historyPublicToSubscribers: undefined })).toBe(false);
    expect(effectiveHistory({ inviteOnly: true, historyPublicToSubscribers: true })).toBe(true);
  });
});

describe('changing a channel', () => {
  const facts = {
    contentAccess: true,
    canCreatePrivate: true,
    canCreatePublic: true,
    webPublicEnabled: false,
    canCreateWebPublic: false,
    isDefaultChannel: false,
    isModerationRequestChannel: false,
    everyoneGroupId: EVERYONE,
  };
  it.each([
    [{}, { isWebPublic: true, historyPublicToSubscribers: false }, {}, 'Invalid parameters'],
    [{}, { isWebPublic: true, isPrivate: true }, {}, 'Invalid parameters'],
    [{}, { historyPublicToSubscribers: false }, {}, 'Invalid parameters'],
    [{}, { isPrivate: true }, { isDefaultChannel: true }, 'A default channel cannot be private.'],
    [{ inviteOnly: true }, { isPrivate: false }, { isModerationRequestChannel: true }, 'Moderation request channel must be private.'],
    [{ groupSettings: settings({ can_create_topic_group: 6 }) }, { isPrivate: true }, {}, 'Unsupported parameter combination'],
    [{}, { isPrivate: true }, { contentAccess: false }, 'Channel content access is required.'],
    [{}, { isPrivate: true }, { canCreatePrivate: false }, 'Insufficient permission'],
    [{ inviteOnly: true }, { isPrivate: false }, { canCreatePublic: false }, 'Insufficient permission'],
    [{}, { isWebPublic: true }, {}, 'Web-public channels are not enabled.'],
    [{}, { isWebPublic: true }, { webPublicEnabled: true }, 'Insufficient permission'],
  ])('privacy: %j + %j → %s', (state, request, f, msg) => {
    expect(() => Channel.restore(channel(state)).changePrivacy(request, { ...facts, ...f })).toThrow(msg);
  });
  it('derives history from is_private when history is not given', () => {
    const c = Channel.restore(channel());
    c.changePrivacy({ isPrivate: true }, facts);
    expect(c.snapshot()).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false });
    c.changePrivacy({ isPrivate: false }, facts);
    expect(c.snapshot()).toMatchObject({ inviteOnly: false, historyPublicToSubscribers: true });
  });
  it('renames, allowing a change of letter case only even when "taken"', () => {
    const c = Channel.restore(channel());
    expect(() => c.rename('general', false)).toThrow('Channel already has that name.');
    expect(() => c.rename('random', true)).toThrow("Channel 'random' already exists");
    c.rename('General', true);
    expect(c.name).toBe('General');
    expect(c.pullEvents()).toEqual([{ type: 'renamed', channelId: 9, oldName: 'general', name: 'General' }]);
  });
  it('archives and unarchives once', () => {
    const c = Channel.restore(channel());
    c.archive();
    expect(() => c.archive()).toThrow('Channel is already deactivated');
    c.unarchive();
    expect(() => c.unarchive()).toThrow('Channel is not currently deactivated');
  });
  it('allows empty_topic_only only when every message is in the empty topic', () => {
    const c = Channel.restore(channel());
    expect(() => c.setTopicsPolicy('allow_empty_topic', false, true)).toThrow('Insufficient permission');
    expect(() => c.setTopicsPolicy('empty_topic_only', true, false)).toThrow(
      'To enable this configuration, all messages in this channel must be in the general chat topic.',
    );
    c.setTopicsPolicy('empty_topic_only', true, true);
    expect(c.snapshot().topicsPolicy).toBe('empty_topic_only');
  });
  it('remembers which permission settings need storing', () => {
    const c = Channel.restore(channel());
    c.setGroupSetting('can_send_message_group', ADMINS, false);
    c.setGroupSetting('can_resolve_topics_group', NOBODY, true);
    expect(c.settingsToStore()).toEqual(['can_send_message_group']);
    expect(Channel.assertCanSetRetention.bind(null, false)).toThrow('Must be an organization owner');
  });
});

describe('channel email addresses', () => {
  it.each([
    ['Denmark', 'denmark.TOKEN.show-sender'],
    ['Verona 2', 'verona-2.TOKEN.show-sender'],
    ['Test!', 'TOKEN.show-sender'],
    ['Café', 'cafe.TOKEN.show-sender'],
    ['Café ☕', 'TOKEN.show-sender'],
    ['日本', 'TOKEN.show-sender'],
    ['a_b', 'a_b.TOKEN.show-sender'],
  ])('%s → %s', (name, local) => expect(channelEmailLocalPart(name, 'TOKEN')).toBe(local));
  it('slugifies like Django', () => expect(slugify(' Hello  World-- ')).toBe('hello-world'));
});

describe('who hears about a channel', () => {
  const users = [
    { id: 1, role: Role.OWNER },
    { id: 2, role: Role.ADMINISTRATOR },
    { id: 3, role: Role.MEMBER },
    { id: 4, role: Role.GUEST },
    { id: 5, role: Role.GUEST },
  ];
  it('sees a web-public channel: everyone; public: non-guests and subscribed guests; private: subscribers and administrators', () => {
    expect(channelViewers({ inviteOnly: false, isWebPublic: true }, users, [])).toEqual([1, 2, 3, 4, 5]);
    expect(channelViewers({ inviteOnly: false, isWebPublic: false }, users, [5])).toEqual([1, 2, 3, 5]);
    expect(channelViewers({ inviteOnly: true, isWebPublic: false }, users, [3])).toEqual([1, 2, 3]);
  });
  it('reveals a channel on subscribing only to those who could not see it, and hides private ones on leaving', () => {
    const priv = { inviteOnly: true, isWebPublic: false };
    const pub = { inviteOnly: false, isWebPublic: false };
    expect([Role.ADMINISTRATOR, Role.MEMBER, Role.GUEST].map((r) => subscribingReveals(priv, r))).toEqual([false, true, true]);
    expect([Role.MEMBER, Role.GUEST].map((r) => subscribingReveals(pub, r))).toEqual([false, true]);
    expect(subscribingReveals({ inviteOnly: false, isWebPublic: true }, Role.GUEST)).toBe(false);
    expect([Role.ADMINISTRATOR, Role.MEMBER].map((r) => unsubscribingHides(priv, r))).toEqual([false, true]);
    expect(unsubscribingHides(pub, Role.MEMBER)).toBe(false);
  });
});
