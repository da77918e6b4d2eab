import { Role } from '../users/role.js';
import { canAddSubscribers, type ChannelAccessView } from './channel-access.policy.js';
import { assertCanCreateChannel, type CreationFacts } from './channel-creation.policy.js';
import {
  assertCanChangeDefault,
  assertCanChangeSubscription,
  assertCanMakeDefault,
  assertCanRemoveDefault,
  assertCanRemoveSubscribers,
  assertDefaultChannelIsPublic,
  authorizeSubscribing,
  canSubscribeSelf,
  subscribesOthers,
  unsubscribesOthers,
} from './subscription.policy.js';

import { aChannel, aSubscription, aViewer, channelSettings, channelState, GROUP } from '../../test/builders.js';

const { NOBODY, ADMINS, MODERATORS, MEMBERS, EVERYONE } = GROUP;
const DEVS = 20; // a user group every viewer below belongs to
const ROLES = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST] as const;
const ROLE_NAMES = 'owner/admin/moderator/member/guest';

/** The channel kinds of the matrices; history plays no part in who may (un)subscribe. */
const KINDS = {
  public: { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true },
  'web-public': { inviteOnly: false, isWebPublic: true, historyPublicToSubscribers: true },
  'private, shared history': { inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: true },
  'private, protected history': { inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: false },
} as const;
type Kind = keyof typeof KINDS;

const channelOf = (kind: Kind, settings: Partial<ChannelAccessView['groupSettings']> = {}) =>
  channelState({ ...KINDS[kind], groupSettings: channelSettings(settings) });
/** 'YYNNN' → one answer per role of ROLES. */
const answers = (yn: string) => [...yn].map((c) => c === 'Y');
const eachRole = <T>(f: (role: Role) => T) => ROLES.map((role) => f(role));
const viewerOf = (role: Role) => aViewer(role, 60, [DEVS]);

describe(`subscribing oneself (content access), roles ${ROLE_NAMES}`, () => {
  it.each([
    ['public', {}, 'YYYYN'],
    ['web-public', {}, 'YYYYY'],
    ['private, shared history', {}, 'NNNNN'],
    ['private, protected history', {}, 'NNNNN'],
    ['public', { can_subscribe_group: DEVS }, 'YYYYN'],
    ['private, shared history', { can_subscribe_group: DEVS }, 'YYYYN'],
    ['private, protected history', { can_subscribe_group: DEVS }, 'YYYYN'],
    ['private, protected history', { can_subscribe_group: MEMBERS }, 'YYYYN'],
    ['private, protected history', { can_subscribe_group: MODERATORS }, 'YYYNN'],
    ['private, shared history', { can_add_subscribers_group: DEVS }, 'YYYYN'],
    ['private, protected history', { can_add_subscribers_group: DEVS }, 'YYYYN'],
    ['private, protected history', { can_administer_channel_group: DEVS }, 'NNNNN'],
  ] as const)('%s with %j: %s', (kind, settings, yn) => {
    const c = channelOf(kind, settings);
    expect(eachRole((role) => canSubscribeSelf(c, viewerOf(role), false))).toEqual(answers(yn));
  });

  it.each(Object.keys(KINDS) as Kind[])('a subscriber of a %s channel may always subscribe again', (kind) => {
    expect(eachRole((role) => canSubscribeSelf(channelOf(kind), viewerOf(role), true))).toEqual(answers('YYYYY'));
  });
});

