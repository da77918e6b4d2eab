import {
  BOOLEAN_SUBSCRIPTION_PROPERTIES,
  DEFAULT_STREAM_COLOR,
  joinChannels,
  leaveChannels,
  parseSubscriptionChange,
  pickColors,
  STREAM_ASSIGNMENT_COLORS,
  Subscription,
} from './subscription.js';

import { aSubscription, byPair, subscriptionState } from '../../test/builders.js';

const PALETTE = STREAM_ASSIGNMENT_COLORS;

describe('Subscription', () => {
  it('starts active, unmuted, unpinned, with notifications following the user, and says so', () => {
    const s = Subscription.create({ userId: 61, channelId: 12, color: '#abcdef' });
    const state = subscriptionState({ userId: 61, channelId: 12, color: '#abcdef' });
    expect(s.snapshot()).toEqual(state);
    expect([s.isActive, s.isMuted, s.inHomeView, s.color]).toEqual([true, false, true, '#abcdef']);
    expect(s.pullEvents()).toEqual([{ type: 'subscribed', userId: 61, channelId: 12, subscription: state }]);
    expect(s.pullEvents()).toEqual([]);
  });

  it('leaves, keeping its settings, and cannot leave twice', () => {
    const s = aSubscription({ color: '#ff0000', isMuted: true, pinToTop: true });
    s.leave();
    expect(s.snapshot()).toEqual(subscriptionState({ active: false, color: '#ff0000', isMuted: true, pinToTop: true }));
    expect(s.pullEvents()).toEqual([{ type: 'unsubscribed', userId: 60, channelId: 9 }]);
    expect(() => s.leave()).toThrow('user 60 is not subscribed to channel 9');
  });

  it('rejoins with the colour and settings it had, and cannot rejoin while subscribed', () => {
    const s = aSubscription({ active: false, color: '#ff0000', isMuted: true, emailNotifications: false });
    s.rejoin();
    const state = subscriptionState({ color: '#ff0000', isMuted: true, emailNotifications: false });
    expect(s.snapshot()).toEqual(state);
    expect(s.pullEvents()).toEqual([{ type: 'subscribed', userId: 60, channelId: 9, subscription: state }]);
    expect(() => s.rejoin()).toThrow('user 60 is already subscribed to channel 9');
  });

  it.each([
    ['color', '#123', { color: '#123' }],
    ['is_muted', true, { isMuted: true }],
    ['in_home_view', false, { isMuted: true }],
    ['in_home_view', true, { isMuted: false }],
    ['pin_to_top', true, { pinToTop: true }],
    ['desktop_notifications', false, { desktopNotifications: false }],
    ['audible_notifications', true, { audibleNotifications: true }],
    ['push_notifications', false, { pushNotifications: false }],
    ['email_notifications', true, { emailNotifications: true }],
    ['wildcard_mentions_notify', false, { wildcardMentionsNotify: false }],
  ] as const)('updates %s = %j', (property, value, changed) => {
    const s = aSubscription();
    s.updateProperty(parseSubscriptionChange(property, value));
    expect(s.snapshot()).toEqual(subscriptionState(changed));
    const column = property === 'in_home_view' ? 'is_muted' : property;
    const stored = property === 'in_home_view' ? !value : value;
    expect(s.pullEvents()).toEqual([{ type: 'property_changed', userId: 60, channelId: 9, property: column, value: stored }]);
  });

  it('announces a property set to the value it already has', () => {
    const s = aSubscription({ pinToTop: true });
    s.updateProperty({ column: 'pin_to_top', value: true });
    expect(s.pullEvents()).toEqual([{ type: 'property_changed', userId: 60, channelId: 9, property: 'pin_to_top', value: true }]);
  });

  it('shows in_home_view as the inverse of is_muted, and mutes and unmutes', () => {
    const s = aSubscription();
    s.mute();
    expect([s.isMuted, s.inHomeView]).toEqual([true, false]);
    s.unmute();
    expect([s.isMuted, s.inHomeView]).toEqual([false, true]);
    expect(s.pullEvents().map((e) => e.type === 'property_changed' && [e.property, e.value])).toEqual([
      ['is_muted', true],
      ['is_muted', false],
    ]);
  });

  it('has no settings to change once left', () => {
    const s = aSubscription({ active: false, channelId: 12 });
    expect(() => s.updateProperty({ column: 'color', value: '#000' })).toThrow('Not subscribed to channel ID 12');
    expect(() => s.mute()).toThrow('Not subscribed to channel ID 12');
    expect(s.snapshot()).toEqual(subscriptionState({ active: false, channelId: 12 }));
    expect(s.pullEvents()).toEqual([]);
  });
});

