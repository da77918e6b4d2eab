import { AggregateRoot } from '../shared/aggregate-root.js';
import { badRequest } from '../shared/domain-error.js';

export const BOOLEAN_SUBSCRIPTION_PROPERTIES = [
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

export type SubscriptionProperty = 'color' | (typeof BOOLEAN_SUBSCRIPTION_PROPERTIES)[number];

/** A stored change: in_home_view is the legacy inverse of is_muted. */
export type SubscriptionChange =
  | { column: 'color'; value: string }
  | { column: Exclude<SubscriptionProperty, 'color' | 'in_home_view'>; value: boolean };

const COLOR = /^#([a-fA-F0-9]{3,6})$/;

export function isValidColor(value: unknown): value is string {
  return typeof value === 'string' && COLOR.test(value);
}

/** Validates one {property, value} of the subscription-properties endpoints (spec 20 §5.1 step 1). */
export function parseSubscriptionChange(property: string, value: unknown): SubscriptionChange {
  if (property === 'color') {
    if (!isValidColor(value)) throw badRequest('color is not a valid hex color code');
    return { column: 'color', value };
  }
  if ((BOOLEAN_SUBSCRIPTION_PROPERTIES as readonly string[]).includes(property)) {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
    if (property === 'in_home_view') return { column: 'is_muted', value: !value };
    return { column: property as Exclude<SubscriptionChange['column'], 'color'>, value };
  }
  throw badRequest(`Unknown subscription property: ${property}`);
}

/** Zulip's palette for new subscriptions (zerver/lib/stream_color.py). */
export const STREAM_ASSIGNMENT_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];
export const DEFAULT_STREAM_COLOR = '#c2c2c2';

/**
 * Zulip's pick_colors: channels the user never subscribed to get, in channel-id order, the
 * palette colours the user does not use yet (requested colours first count as used); once the
 * palette is exhausted, the colour of `channel id mod 24`.
 */
export function pickColors(
  usedColors: ReadonlySet<string>,
  channelIds: readonly number[],
  requested: ReadonlyMap<number, string>,
): Map<number, string> {
  const used = new Set(usedColors);
  const out = new Map<number, string>();
  const others: number[] = [];
  for (const id of [...channelIds].sort((a, b) => a - b)) {
    const want = requested.get(id);
    if (want !== undefined) {
      out.set(id, want);
      used.add(want);
    } else others.push(id);
  }
  const available = STREAM_ASSIGNMENT_COLORS.filter((c) => !used.has(c));
  others.forEach((id, i) => out.set(id, available[i] ?? STREAM_ASSIGNMENT_COLORS[id % STREAM_ASSIGNMENT_COLORS.length]));
  return out;
}

/** One user in one channel. */
export interface SubscriptionPair {
  readonly userId: number;
  readonly channelId: number;
}

/** The key of a (user, channel) pair in maps of subscriptions. */
export const pairKey = (userId: number, channelId: number): string => `${userId}:${channelId}`;

export interface SubscriptionState {
  userId: number;
  channelId: number;
  /** false once the user left the channel; the row (and its settings) stays for a return. */
  active: boolean;
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  /** The five notification settings: null follows the user's default. */
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

export type SubscriptionEvent =
  /** Joined for the first time or again; `subscription`: its state then (the `add` event shows it). */
  | { type: 'subscribed'; userId: number; channelId: number; subscription: Readonly<SubscriptionState> }
  | { type: 'unsubscribed'; userId: number; channelId: number }
  | { type: 'property_changed'; userId: number; channelId: number; property: SubscriptionChange['column']; value: string | boolean };

export const notSubscribedToChannel = (channelId: number) => badRequest(`Not subscribed to channel ID ${channelId}`);

const NOTIFICATION_SETTINGS = {
  desktop_notifications: 'desktopNotifications',
  audible_notifications: 'audibleNotifications',
  push_notifications: 'pushNotifications',
  email_notifications: 'emailNotifications',
  wildcard_mentions_notify: 'wildcardMentionsNotify',
} as const;

/** A user's membership in a channel with its personal settings. */
export class Subscription extends AggregateRoot<SubscriptionEvent> {
  private constructor(private readonly state: SubscriptionState) {
    super();
  }

  /** A first subscription: active, unmuted, unpinned, notifications following the user's defaults. */
  static create(p: { userId: number; channelId: number; color: string }): Subscription {
    const s = new Subscription({
      userId: p.userId,
      channelId: p.channelId,
      active: true,
      color: p.color,
      isMuted: false,
      pinToTop: false,
      desktopNotifications: null,
      audibleNotifications: null,
      pushNotifications: null,
      emailNotifications: null,
      wildcardMentionsNotify: null,
    });
    s.recordSubscribed();
    return s;
  }