describe(`adding others (can_add_subscribers_group of the channel and the organization), roles ${ROLE_NAMES}`, () => {
  it.each([
    ['public', {}, NOBODY, 'YYNNN'],
    ['web-public', {}, NOBODY, 'YYNNN'],
    ['private, protected history', {}, NOBODY, 'YYNNN'],
    ['public', {}, MEMBERS, 'YYYYN'],
    ['web-public', {}, MEMBERS, 'YYYYN'],
    ['private, shared history', {}, MEMBERS, 'YYNNN'],
    ['private, protected history', {}, MEMBERS, 'YYNNN'],
    ['public', {}, MODERATORS, 'YYYNN'],
    ['public', {}, EVERYONE, 'YYYYN'],
    ['public', { can_add_subscribers_group: DEVS }, NOBODY, 'YYYYN'],
    ['private, protected history', { can_add_subscribers_group: DEVS }, NOBODY, 'YYYYN'],
    ['private, shared history', { can_add_subscribers_group: MODERATORS }, NOBODY, 'YYYNN'],
    ['private, protected history', { can_subscribe_group: DEVS }, NOBODY, 'YYNNN'],
    ['private, protected history', { can_subscribe_group: DEVS }, MEMBERS, 'YYYYN'],
    ['private, protected history', { can_administer_channel_group: DEVS }, NOBODY, 'YYYYN'],
    ['public', { can_administer_channel_group: DEVS }, NOBODY, 'YYYYN'],
  ] as const)('%s with %j, organization setting %i: %s', (kind, settings, realm, yn) => {
    const c = channelOf(kind, settings);
    expect(eachRole((role) => canAddSubscribers(c, viewerOf(role), false, realm))).toEqual(answers(yn));
  });

  it('lets a subscriber of a private channel add others through the organization setting', () => {
    const c = channelOf('private, protected history');
    expect(eachRole((role) => canAddSubscribers(c, viewerOf(role), true, MEMBERS))).toEqual(answers('YYYYN'));
  });
});

describe(`removing others (can_remove_subscribers_group), roles ${ROLE_NAMES}`, () => {
  const allowed = (kind: Kind, settings: Partial<ChannelAccessView['groupSettings']>, subscribed: boolean, role: Role) => {
    try {
      assertCanRemoveSubscribers([{ channel: channelOf(kind, settings), subscribed }], viewerOf(role));
      return true;
    } catch (e) {
      expect((e as Error).message).toBe('Insufficient permission');
      return false;
    }
  };
  it.each([
    ['public', {}, false, 'YYNNN'],
    ['web-public', {}, false, 'YYNNN'],
    ['private, protected history', {}, false, 'YYNNN'],
    ['public', { can_remove_subscribers_group: MEMBERS }, false, 'YYYYN'],
    ['web-public', { can_remove_subscribers_group: MEMBERS }, false, 'YYYYN'],
    ['public', { can_remove_subscribers_group: MODERATORS }, false, 'YYYNN'],
    ['public', { can_remove_subscribers_group: EVERYONE }, true, 'YYYYN'],
    ['private, shared history', { can_remove_subscribers_group: MEMBERS }, false, 'YYNNN'],
    ['private, protected history', { can_remove_subscribers_group: MEMBERS }, false, 'YYNNN'],
    ['private, protected history', { can_remove_subscribers_group: MEMBERS }, true, 'YYYYN'],
    ['private, protected history', { can_remove_subscribers_group: MEMBERS, can_subscribe_group: DEVS }, false, 'YYYYN'],
    ['private, protected history', { can_administer_channel_group: DEVS }, false, 'YYYYN'],
    ['public', { can_remove_subscribers_group: NOBODY, can_administer_channel_group: DEVS }, false, 'YYYYN'],
  ] as const)('%s with %j, subscribed %s: %s', (kind, settings, subscribed, yn) => {
    expect(eachRole((role) => allowed(kind, settings, subscribed, role))).toEqual(answers(yn));
  });

  it('needs the permission over every channel, or to administer every one (no mixing)', () => {
    const open = { channel: channelOf('public', { can_remove_subscribers_group: MEMBERS }), subscribed: false };
    const closed = { channel: channelOf('public'), subscribed: false };
    const administered = { channel: channelOf('public', { can_administer_channel_group: DEVS }), subscribed: false };
    const member = viewerOf(Role.MEMBER);
    expect(assertCanRemoveSubscribers([open, open], member)).toBeUndefined();
    expect(assertCanRemoveSubscribers([administered, administered], member)).toBeUndefined();
    expect(() => assertCanRemoveSubscribers([open, closed], member)).toThrow('Insufficient permission');
    expect(() => assertCanRemoveSubscribers([open, administered], member)).toThrow('Insufficient permission');
    expect(() => assertCanRemoveSubscribers([administered, closed], member)).toThrow('Insufficient permission');
    expect(assertCanRemoveSubscribers([open, closed, administered], viewerOf(Role.ADMINISTRATOR))).toBeUndefined();
  });
});

