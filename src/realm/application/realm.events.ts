import {
  EditHistoryVisibility,
  REALM_CHANNEL_SETTING_API_NAMES,
  REALM_PROPERTY_API_NAMES,
  type RealmChannelSettingChange,
  type RealmGroupSettingName,
  type RealmProperties,
  type RealmPropertyName,
  RealmTopicsPolicy,
} from '@app/domain/realm';
import type { GroupSettingValue } from '@app/domain/users';
import type { ClientEvent } from '../../shared/application/client-event.js';
import type { LinkifierRecord, PlaygroundRecord } from './realm.ports.js';
import { presentLinkifier, presentPlayground } from './realm-resources.views.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';

type Payload = ClientEvent['event'];

const nameOf = (table: Record<string, number>, value: number): string =>
  Object.entries(table).find(([, v]) => v === value)?.[0] ?? String(value);

/**
 * The order in which Zulip's update_realm emits property events: the time limits first (each
 * parsed and set on its own), then the other properties in its parameter order, the retention
 * period (a local variable) last.
 */
const EVENT_ORDER: readonly RealmPropertyName[] = [
  'messageContentDeleteLimitSeconds',
  'messageContentEditLimitSeconds',
  'moveMessagesWithinStreamLimitSeconds',
  'moveMessagesBetweenStreamsLimitSeconds',
  'allowMessageEditing',
  'description',
  'disallowDisposableEmailAddresses',
  'emailsRestrictedToDomains',
  'enableReadReceipts',
  'enableSpectatorAccess',
  'inviteRequired',
  'messageEditHistoryVisibilityPolicy',
  'name',
  'sendChannelEventsMessages',
  'topicsPolicy',
  'waitingPeriodThreshold',
  'messageRetentionDays',
];

/**
 * Zulip's do_set_realm_property event for one changed property: `update` with the value, except
 * the message editing settings (`update_dict` `default`), the edit history policy (by name) and
 * the topics policy (`update_dict` by name, with `mandatory_topics`).
 */
export function realmPropertyEvent<K extends RealmPropertyName>(key: K, value: RealmProperties[K]): Payload {
  const property = REALM_PROPERTY_API_NAMES[key];
  switch (key) {
    case 'allowMessageEditing':
    case 'messageContentEditLimitSeconds':
      return { type: 'realm', op: 'update_dict', property: 'default', data: { [property]: value } };
    case 'messageEditHistoryVisibilityPolicy':
      return { type: 'realm', op: 'update', property, value: nameOf(EditHistoryVisibility, value as number) };
    case 'topicsPolicy':
      return {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { [property]: nameOf(RealmTopicsPolicy, value as number), mandatory_topics: value === RealmTopicsPolicy.disable_empty_topic },
      };
    default:
      return { type: 'realm', op: 'update', property, value };
  }
}

/** The events of one PATCH /realm: a property event per changed property, then one per changed group setting. */
export function realmSettingsEvents(
  changes: Partial<RealmProperties>,
  groupSettings: Partial<Record<RealmGroupSettingName, GroupSettingValue>>,
  channelSettings: Record<string, number> = {},
): Payload[] {
  const events: Payload[] = [];
  for (const key of EVENT_ORDER) {
    if (changes[key] !== undefined) events.push(realmPropertyEvent(key, changes[key]));
  }
  for (const [name, value] of Object.entries(groupSettings) as [RealmGroupSettingName, GroupSettingValue][]) {
    events.push({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: presentGroupSetting(value) } });
  }
  for (const [property, value] of Object.entries(channelSettings)) events.push({ type: 'realm', op: 'update', property, value });
  return events;
}

export const linkifiersEvent = (list: readonly LinkifierRecord[]): Payload => ({
  type: 'realm_linkifiers',
  realm_linkifiers: list.map(presentLinkifier),
});

export const playgroundsEvent = (list: readonly PlaygroundRecord[]): Payload => ({
  type: 'realm_playgrounds',
  realm_playgrounds: list.map(presentPlayground),
});

/** One ClientEvent per payload, all to the same users, in order. */

/**
 * The channel settings PATCH /realm changed, by API name with the value as sent (Zulip reports
 * and announces the request's value, so -5 stays -5). Under ZULIP_CLIENT_COMPAT the server-update
 * channel is also reported under Zulip's name.
 */
export function reportedChannelSettings(changes: readonly RealmChannelSettingChange[], zulipClientCompat: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of changes) {
    const name = REALM_CHANNEL_SETTING_API_NAMES[c.key];
    out[name] = c.sent;
    if (zulipClientCompat && c.key === 'updateAnnouncementsStreamId') out['zulip_update_announcements_stream_id'] = c.sent;
  }
  return out;
}
