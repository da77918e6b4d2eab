import type { GroupSettingConfig } from '../users/group-setting.js';
import { SystemGroup, type SystemGroupName } from '../users/system-groups.js';

export interface RealmGroupSettingDefinition {
  readonly defaultGroup: SystemGroupName;
  readonly config: GroupSettingConfig;
}

const anyGroup = (allowEveryone: boolean, allowNobody = true): GroupSettingConfig => ({
  requireSystemGroup: false,
  allowInternetGroup: false,
  allowNobodyGroup: allowNobody,
  allowEveryoneGroup: allowEveryone,
});

/** The organization's permission settings, their defaults (Zulip's REALM_PERMISSION_GROUP_SETTINGS) and what they accept. */
export const REALM_GROUP_SETTINGS = {
  can_access_all_users_group: {
    defaultGroup: SystemGroup.EVERYONE,
    config: {
      requireSystemGroup: true,
      allowInternetGroup: false,
      allowNobodyGroup: false,
      allowEveryoneGroup: true,
      allowedSystemGroups: [SystemGroup.EVERYONE, SystemGroup.MEMBERS],
    },
  },
  can_add_custom_emoji_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_add_subscribers_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_create_bots_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_create_groups: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_create_private_channel_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_create_public_channel_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_create_web_public_channel_group: {
    defaultGroup: SystemGroup.OWNERS,
    config: {
      requireSystemGroup: true,
      allowInternetGroup: false,
      allowNobodyGroup: true,
      allowEveryoneGroup: false,
      allowedSystemGroups: [
        SystemGroup.NOBODY,
        SystemGroup.OWNERS,
        SystemGroup.ADMINISTRATORS,
        SystemGroup.MODERATORS,
        SystemGroup.FULL_MEMBERS,
        SystemGroup.MEMBERS,
      ],
    },
  },
  can_create_write_only_bots_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_delete_any_message_group: { defaultGroup: SystemGroup.ADMINISTRATORS, config: anyGroup(true) },
  can_delete_own_message_group: { defaultGroup: SystemGroup.EVERYONE, config: anyGroup(true) },
  can_invite_users_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_manage_all_groups: { defaultGroup: SystemGroup.OWNERS, config: anyGroup(false) },
  can_manage_billing_group: { defaultGroup: SystemGroup.ADMINISTRATORS, config: anyGroup(false) },
  can_mention_many_users_group: { defaultGroup: SystemGroup.ADMINISTRATORS, config: anyGroup(true) },
  can_move_messages_between_channels_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(true) },
  can_move_messages_between_topics_group: { defaultGroup: SystemGroup.EVERYONE, config: anyGroup(true) },
  can_resolve_topics_group: { defaultGroup: SystemGroup.EVERYONE, config: anyGroup(true) },
  can_set_delete_message_policy_group: { defaultGroup: SystemGroup.MODERATORS, config: anyGroup(false) },
  can_set_topics_policy_group: { defaultGroup: SystemGroup.MEMBERS, config: anyGroup(false) },
  can_summarize_topics_group: { defaultGroup: SystemGroup.EVERYONE, config: anyGroup(true) },
  create_multiuse_invite_group: { defaultGroup: SystemGroup.ADMINISTRATORS, config: anyGroup(false) },
  direct_message_initiator_group: { defaultGroup: SystemGroup.EVERYONE, config: anyGroup(true) },
  direct_message_permission_group: { defaultGroup: SystemGroup.EVERYONE, config: anyGroup(true) },
} as const satisfies Record<string, RealmGroupSettingDefinition>;

export type RealmGroupSettingName = keyof typeof REALM_GROUP_SETTINGS;
export const REALM_GROUP_SETTING_NAMES = Object.keys(REALM_GROUP_SETTINGS) as RealmGroupSettingName[];

/** Settings of a named user group (Zulip's NamedUserGroup.GROUP_PERMISSION_SETTINGS). */
export const USER_GROUP_SETTINGS = {
  can_add_members_group: { default: 'group_creator', config: anyGroup(false) },
  can_join_group: { default: SystemGroup.NOBODY, config: anyGroup(false) },
  can_leave_group: { default: SystemGroup.EVERYONE, config: anyGroup(true) },
  can_manage_group: { default: 'group_creator', config: anyGroup(false) },
  can_mention_group: { default: SystemGroup.EVERYONE, config: anyGroup(true) },
  can_remove_members_group: { default: SystemGroup.NOBODY, config: anyGroup(false) },
} as const satisfies Record<string, { default: SystemGroupName | 'group_creator'; config: GroupSettingConfig }>;
export type UserGroupSettingName = keyof typeof USER_GROUP_SETTINGS;
export const USER_GROUP_SETTING_NAMES = Object.keys(USER_GROUP_SETTINGS) as UserGroupSettingName[];

export const EditHistoryVisibility = { all: 1, moves: 2, none: 3 } as const;
export const RealmTopicsPolicy = { allow_empty_topic: 2, disable_empty_topic: 3 } as const;

/** Server-wide limits the API reports (POST /register) and enforces. */
export const LIMITS = {
  maxMessageLength: 10_000,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxChannelFolderNameLength: 60,
  maxChannelFolderDescriptionLength: 1024,
  maxBulkNewSubscriptionMessages: 100,
  maxReminderNoteLength: 1000,
  maxFileUploadSizeMib: 100,
  maxAvatarFileSizeMib: 5,
  maxIconFileSizeMib: 5,
  maxLogoFileSizeMib: 5,
} as const;

export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