describe('who a request targets', () => {
  it.each([
    [null, false],
    [[], false],
    [[60], false],
    [[60, 60], false],
    [[61], true],
    [[60, 61], true],
    [['user60@example.com'], true], // Zulip's quirk: emails always count as others
  ] as const)('subscribing %j counts as adding others: %s', (principals, others) => {
    expect(subscribesOthers(60, principals)).toBe(others);
  });

  const me = { id: 60, isBot: false, botOwnerId: null };
  const myBot = { id: 70, isBot: true, botOwnerId: 60 };
  const theirBot = { id: 71, isBot: true, botOwnerId: 61 };
  const someone = { id: 61, isBot: false, botOwnerId: null };
  it.each([
    [[me], false],
    [[myBot], false],
    [[me, myBot], false],
    [[theirBot], true],
    [[someone], true],
    [[me, someone], true],
  ])('unsubscribing %j counts as removing others: %s', (targets, others) => {
    expect(unsubscribesOthers(60, targets)).toBe(others);
  });
});

describe('authorizing a subscribe request (spec 20 §2.2 step 6)', () => {
  const general = channelState({ id: 9, name: 'general' });
  const secret = channelState({ id: 10, name: 'secret', inviteOnly: true, historyPublicToSubscribers: false });
  const hidden = channelState({ id: 11, name: 'hidden', inviteOnly: true });
  const rules = { othersToo: false, authorizationErrorsFatal: true, realmCanAddSubscribers: MEMBERS };
  const member = aViewer(Role.MEMBER);
  const seen = (subscribed: boolean, ...cs: (typeof general)[]) => cs.map((channel) => ({ channel, subscribed }));

  it('refuses the first channel the caller cannot access when errors are fatal', () => {
    expect(() => authorizeSubscribing(seen(false, general, secret, hidden), member, rules)).toThrow('Unable to access channel (secret).');
  });
  it('sets the inaccessible channels aside otherwise', () => {
    const r = authorizeSubscribing(seen(false, general, secret, hidden), member, { ...rules, authorizationErrorsFatal: false });
    expect(r).toEqual({ authorized: [general], unauthorized: [secret, hidden] });
  });
  it('lets a subscriber of a private channel subscribe again', () => {
    expect(authorizeSubscribing(seen(true, secret), member, rules)).toEqual({ authorized: [secret], unauthorized: [] });
  });
  it('needs permission to add others on every accessible channel, after the access check', () => {
    const others = { ...rules, othersToo: true };
    expect(authorizeSubscribing(seen(false, general), member, others)).toEqual({ authorized: [general], unauthorized: [] });
    expect(() => authorizeSubscribing(seen(false, general), member, { ...others, realmCanAddSubscribers: ADMINS })).toThrow('Insufficient permission');
    expect(() => authorizeSubscribing(seen(false, general, secret), member, others)).toThrow('Unable to access channel (secret).');
    const lenient = { ...others, authorizationErrorsFatal: false, realmCanAddSubscribers: NOBODY };
    expect(authorizeSubscribing(seen(false, secret), member, lenient)).toEqual({ authorized: [], unauthorized: [secret] });
    expect(() => authorizeSubscribing(seen(true, secret), member, lenient)).toThrow('Insufficient permission');
  });
  it('still asks an organization administrator for access to a private channel, then lets them add others', () => {
    const admin = aViewer(Role.ADMINISTRATOR);
    expect(() => authorizeSubscribing(seen(false, secret), admin, { ...rules, othersToo: true })).toThrow('Unable to access channel (secret).');
    const sub = channelState({ id: 12, name: 'open', inviteOnly: true, groupSettings: channelSettings({ can_subscribe_group: ADMINS }) });
    expect(authorizeSubscribing(seen(false, sub), admin, { ...rules, othersToo: true, realmCanAddSubscribers: NOBODY })).toEqual({
      authorized: [sub],
      unauthorized: [],
    });
  });
});

describe('changing one’s own subscription settings (spec 20 §5.1 step 2)', () => {
  const member = aViewer(Role.MEMBER);
  const priv = channelState({ inviteOnly: true });
  it.each([
    ['no channel', null, aSubscription(), 'Invalid channel ID'],
    ['private, never subscribed', priv, undefined, 'Invalid channel ID'],
    ['private, left', priv, aSubscription({ active: false }), 'Invalid channel ID'],
    ['public, never subscribed', channelState(), undefined, 'Not subscribed to channel ID 9'],
    ['public, left', channelState(), aSubscription({ active: false }), 'Not subscribed to channel ID 9'],
  ] as const)('%s: %s', (_case, channel, subscription, msg) => {
    expect(() => assertCanChangeSubscription(9, channel, member, subscription)).toThrow(msg);
  });
  it('allows a subscriber, private channel or not', () => {
    expect(assertCanChangeSubscription(9, priv, member, aSubscription())).toBeUndefined();
    expect(assertCanChangeSubscription(9, channelState(), aViewer(Role.GUEST), aSubscription())).toBeUndefined();
  });
});