describe('subscription properties as sent', () => {
  it.each(BOOLEAN_SUBSCRIPTION_PROPERTIES.filter((p) => p !== 'in_home_view'))('%s takes a boolean as is', (p) => {
    expect(parseSubscriptionChange(p, true)).toEqual({ column: p, value: true });
    expect(parseSubscriptionChange(p, false)).toEqual({ column: p, value: false });
  });
  it('stores in_home_view as the inverse of is_muted', () => {
    expect(parseSubscriptionChange('in_home_view', false)).toEqual({ column: 'is_muted', value: true });
    expect(parseSubscriptionChange('in_home_view', true)).toEqual({ column: 'is_muted', value: false });
  });
  it.each(['#abc', '#ABCD', '#abcde', '#AABBCC', '#c2c2c2'])('accepts the colour %s as sent', (c) => {
    expect(parseSubscriptionChange('color', c)).toEqual({ column: 'color', value: c });
  });
  it.each(['red', '#12', '#1234567', 'c2c2c2', '#ggg', ' #abc', true, 123, null])('refuses the colour %j', (c) => {
    expect(() => parseSubscriptionChange('color', c)).toThrow('color is not a valid hex color code');
  });
  it.each([
    ['is_muted', 'yes'],
    ['in_home_view', 'true'],
    ['pin_to_top', 1],
    ['desktop_notifications', null],
    ['wildcard_mentions_notify', '#abc'],
  ])('refuses %s = %j: not a boolean', (p, v) => {
    expect(() => parseSubscriptionChange(p, v)).toThrow(`${p} is not a boolean`);
  });
  it.each(['volume', 'name', 'Color', ''])('refuses the unknown property %j', (p) => {
    expect(() => parseSubscriptionChange(p, true)).toThrow(`Unknown subscription property: ${p}`);
  });
});

describe('colours of new subscriptions (Zulip pick_colors)', () => {
  it('gives unused palette colours in channel-id order', () => {
    const picked = pickColors(new Set([PALETTE[0]]), [12, 11], new Map([[30, '#000000']]));
    expect([...picked]).toEqual([
      [11, PALETTE[1]],
      [12, PALETTE[2]],
    ]);
  });
  it('counts requested colours as used', () => {
    const picked = pickColors(new Set(), [5, 6], new Map([[5, PALETTE[0]]]));
    expect([...picked]).toEqual([
      [5, PALETTE[0]],
      [6, PALETTE[1]],
    ]);
  });
  it('falls back to the colour of channel id mod 24 once the palette is used up', () => {
    expect(pickColors(new Set(PALETTE), [25, 48], new Map())).toEqual(new Map([[25, PALETTE[1]], [48, PALETTE[0]]]));
  });
  it('keeps #c2c2c2 as the default colour, part of the palette', () => {
    expect(DEFAULT_STREAM_COLOR).toBe('#c2c2c2');
    expect(PALETTE.indexOf(DEFAULT_STREAM_COLOR)).toBe(18);
    expect(PALETTE).toHaveLength(24);
  });
});

describe('subscribing users to channels, pair by pair', () => {
  it('creates, rejoins or reports each pair; returning users keep their colour, new ones get an unused one', () => {
    const active = aSubscription({ userId: 60, channelId: 9, color: PALETTE[0] });
    const left = aSubscription({ userId: 61, channelId: 9, active: false, color: '#ff0000' });
    const used = new Map([[60, new Set([PALETTE[0]])], [61, new Set(['#ff0000'])]]);
    const { joined, alreadySubscribed } = joinChannels([60, 61], [9, 10], byPair(active, left), used, new Map([[9, '#000000']]));
    expect(joined.map((s) => s.snapshot())).toEqual([
      subscriptionState({ userId: 60, channelId: 10, color: PALETTE[1] }),
      subscriptionState({ userId: 61, channelId: 9, color: '#ff0000' }),
      subscriptionState({ userId: 61, channelId: 10, color: PALETTE[0] }),
    ]);
    expect(joined[1]).toBe(left);
    expect(alreadySubscribed).toEqual([{ userId: 60, channelId: 9 }]);
    expect(joined.flatMap((s) => s.pullEvents()).map((e) => [e.type, e.userId, e.channelId])).toEqual([
      ['subscribed', 60, 10],
      ['subscribed', 61, 9],
      ['subscribed', 61, 10],
    ]);
    expect(active.pullEvents()).toEqual([]);
  });
  it('gives new subscriptions the requested colour', () => {
    const { joined } = joinChannels([60], [9, 10], new Map(), new Map(), new Map([[10, '#010203']]));
    expect(joined.map((s) => [s.channelId, s.color])).toEqual([
      [9, PALETTE[0]],
      [10, '#010203'],
    ]);
  });
});

describe('unsubscribing users from channels, pair by pair', () => {
  it('leaves active subscriptions channel by channel and reports the others', () => {
    const a = aSubscription({ userId: 60, channelId: 9 });
    const b = aSubscription({ userId: 61, channelId: 10 });
    const gone = aSubscription({ userId: 61, channelId: 9, active: false });
    const { left, notSubscribed } = leaveChannels([60, 61], [10, 9], byPair(a, b, gone));
    expect(left).toEqual([b, a]);
    expect(left.map((s) => s.isActive)).toEqual([false, false]);
    expect(notSubscribed).toEqual([
      { userId: 60, channelId: 10 },
      { userId: 61, channelId: 9 },
    ]);
    expect(gone.pullEvents()).toEqual([]);
    expect(a.pullEvents()).toEqual([{ type: 'unsubscribed', userId: 60, channelId: 9 }]);
  });
});
