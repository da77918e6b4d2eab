import { pairKey, Subscription, type SubscriptionState } from '../../src/channels/subscription.js';

/** The state of user 60's active subscription to channel 9, with the palette's first colour and every default. */
export const subscriptionState = (o: Partial<SubscriptionState> = {}): SubscriptionState => ({
  userId: 60,
  channelId: 9,
  active: true,
  color: '#76ce90',
  isMuted: false,
  pinToTop: false,
  desktopNotifications: null,
  audibleNotifications: null,
  pushNotifications: null,
  emailNotifications: null,
  wildcardMentionsNotify: null,
  ...o,
});

/** A subscription aggregate in one line: `aSubscription({ active: false, color: '#ff0000' })`. */
export const aSubscription = (o: Partial<SubscriptionState> = {}): Subscription => Subscription.restore(subscriptionState(o));

/** Subscriptions as the repository hands them over: by `pairKey`. */
export const byPair = (...subscriptions: Subscription[]): Map<string, Subscription> =>
  new Map(subscriptions.map((s) => [pairKey(s.userId, s.channelId), s]));
