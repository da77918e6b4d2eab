import { EMOJISETS, NOTIFICATION_SOUNDS, type RealmUserDefaults, type SettingChange, USER_SETTING_NAMES } from '@app/domain/users';
import { type ClientEvent, toEveryone } from '../../shared/application/client-event.js';

/** POST /register's `realm_user_settings_defaults` (Zulip's fetch_initial_state_data): every default, the emoji sets and the sounds. */
export function presentRealmUserDefaults(d: RealmUserDefaults): Record<string, unknown> {
  return {
    ...Object.fromEntries(USER_SETTING_NAMES.map((n) => [n, d[n]])),
    emojiset_choices: EMOJISETS.map((e) => ({ key: e.key, text: e.text })),
    available_notification_sounds: [...NOTIFICATION_SOUNDS],
  };
}

/** Zulip's do_set_realm_user_default_setting event, one per changed default, for everyone in the organization. */
export const realmUserDefaultEvents = (realmId: number, changes: readonly SettingChange[]): ClientEvent[] =>
  toEveryone(
    realmId,
    changes.map((c) => ({ type: 'realm_user_settings_defaults', op: 'update', property: c.name, value: c.value })),
  );
