import { badRequest, insufficientPermission } from '../shared/domain-error.js';
import type { GroupSettingValue } from '../users/group-setting.js';
import { ownerRequired } from '../users/role.js';
import { type ChannelGroupSettingName, unsupportedCombination } from './channel-settings.js';
import { assertDefaultChannelIsPublic } from './subscription.policy.js';

/** A channel POST /users/me/subscriptions would create. */
export interface NewChannelRequest {
  inviteOnly: boolean;
  isWebPublic: boolean;
  /** As sent; absent means "private → protected, public → shared". */
  historyPublicToSubscribers: boolean | undefined;
  isDefault: boolean;
  /** Parsed: null keeps the organization's default. */
  messageRetentionDays: number | null;
  /** Normalised values of the settings the request supplied. */
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
}

export interface CreationFacts {
  everyoneGroupId: number;
  nobodyGroupId: number;
  isAdmin: boolean;
  isOwner: boolean;
  canSetDeleteMessagePolicy: boolean;
  canCreatePrivate: boolean;
  canCreatePublic: boolean;
  webPublicEnabled: boolean;
  canCreateWebPublic: boolean;
}

/** The history flag a new channel gets: public channels always share their history. */
export function effectiveHistory(r: Pick<NewChannelRequest, 'inviteOnly' | 'historyPublicToSubscribers'>): boolean {
  if (!r.inviteOnly) return true;
  return r.historyPublicToSubscribers ?? false;
}

/** Spec 20 §2.2 step 5, in Zulip's order (after the group-setting values were validated). */
export function assertCanCreateChannel(r: NewChannelRequest, f: CreationFacts): void {
  const topicGroup = r.groupSettings.can_create_topic_group;
  const protectedHistory = r.historyPublicToSubscribers === false || (r.inviteOnly && r.historyPublicToSubscribers === undefined);
  if (topicGroup !== undefined && topicGroup !== f.everyoneGroupId && protectedHistory) {
    throw unsupportedCombination('history_public_to_subscribers', 'can_create_topic_group');
  }
  for (const s of ['can_delete_any_message_group', 'can_delete_own_message_group'] as const) {
    const v = r.groupSettings[s];
    if (v !== undefined && v !== f.nobodyGroupId && !f.canSetDeleteMessagePolicy) throw insufficientPermission();
  }
  if (r.inviteOnly && !f.canCreatePrivate) throw insufficientPermission();
  if (!r.inviteOnly && !f.canCreatePublic) throw insufficientPermission();
  if (r.isDefault && !f.isAdmin) throw insufficientPermission();
  assertDefaultChannelIsPublic({ isPrivate: r.inviteOnly, isDefault: r.isDefault });
  if (r.isWebPublic) {
    if (!f.webPublicEnabled) throw badRequest('Web-public channels are not enabled.');
    if (!f.canCreateWebPublic) throw insufficientPermission();
  }
  if (r.messageRetentionDays !== null && !f.isOwner) throw ownerRequired();
}
