import { badRequest, insufficientPermission } from '../shared/domain-error.js';
import type { GroupSettingValue } from '../users/group-setting.js';
import { isAdmin, isGuest, type Role } from '../users/role.js';
import {
  canAddSubscribers,
  type ChannelAccessView,
  hasContentAccess,
  hasMetadataAccess,
  holds,
  type Viewer,
} from './channel-access.policy.js';
import { invalidChannelId } from './channel-name.js';
import { notSubscribedToChannel, type Subscription } from './subscription.js';

/*
 * Who may subscribe and unsubscribe whom (spec 20 §1.4, §2.2 step 6, §5.1, §6.2), and what a
 * default channel may be. Adding others rests on canAddSubscribers, which stays in
 * channel-access.policy.ts because the invitation rules use it too. Guests never reach the
 * subscribe endpoint (it refuses them before reading its parameters); these rules still
 * refuse them everything a guest may not do.
 */

/** A channel with whether the caller is subscribed to it. */
export interface ChannelSeenBy<C extends ChannelAccessView = ChannelAccessView> {
  readonly channel: C;
  readonly subscribed: boolean;
}

/**
 * May subscribe themselves: content access, i.e. a web-public channel; a public channel unless
 * a guest; a private channel through its can_subscribe_group or can_add_subscribers_group (never
 * a guest). The history setting plays no part; a subscriber may always "subscribe" again.
 */
export function canSubscribeSelf(c: ChannelAccessView, viewer: Viewer, subscribed: boolean): boolean {
  return hasContentAccess(c, viewer, subscribed);
}

/**
 * Whether a subscribe request adds anyone but the caller. Zulip's quirk, kept: principals given
 * as emails always count as others, even the caller's own email (the check compares ids).
 */
export function subscribesOthers(callerId: number, principals: readonly number[] | readonly string[] | null): boolean {
  if (principals === null || principals.length === 0) return false;
  return !(typeof principals[0] === 'number' && (principals as readonly number[]).every((id) => id === callerId));
}

export interface SubscribeRules {
  /** The request subscribes others (see subscribesOthers). */
  othersToo: boolean;
  authorizationErrorsFatal: boolean;
  /** The organization's can_add_subscribers_group. */
  realmCanAddSubscribers: GroupSettingValue;
}

/**
 * Spec 20 §2.2 step 6, over the request's channels that already exist (a channel the request
 * creates is always the caller's to fill): those the caller cannot subscribe to are
 * unauthorized — fatal by default, `Unable to access channel (<first>).` — and adding others
 * needs canAddSubscribers on every remaining one.
 */
export function authorizeSubscribing<C extends ChannelAccessView & { readonly name: string }>(
  channels: readonly ChannelSeenBy<C>[],
  viewer: Viewer,
  rules: SubscribeRules,
): { authorized: C[]; unauthorized: C[] } {
  const unauthorized = channels.filter(({ channel, subscribed }) => !canSubscribeSelf(channel, viewer, subscribed));
  if (unauthorized.length > 0 && rules.authorizationErrorsFatal) {
    throw badRequest(`Unable to access channel (${unauthorized[0].channel.name}).`);
  }
  const authorized = channels.filter((c) => !unauthorized.includes(c));
  if (rules.othersToo && authorized.some(({ channel, subscribed }) => !canAddSubscribers(channel, viewer, subscribed, rules.realmCanAddSubscribers))) {
    throw insufficientPermission();
  }
  return { authorized: authorized.map((c) => c.channel), unauthorized: unauthorized.map((c) => c.channel) };
}

/** Whether an unsubscribe request removes others: a target that is neither the caller nor a bot the caller owns. */
export function unsubscribesOthers(
  callerId: number,
  targets: readonly { readonly id: number; readonly isBot: boolean; readonly botOwnerId: number | null }[],
): boolean {
  return targets.some((u) => u.id !== callerId && !(u.isBot && u.botOwnerId === callerId));
}

/**
 * Unsubscribing others from a set of channels (§6.2 step 4), all or nothing: organization
 * administrators always; guests never; channel administrators of every channel; otherwise
 * metadata access to and can_remove_subscribers_group of every channel.
 */
export function assertCanRemoveSubscribers(channels: readonly ChannelSeenBy[], viewer: Viewer): void {
  if (isAdmin(viewer.role)) return;
  if (isGuest(viewer.role)) throw insufficientPermission();
  if (channels.every(({ channel }) => holds(viewer, channel.groupSettings.can_administer_channel_group))) return;
  const allowed = channels.every(
    ({ channel, subscribed }) =>
      hasMetadataAccess(channel, viewer, subscribed) && holds(viewer, channel.groupSettings.can_remove_subscribers_group),
  );
  if (!allowed) throw insufficientPermission();
}

/**
 * Changing one's own subscription settings (§5.1 step 2): the channel must exist and be
 * accessible (`Invalid channel ID`), then the caller must be subscribed to it.
 */
export function assertCanChangeSubscription(
  channelId: number,
  channel: ChannelAccessView | null,
  viewer: Viewer,
  subscription: Subscription | undefined,
): asserts subscription is Subscription {
  if (channel === null || !hasContentAccess(channel, viewer, subscription?.isActive === true)) throw invalidChannelId();
  if (subscription === undefined || !subscription.isActive) throw notSubscribedToChannel(channelId);
}

/** Every new user joins the default channels, so none may be private (creation, privacy change, default flag). */
export function assertDefaultChannelIsPublic(c: { isPrivate: boolean; isDefault: boolean }): void {
  if (c.isPrivate && c.isDefault) throw badRequest('A default channel cannot be private.');
}

/** PATCH is_default_stream (§3.4 step 1): organization administrators only, and never for a private channel. */
export function assertCanChangeDefault(actorRole: Role, channel: { readonly inviteOnly: boolean }, isDefault: boolean): void {
  if (!isAdmin(actorRole)) throw badRequest('You do not have permission to change default channels.');
  assertDefaultChannelIsPublic({ isPrivate: channel.inviteOnly, isDefault });
}

/** The channel facts the default-channel endpoints check. */
export interface DefaultChannelCandidate extends ChannelAccessView {
  readonly isArchived: boolean;
}

/**
 * POST /default_streams (Zulip's add_default_stream): the caller must be able to read the channel
 * (an archived, unknown or unreadable one is `Invalid channel ID`); a private one cannot be default.
 */
export function assertCanMakeDefault(c: DefaultChannelCandidate | null, viewer: Viewer, subscribed: boolean): asserts c is DefaultChannelCandidate {
  if (c === null || c.isArchived || !hasContentAccess(c, viewer, subscribed)) throw invalidChannelId();
  if (c.inviteOnly) throw badRequest('Private channels cannot be made default.');
}

/**
 * DELETE /default_streams (Zulip's remove_default_stream): metadata access is enough; removing a
 * channel that is not a default channel is not an error.
 */
export function assertCanRemoveDefault(c: DefaultChannelCandidate | null, viewer: Viewer, subscribed: boolean): asserts c is DefaultChannelCandidate {
  if (c === null || c.isArchived || !hasMetadataAccess(c, viewer, subscribed)) throw invalidChannelId();
}