  static restore(state: SubscriptionState): Subscription {
    return new Subscription({ ...state });
  }

  get userId(): number {
    return this.state.userId;
  }
  get channelId(): number {
    return this.state.channelId;
  }
  get isActive(): boolean {
    return this.state.active;
  }
  get color(): string {
    return this.state.color;
  }
  get isMuted(): boolean {
    return this.state.isMuted;
  }
  /** The legacy inverse of is_muted. */
  get inHomeView(): boolean {
    return !this.state.isMuted;
  }
  snapshot(): Readonly<SubscriptionState> {
    return { ...this.state };
  }

  /** Comes back to a channel left earlier, with the colour and settings it had. */
  rejoin(): void {
    if (this.state.active) throw new Error(`user ${this.state.userId} is already subscribed to channel ${this.state.channelId}`);
    this.state.active = true;
    this.recordSubscribed();
  }

  private recordSubscribed(): void {
    this.record({ type: 'subscribed', userId: this.state.userId, channelId: this.state.channelId, subscription: this.snapshot() });
  }

  /** Leaves the channel; the settings are kept for a return. */
  leave(): void {
    if (!this.state.active) throw new Error(`user ${this.state.userId} is not subscribed to channel ${this.state.channelId}`);
    this.state.active = false;
    this.record({ type: 'unsubscribed', userId: this.state.userId, channelId: this.state.channelId });
  }

  /**
   * One validated personal setting (see parseSubscriptionChange). Only an active subscription
   * has settings to change; every change is announced, even to the same value (as Zulip does).
   */
  updateProperty(change: SubscriptionChange): void {
    if (!this.state.active) throw notSubscribedToChannel(this.state.channelId);
    if (change.column === 'color') this.state.color = change.value;
    else if (change.column === 'is_muted') this.state.isMuted = change.value;
    else if (change.column === 'pin_to_top') this.state.pinToTop = change.value;
    else this.state[NOTIFICATION_SETTINGS[change.column]] = change.value;
    this.record({ type: 'property_changed', userId: this.state.userId, channelId: this.state.channelId, property: change.column, value: change.value });
  }

  mute(): void {
    this.updateProperty({ column: 'is_muted', value: true });
  }

  unmute(): void {
    this.updateProperty({ column: 'is_muted', value: false });
  }
}

/** What subscribing users to channels did, pair by pair. */
export interface JoinOutcome {
  /** New and returning subscriptions, user by user, in the channels' order: to save. */
  joined: Subscription[];
  alreadySubscribed: SubscriptionPair[];
}

/**
 * Subscribes every user to every channel (spec 20 §2.2 step 9), deciding each pair: an active
 * subscription is reported as already there; a left one is rejoined with its colour; a new
 * one takes the requested colour, else one picked by `pickColors` among the user's unused ones.
 * `existing`: the pairs' subscriptions (active or left) by `pairKey`.
 */
export function joinChannels(
  userIds: readonly number[],
  channelIds: readonly number[],
  existing: ReadonlyMap<string, Subscription>,
  usedColors: ReadonlyMap<number, ReadonlySet<string>>,
  requestedColors: ReadonlyMap<number, string>,
): JoinOutcome {
  const out: JoinOutcome = { joined: [], alreadySubscribed: [] };
  for (const userId of userIds) {
    const fresh = channelIds.filter((channelId) => !existing.has(pairKey(userId, channelId)));
    const colors = pickColors(usedColors.get(userId) ?? new Set(), fresh, requestedColors);
    for (const channelId of channelIds) {
      const subscription = existing.get(pairKey(userId, channelId));
      if (subscription === undefined) out.joined.push(Subscription.create({ userId, channelId, color: colors.get(channelId)! }));
      else if (subscription.isActive) out.alreadySubscribed.push({ userId, channelId });
      else {
        subscription.rejoin();
        out.joined.push(subscription);
      }
    }
  }
  return out;
}

/** What unsubscribing users from channels did, pair by pair. */
export interface LeaveOutcome {
  /** Subscriptions left, channel by channel, in the users' order: to save. */
  left: Subscription[];
  notSubscribed: SubscriptionPair[];
}

/** Unsubscribes every user from every channel (spec 20 §6.2 step 6): pairs not subscribed are reported, not an error. */
export function leaveChannels(
  userIds: readonly number[],
  channelIds: readonly number[],
  existing: ReadonlyMap<string, Subscription>,
): LeaveOutcome {
  const out: LeaveOutcome = { left: [], notSubscribed: [] };
  for (const channelId of channelIds) {
    for (const userId of userIds) {
      const subscription = existing.get(pairKey(userId, channelId));
      if (subscription?.isActive) {
        subscription.leave();
        out.left.push(subscription);
      } else out.notSubscribed.push({ userId, channelId });
    }
  }
  return out;
}