describe('default channels are never private', () => {
  it.each([
    [false, false, null],
    [false, true, null],
    [true, false, null],
    [true, true, 'A default channel cannot be private.'],
  ] as const)('private %s, default %s', (isPrivate, isDefault, msg) => {
    const check = () => assertDefaultChannelIsPublic({ isPrivate, isDefault });
    if (msg === null) expect(check()).toBeUndefined();
    else expect(check).toThrow(msg);
  });

  it.each([
    [Role.OWNER, false, true, null],
    [Role.ADMINISTRATOR, true, false, null],
    [Role.ADMINISTRATOR, true, true, 'A default channel cannot be private.'],
    [Role.MODERATOR, false, true, 'You do not have permission to change default channels.'],
    [Role.MEMBER, false, false, 'You do not have permission to change default channels.'],
    [Role.GUEST, false, true, 'You do not have permission to change default channels.'],
  ] as const)('PATCH is_default_stream as role %i, private %s → default %s', (role, inviteOnly, isDefault, msg) => {
    const check = () => assertCanChangeDefault(role, { inviteOnly }, isDefault);
    if (msg === null) expect(check()).toBeUndefined();
    else expect(check).toThrow(msg);
  });

  it('says so when creating a private default channel and when making a default channel private', () => {
    const facts: CreationFacts = {
      everyoneGroupId: EVERYONE,
      nobodyGroupId: NOBODY,
      isAdmin: true,
      isOwner: false,
      canSetDeleteMessagePolicy: true,
      canCreatePrivate: true,
      canCreatePublic: true,
      webPublicEnabled: false,
      canCreateWebPublic: false,
    };
    const req = { inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: undefined, isDefault: true, messageRetentionDays: null, groupSettings: {} };
    expect(() => assertCanCreateChannel(req, facts)).toThrow('A default channel cannot be private.');
    const privacyFacts = {
      contentAccess: true,
      canCreatePrivate: true,
      canCreatePublic: true,
      webPublicEnabled: false,
      canCreateWebPublic: false,
      isDefaultChannel: true,
      isModerationRequestChannel: false,
      everyoneGroupId: EVERYONE,
    };
    const c = aChannel();
    expect(() => c.changePrivacy({ isPrivate: true }, privacyFacts)).toThrow('A default channel cannot be private.');
    expect(c.inviteOnly).toBe(false);
    c.changePrivacy({ isPrivate: true }, { ...privacyFacts, isDefaultChannel: false });
    expect(c.inviteOnly).toBe(true);
  });
});

describe('default channels (POST / DELETE /default_streams)', () => {
  const view = (o: { inviteOnly?: boolean; isArchived?: boolean } = {}) => ({
    inviteOnly: o.inviteOnly ?? false,
    isWebPublic: false,
    isArchived: o.isArchived ?? false,
    groupSettings: channelSettings(),
  });
  const admin = aViewer(Role.ADMINISTRATOR);
  const msg = (f: () => void) => {
    try {
      f();
      return 'ok';
    } catch (e) {
      return (e as { msg: string }).msg;
    }
  };

  it.each([
    ['a public channel', view(), false, 'ok'],
    ['a private channel the caller is in', view({ inviteOnly: true }), true, 'Private channels cannot be made default.'],
    ['a private channel the caller is not in', view({ inviteOnly: true }), false, 'Invalid channel ID'],
    ['an archived channel', view({ isArchived: true }), true, 'Invalid channel ID'],
    ['no channel', null, false, 'Invalid channel ID'],
  ] as const)('making %s default → %s', (_name, c, subscribed, expected) => {
    expect(msg(() => assertCanMakeDefault(c, admin, subscribed))).toBe(expected);
  });

  it.each([
    ['a public channel', view(), 'ok'],
    ['a private channel (metadata access is enough)', view({ inviteOnly: true }), 'ok'],
    ['an archived channel', view({ isArchived: true }), 'Invalid channel ID'],
    ['no channel', null, 'Invalid channel ID'],
  ] as const)('removing %s → %s', (_name, c, expected) => {
    expect(msg(() => assertCanRemoveDefault(c, admin, false))).toBe(expected);
  });
});
