import { CHANNEL_GROUP_SETTING_NAMES, streamPostPolicy } from '@app/domain/channels';
import { unixSeconds } from '../../users/index.js';
import type { ChannelFolderRecord, ChannelRecord, SubscriptionRecord } from './channel.ports.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';

/** Zulip's stream_to_dict, in its key order. `systemGroups`: id → name of the system groups. */
export function presentChannel(c: ChannelRecord, systemGroups: Map<number, string>): Record<string, unknown> {
  const send = c.groupSettings.can_send_message_group;
  const postPolicy = streamPostPolicy(typeof send === 'number' ? (systemGroups.get(send) ?? null) : null);
  const settings = Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, presentGroupSetting(c.groupSettings[s])]));
  return {
    is_archived: c.isArchived,
    ...settings,
    creator_id: c.creatorId,
    date_created: unixSeconds(c.dateCreated),
    description: c.description,
    first_message_id: c.firstMessageId,
    folder_id: c.folderId,
    is_recently_active: false,
    history_public_to_subscribers: c.historyPublicToSubscribers,
    invite_only: c.inviteOnly,
    is_web_public: c.isWebPublic,
    message_retention_days: c.messageRetentionDays,
    name: c.name,
    rendered_description: c.renderedDescription,
    stream_id: c.id,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
    // Traffic needs a week of message history; null for channels without it, as in Zulip.
    stream_weekly_traffic: null,
    subscriber_count: c.subscriberCount,
    topics_policy: c.topicsPolicy,
  };
}

/** A subscription object: the channel's fields plus the personal settings. */
export function presentSubscription(
  c: ChannelRecord,
  s: SubscriptionRecord,
  systemGroups: Map<number, string>,
): Record<string, unknown> {
  return {
    ...presentChannel(c, systemGroups),
    color: s.color,
    is_muted: s.isMuted,
    in_home_view: !s.isMuted,
    pin_to_top: s.pinToTop,
    desktop_notifications: s.desktopNotifications,
    audible_notifications: s.audibleNotifications,
    push_notifications: s.pushNotifications,
    email_notifications: s.emailNotifications,
    wildcard_mentions_notify: s.wildcardMentionsNotify,
  };
}

export function presentFolder(f: ChannelFolderRecord): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    rendered_description: f.renderedDescription,
    order: f.order,
    date_created: unixSeconds(f.dateCreated),
    creator_id: f.creatorId,
    is_archived: f.isArchived,
  };
}
