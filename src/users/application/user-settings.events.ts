import { isUserSettingName, languageName, type SettingChange, USER_SETTINGS } from '@app/domain/users';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { avatarFields, type AvatarFacts } from './user.views.js';

type Payload = ClientEvent['event'];

/** Only for queues whose client did not declare `user_settings_object`. */
const LEGACY = { name: 'user_settings_object', has: false } as const;

const withLanguage = (c: SettingChange, event: Payload): Payload =>
  c.name === 'default_language' ? { ...event, language_name: languageName(String(c.value)) } : event;

/** The `user_settings` update of one setting (Zulip's do_change_user_setting). */
export const userSettingsEvent = (c: SettingChange): Payload =>
  withLanguage(c, { type: 'user_settings', op: 'update', property: c.name, value: c.value });

/** The legacy event carrying a setting older clients know, or null. `user` is the user's API email. */
export function legacySettingEvent(c: SettingChange, user: string): Payload | null {
  const group = c.name === 'timezone' ? 'display' : isUserSettingName(c.name) ? USER_SETTINGS[c.name].legacy : null;
  if (group === 'notification') return { type: 'update_global_notifications', user, notification_name: c.name, setting: c.value };
  if (group === 'display') return withLanguage(c, { type: 'update_display_settings', user, setting_name: c.name, setting: c.value });
  return null;
}

/**
 * What one changed setting tells the user's own queues: the modern event, then the legacy one
 * for clients without user_settings_object; a new time zone also reaches everyone (realm_user).
 */
export function settingChangeEvents(realmId: number, userId: number, email: string, c: SettingChange): ClientEvent[] {
  const out: ClientEvent[] = [{ realmId, event: userSettingsEvent(c), userIds: [userId] }];
  const legacy = legacySettingEvent(c, email);
  if (legacy !== null) out.push({ realmId, event: legacy, userIds: [userId], capability: LEGACY });
  if (c.name === 'timezone') {
    out.push({
      realmId,
      event: { type: 'realm_user', op: 'update', person: { email, user_id: userId, timezone: c.value } },
      userIds: [],
      everyone: true,
    });
  }
  return out;
}

/**
 * target_users: one setting changed for several users. The modern event is the same for all;
 * the legacy one names each user by their own email.
 */
export function bulkSettingEvents(realmId: number, users: readonly { id: number; email: string }[], c: SettingChange): ClientEvent[] {
  if (users.length === 0) return [];
  const ids = users.map((u) => u.id);
  const out: ClientEvent[] = [{ realmId, event: userSettingsEvent(c), userIds: ids }];
  const legacy = legacySettingEvent(c, '');
  if (legacy !== null) {
    const perUser = Object.fromEntries(users.map((u) => [String(u.id), { user: u.email }]));
    out.push({ realmId, event: legacy, userIds: ids, perUser, capability: LEGACY });
  }
  return out;
}

/**
 * Zulip's notify_avatar_url_change: the user's avatar as it is now, for everyone (after an
 * upload or removal, and after an address change, which changes a Gravatar).
 */
export function avatarChangeEvent(realmId: number, userId: number, avatar: AvatarFacts): ClientEvent {
  return {
    realmId,
    event: { type: 'realm_user', op: 'update', person: { ...avatarFields(avatar), user_id: userId } },
    userIds: [],
    everyone: true,
  };
}

/** A realm_user update of one user for some users (or everyone when `userIds` is null). */
export function personUpdate(realmId: number, person: Record<string, unknown>, userIds: readonly number[] | null): ClientEvent[] {
  if (userIds !== null && userIds.length === 0) return [];
  const event = { type: 'realm_user', op: 'update', person };
  return [userIds === null ? { realmId, event, userIds: [], everyone: true } : { realmId, event, userIds }];
}
