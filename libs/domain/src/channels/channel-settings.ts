import { badRequest, DomainError } from '../shared/domain-error.js';
import type { GroupSettingConfig, GroupSettingValue } from '../users/group-setting.js';
import { SystemGroup, type SystemGroupName } from '../users/system-groups.js';

const config = (allowEveryone: boolean): GroupSettingConfig => ({
  requireSystemGroup: false,
  allowInternetGroup: false,
  allowNobodyGroup: true,
  allowEveryoneGroup: allowEveryone,
});

export interface ChannelGroupSettingDefinition {
  readonly default: SystemGroupName | 'channel_creator';
  readonly config: GroupSettingConfig;
  /** Changing it needs content access to the channel (it grants metadata and content access). */
  readonly needsContentAccess: boolean;
}

/** The 11 permission settings of a channel, their defaults at creation and what they accept. */
export const CHANNEL_GROUP_SETTINGS = {
  can_add_subscribers_group: { default: SystemGroup.NOBODY, config: config(false), needsContentAccess: true },
  can_administer_channel_group: { default: 'channel_creator', config: config(false), needsContentAccess: false },
  can_create_topic_group: { default: SystemGroup.EVERYONE, config: config(true), needsContentAccess: false },
  can_delete_any_message_group: { default: SystemGroup.NOBODY, config: config(true), needsContentAccess: false },
  can_delete_own_message_group: { default: SystemGroup.NOBODY, config: config(true), needsContentAccess: false },
  can_move_messages_out_of_channel_group: { default: SystemGroup.NOBODY, config: config(true), needsContentAccess: false },
  can_move_messages_within_channel_group: { default: SystemGroup.NOBODY, config: config(true), needsContentAccess: false },
  can_remove_subscribers_group: { default: SystemGroup.ADMINISTRATORS, config: config(true), needsContentAccess: false },
  can_resolve_topics_group: { default: SystemGroup.NOBODY, config: config(true), needsContentAccess: false },
  can_send_message_group: { default: SystemGroup.EVERYONE, config: config(true), needsContentAccess: false },
  can_subscribe_group: { default: SystemGroup.NOBODY, config: config(false), needsContentAccess: true },
} as const satisfies Record<string, ChannelGroupSettingDefinition>;

export type ChannelGroupSettingName = keyof typeof CHANNEL_GROUP_SETTINGS;
export const CHANNEL_GROUP_SETTING_NAMES = Object.keys(CHANNEL_GROUP_SETTINGS) as ChannelGroupSettingName[];
export type ChannelGroupSettings = Record<ChannelGroupSettingName, GroupSettingValue>;

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

/**
 * message_retention_days as sent: "realm_default" → null (the organization's setting),
 * "unlimited" → -1, a positive integer → that many days.
 */
export function parseRetentionDays(value: string | number): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new DomainError(`Bad value for 'message_retention_days': ${value}`, 'REQUEST_VARIABLE_INVALID', 'invalid', {
    var_name: 'message_retention_days',
    bad_value: value,
  });
}

/** Legacy stream_post_policy derived from can_send_message_group (a system group's name, else null). */
export function streamPostPolicy(sendGroupName: string | null): number {
  switch (sendGroupName) {
    case SystemGroup.ADMINISTRATORS:
      return 2;
    case SystemGroup.FULL_MEMBERS:
      return 3;
    case SystemGroup.MODERATORS:
      return 4;
    default:
      return 1;
  }
}

export const unsupportedCombination = (...parameters: string[]) =>
  badRequest(`Unsupported parameter combination: ${parameters.join(', ')}`, { parameters: parameters.join(', ') });
