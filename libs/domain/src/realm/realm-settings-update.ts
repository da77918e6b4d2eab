import { DomainError } from '../shared/domain-error.js';
import { ownerRequired } from '../users/role.js';

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** The organization's plain (non-group) settings that PATCH /realm changes. */
export interface RealmProperties {
  name: string;
  description: string;
  allowMessageEditing: boolean;
  messageContentEditLimitSeconds: number | null;
  messageContentDeleteLimitSeconds: number | null;
  moveMessagesWithinStreamLimitSeconds: number | null;
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  messageEditHistoryVisibilityPolicy: number;
  topicsPolicy: number;
  messageRetentionDays: number;
  waitingPeriodThreshold: number;
  inviteRequired: boolean;
  emailsRestrictedToDomains: boolean;
  disallowDisposableEmailAddresses: boolean;
  enableSpectatorAccess: boolean;
  enableReadReceipts: boolean;
  sendChannelEventsMessages: boolean;
}
export type RealmPropertyName = keyof RealmProperties;

/** Each property's API name (Zulip's Realm.property_types key). */
export const REALM_PROPERTY_API_NAMES: Readonly<Record<RealmPropertyName, string>> = {
  name: 'name',
  description: 'description',
  allowMessageEditing: 'allow_message_editing',
  messageContentEditLimitSeconds: 'message_content_edit_limit_seconds',
  messageContentDeleteLimitSeconds: 'message_content_delete_limit_seconds',
  moveMessagesWithinStreamLimitSeconds: 'move_messages_within_stream_limit_seconds',
  moveMessagesBetweenStreamsLimitSeconds: 'move_messages_between_streams_limit_seconds',
  messageEditHistoryVisibilityPolicy: 'message_edit_history_visibility_policy',
  topicsPolicy: 'topics_policy',
  messageRetentionDays: 'message_retention_days',
  waitingPeriodThreshold: 'waiting_period_threshold',
  inviteRequired: 'invite_required',
  emailsRestrictedToDomains: 'emails_restricted_to_domains',
  disallowDisposableEmailAddresses: 'disallow_disposable_email_addresses',
  enableSpectatorAccess: 'enable_spectator_access',
  enableReadReceipts: 'enable_read_receipts',
  sendChannelEventsMessages: 'send_channel_events_messages',
};

/**
 * Settings only organization owners may change (Zulip's update_realm): the retention
 * policy, who may invite and manage groups, the sign-up email rules and the full-member
 * waiting period. Everything else needs an administrator.
 */
export const OWNER_ONLY_REALM_SETTINGS: readonly string[] = [
  'message_retention_days',
  'invite_required',
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
];

/** Refuses a non-owner any owner-only setting among the API names given. */
export function assertCanChangeRealmSettings(given: Iterable<string>, isOwner: boolean): void {
  if (isOwner) return;
  for (const name of given) if (OWNER_ONLY_REALM_SETTINGS.includes(name)) throw ownerRequired();
}

/** Zulip's RequestVariableConversionError. */
export function badSettingValue(setting: string, value: number | string): DomainError {
  return new DomainError(`Bad value for '${setting}': ${value}`, 'REQUEST_VARIABLE_INVALID', 'invalid', {
    var_name: setting,
    bad_value: value,
  });
}

/** An edit/delete/move time limit: a positive number of seconds, or "unlimited" (null). */
export function parseMessageTimeLimit(setting: string, value: number | string): number | null {
  if (value === 'unlimited') return null;
  if (typeof value === 'string' || value <= 0) throw badSettingValue(setting, value);
  return value;
}

/** The organization's retention: a positive number of days, or "unlimited" (-1). */
export function parseRealmRetentionDays(value: number | string): number {
  if (value === 'unlimited') return -1;
  if (typeof value === 'string' || value <= 0) throw badSettingValue('message_retention_days', value);
  return value;
}

/**
 * What really changes, and how PATCH /realm reports it: text settings as "updated", the others
 * with their new value (unlimited time limits as null). Unchanged values are left out.
 */
export function changedRealmProperties(
  current: RealmProperties,
  requested: Partial<RealmProperties>,
): { changes: Partial<RealmProperties>; reported: Record<string, unknown> } {
  const changes: Partial<RealmProperties> = {};
  const reported: Record<string, unknown> = {};
  for (const key of Object.keys(REALM_PROPERTY_API_NAMES) as RealmPropertyName[]) {
    const value = requested[key];
    if (value === undefined || value === current[key]) continue;
    (changes as Record<string, unknown>)[key] = value;
    reported[REALM_PROPERTY_API_NAMES[key]] = typeof value === 'string' ? 'updated' : value;
  }
  return { changes, reported };
}

/**
 * Members who joined at or before this instant have waited `waitingPeriodDays` whole days and
 * are full members (Zulip compares whole days elapsed with the threshold).
 */
export function fullMemberCutoff(now: Date, waitingPeriodDays: number): Date {
  return new Date(now.getTime() - waitingPeriodDays * 86_400_000);
}
