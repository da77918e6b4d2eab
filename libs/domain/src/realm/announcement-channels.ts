import { badRequest } from '../shared/domain-error.js';

/** The organization's channel-valued settings as stored: a channel id, or null when disabled. */
export interface RealmChannelSettings {
  moderationRequestChannelId: number | null;
  newStreamAnnouncementsStreamId: number | null;
  signupAnnouncementsStreamId: number | null;
  updateAnnouncementsStreamId: number | null;
}
export type RealmChannelSettingKey = keyof RealmChannelSettings;

/**
 * Each setting's API name, in the order Zulip's update_realm applies them (the server-update
 * channel is `svc_…` here, Zulip's `zulip_…`).
 */
export const REALM_CHANNEL_SETTING_API_NAMES: Readonly<Record<RealmChannelSettingKey, string>> = {
  moderationRequestChannelId: 'moderation_request_channel_id',
  newStreamAnnouncementsStreamId: 'new_stream_announcements_stream_id',
  signupAnnouncementsStreamId: 'signup_announcements_stream_id',
  updateAnnouncementsStreamId: 'svc_update_announcements_stream_id',
};

/** One requested change: the value as sent (reported back and sent in the event) and what is stored. */
export interface RealmChannelSettingChange {
  key: RealmChannelSettingKey;
  sent: number;
  channelId: number | null;
}

/**
 * What PATCH /realm changes among the channel settings (Zulip's update_realm): a value ≥ 0 names
 * a channel, any negative one disables the setting. A value equal to the stored channel changes
 * nothing; a disabled setting asked to be disabled again is set (and announced) again, as Zulip does.
 */
export function realmChannelSettingChanges(
  current: RealmChannelSettings,
  requested: Partial<Record<RealmChannelSettingKey, number>>,
): RealmChannelSettingChange[] {
  const out: RealmChannelSettingChange[] = [];
  for (const key of Object.keys(REALM_CHANNEL_SETTING_API_NAMES) as RealmChannelSettingKey[]) {
    const sent = requested[key];
    if (sent === undefined) continue;
    if (current[key] !== null && current[key] === sent) continue;
    out.push({ key, sent, channelId: sent >= 0 ? sent : null });
  }
  return out;
}

/** The channels the changes name, which must be active channels of the organization. */
export function assertChannelsExist(changes: readonly RealmChannelSettingChange[], existing: ReadonlySet<number>): void {
  for (const c of changes) if (c.channelId !== null && !existing.has(c.channelId)) throw badRequest('Invalid channel ID');
}

/** The wire value of a stored setting: -1 when disabled. */
export const channelSettingValue = (id: number | null): number => id ?? -1;

/** Zulip's do_set_realm_moderation_request_channel: reports are for moderators' eyes, never a public channel. */
export function assertModerationChannelPrivate(changes: readonly RealmChannelSettingChange[], publicIds: ReadonlySet<number>): void {
  const moderation = changes.find((c) => c.key === 'moderationRequestChannelId');
  if (moderation?.channelId != null && publicIds.has(moderation.channelId)) throw badRequest('Moderation request channel must be private.');
}
