import { type GroupSettingValue, holdsGroupSetting } from '../users/group-setting.js';
import { isAdmin, isGuest, type Role } from '../users/role.js';
import type { ChannelGroupSettings } from './channel-settings.js';

/** The user looking at a channel, with every group they belong to (through subgroups). */
export interface Viewer {
  readonly userId: number;
  readonly role: Role;
  readonly groupIds: ReadonlySet<number>;
}

/** The channel facts the access rules read. */
export interface ChannelAccessView {
  readonly inviteOnly: boolean;
  readonly isWebPublic: boolean;
  readonly groupSettings: Pick<
    ChannelGroupSettings,
    'can_add_subscribers_group' | 'can_subscribe_group' | 'can_administer_channel_group' | 'can_remove_subscribers_group'
  > &
    Partial<ChannelGroupSettings>;
}

export const holds = (viewer: Viewer, value: GroupSettingValue): boolean =>
  holdsGroupSetting(value, viewer.userId, viewer.groupIds);

/** Guests never hold the settings that grant access to a channel's metadata. */
function holdsGranting(viewer: Viewer, value: GroupSettingValue): boolean {
  return !isGuest(viewer.role) && holds(viewer, value);
}

/** May read the channel's messages and subscribe themselves. */
export function hasContentAccess(c: ChannelAccessView, viewer: Viewer, subscribed: boolean): boolean {
  if (c.isWebPublic || subscribed) return true;
  if (isGuest(viewer.role)) return false;
  if (!c.inviteOnly) return true;
  return holdsGranting(viewer, c.groupSettings.can_add_subscribers_group) || holdsGranting(viewer, c.groupSettings.can_subscribe_group);
}

/** May know the channel exists (see it in lists, its subscribers). */
export function hasMetadataAccess(c: ChannelAccessView, viewer: Viewer, subscribed: boolean): boolean {
  if (hasContentAccess(c, viewer, subscribed)) return true;
  if (isGuest(viewer.role)) return false;
  return (
    isAdmin(viewer.role) ||
    holds(viewer, c.groupSettings.can_administer_channel_group) ||
    holds(viewer, c.groupSettings.can_add_subscribers_group) ||
    holds(viewer, c.groupSettings.can_subscribe_group)
  );
}

/** Organization administrators administer every channel; others through can_administer_channel_group. */
export function isChannelAdministrator(c: ChannelAccessView, viewer: Viewer): boolean {
  return isAdmin(viewer.role) || holdsGranting(viewer, c.groupSettings.can_administer_channel_group);
}

/**
 * May subscribe other users: administrators (organization or channel), members of the
 * channel's can_add_subscribers_group, or holders of the organization's
 * can_add_subscribers_group for channels they can access. Never a guest.
 */
export function canAddSubscribers(
  c: ChannelAccessView,
  viewer: Viewer,
  subscribed: boolean,
  realmCanAddSubscribers: GroupSettingValue,
): boolean {
  if (isChannelAdministrator(c, viewer)) return true;
  if (holdsGranting(viewer, c.groupSettings.can_add_subscribers_group)) return true;
  return hasContentAccess(c, viewer, subscribed) && holdsGranting(viewer, realmCanAddSubscribers);
}

/** What decides who hears about a channel in events. */
export interface ChannelAudience {
  readonly inviteOnly: boolean;
  readonly isWebPublic: boolean;
}

/**
 * Who may see a channel's metadata and subscriber list (spec 30 §7.6–7.7): everyone for a
 * web-public channel, non-guests plus subscribers for a public one, subscribers plus
 * administrators for a private one. (Metadata access through the channel's `can_*` groups
 * is not counted here.)
 */
export function channelViewers(c: ChannelAudience, users: readonly { id: number; role: Role }[], subscribers: readonly number[]): number[] {
  if (c.isWebPublic) return users.map((u) => u.id);
  const subs = new Set(subscribers);
  if (!c.inviteOnly) return users.filter((u) => !isGuest(u.role) || subs.has(u.id)).map((u) => u.id);
  return users.filter((u) => subs.has(u.id) || isAdmin(u.role)).map((u) => u.id);
}

/** Subscribing shows the channel to someone who could not see it (private: non-administrators; public: guests). */
export function subscribingReveals(c: ChannelAudience, role: Role): boolean {
  return c.inviteOnly ? !isAdmin(role) : !c.isWebPublic && isGuest(role);
}

/** Unsubscribing hides a private channel from a non-administrator. */
export function unsubscribingHides(c: ChannelAudience, role: Role): boolean {
  return c.inviteOnly && !isAdmin(role);
}
