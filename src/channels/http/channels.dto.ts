import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName, isValidColor, MAX_CHANNEL_DESCRIPTION_LENGTH, TOPICS_POLICIES, type TopicsPolicy } from '@app/domain/channels';
import type { GroupSettingValue } from '@app/domain/users';
import { groupSettingUpdate, groupSettingValue } from '../../shared/http/group-setting.decoders.js';
import {
  bool,
  type Decoder,
  described,
  dict,
  int,
  INT4_MAX,
  JsonParam,
  LenientJsonParam,
  list,
  literal,
  MaxChars,
  nullable,
  oneOf,
  paramError,
  PlainParam,
  str,
} from '../../shared/http/params/index.js';

/** Zulip types principals as list[str] | list[int]: all emails or all ids. */
export const principals = (): Decoder<number[] | string[]> =>
  described<Decoder<number[] | string[]>>((v, path) => {
  if (!Array.isArray(v)) throw paramError(`${path}["list[str]"] is not a list`);
  if (v.every((e) => typeof e === 'number' && Number.isSafeInteger(e))) return v as number[];
  const bad = v.findIndex((e) => typeof e !== 'string');
  if (bad >= 0) throw paramError(`${path}["list[str]"][${bad}] is not a string`);
  return v as string[];
}, { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'array', items: { type: 'string' } }] });

export const subscriptionItem = described<Decoder<{ name: string; color?: string; description?: string }>>((v, path) => {
  const d = dict(
    {
      name: { decoder: str() },
      color: { decoder: str(), optional: true },
      description: { decoder: str({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }), optional: true },
    },
    { allowExtra: true },
  )(v, path);
  if (d.color !== undefined && !isValidColor(d.color)) {
    throw paramError(`Invalid ${path}: Value error, add.color is not a valid hex color code`);
  }
  return d;
}, {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, color: { type: 'string' }, description: { type: 'string', maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH } },
});

/** Days kept in an integer column, or 'unlimited' / 'realm_default'. */
const retention = () => oneOf<string | number>(int({ max: INT4_MAX }), str());

/** The 11 channel permission settings as plain values (creation). */
abstract class ChannelSettingValues {
  @JsonParam(groupSettingValue(), { optional: true }) can_add_subscribers_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_administer_channel_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_create_topic_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_delete_any_message_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_delete_own_message_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_move_messages_out_of_channel_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_move_messages_within_channel_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_remove_subscribers_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_resolve_topics_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_send_message_group?: GroupSettingValue;
  @JsonParam(groupSettingValue(), { optional: true }) can_subscribe_group?: GroupSettingValue;
}

export function settingValuesOf(dto: object): Partial<Record<ChannelGroupSettingName, GroupSettingValue>> {
  const d = dto as Record<string, GroupSettingValue | undefined>;
  return Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.filter((s) => d[s] !== undefined).map((s) => [s, d[s]]));
}

export class SubscribeDto extends ChannelSettingValues {
  @JsonParam(list(subscriptionItem), { domainNul: ['name'] }) subscriptions: { name: string; color?: string; description?: string }[];
  @JsonParam(principals(), { default: null }) principals: number[] | string[] | null;
  @JsonParam(bool(), { default: true }) authorization_errors_fatal: boolean;
  @JsonParam(bool(), { default: false }) invite_only: boolean;
  @JsonParam(bool(), { default: false }) is_web_public: boolean;
  @JsonParam(bool(), { default: false }) is_default_stream: boolean;
  @JsonParam(bool(), { optional: true }) history_public_to_subscribers?: boolean;
  @LenientJsonParam(retention(), { default: 'realm_default' }) message_retention_days: string | number;
  @JsonParam(literal(TOPICS_POLICIES), { optional: true }) topics_policy?: TopicsPolicy;
  @JsonParam(nullable(int()), { optional: true }) folder_id?: number | null;
  @JsonParam(bool(), { default: true }) send_new_subscription_messages: boolean;
  @JsonParam(bool(), { default: false }) announce: boolean;
}

export class CreateChannelDto extends ChannelSettingValues {
  @PlainParam(str({ notBlank: true }), { domainNul: true }) name: string;
  @JsonParam(list(int())) subscribers: number[];
  @PlainParam(str(), { default: '' }) @MaxChars(MAX_CHANNEL_DESCRIPTION_LENGTH) description: string;
  @JsonParam(bool(), { default: false }) invite_only: boolean;
  @JsonParam(bool(), { default: false }) is_web_public: boolean;
  @JsonParam(bool(), { default: false }) is_default_stream: boolean;
  @JsonParam(nullable(bool()), { optional: true }) history_public_to_subscribers?: boolean | null;
  @LenientJsonParam(retention(), { default: 'realm_default' }) message_retention_days: string | number;
  @JsonParam(nullable(int()), { optional: true }) folder_id?: number | null;
  @JsonParam(literal(TOPICS_POLICIES), { optional: true }) topics_policy?: TopicsPolicy;
  @JsonParam(bool(), { default: false }) announce: boolean;
}

/** PATCH /users/me/subscriptions: Zulip's parameter order (delete, then add) decides which error comes first. */
export class UpdateSubscriptionsDto {
  @JsonParam(list(str()), { optional: true, domainNul: true }) delete?: string[];
  @JsonParam(list(subscriptionItem), { optional: true, domainNul: ['name'] }) add?: { name: string; color?: string; description?: string }[];
}

export class UnsubscribeDto {
  @JsonParam(list(str()), { domainNul: true }) subscriptions: string[];
  @JsonParam(principals(), { default: null }) principals: number[] | string[] | null;
}

export class UpdateChannelDto {
  @PlainParam(str(), { optional: true }) @MaxChars(MAX_CHANNEL_DESCRIPTION_LENGTH) description?: string;
  @PlainParam(str(), { optional: true, domainNul: true }) new_name?: string;
  @JsonParam(bool(), { optional: true }) is_private?: boolean;
  @JsonParam(bool(), { optional: true }) is_web_public?: boolean;
  @JsonParam(bool(), { optional: true }) history_public_to_subscribers?: boolean;
  @JsonParam(bool(), { optional: true }) is_default_stream?: boolean;
  @LenientJsonParam(retention(), { optional: true }) message_retention_days?: string | number;
  @JsonParam(bool(), { optional: true }) is_archived?: boolean;
  @JsonParam(nullable(int()), { optional: true }) folder_id?: number | null;
  @PlainParam(literal(TOPICS_POLICIES), { optional: true }) topics_policy?: TopicsPolicy;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_add_subscribers_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_administer_channel_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_create_topic_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_delete_any_message_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_delete_own_message_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_move_messages_out_of_channel_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_move_messages_within_channel_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_remove_subscribers_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_resolve_topics_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_send_message_group?: SettingUpdate;
  @JsonParam(groupSettingUpdate(), { optional: true }) can_subscribe_group?: SettingUpdate;
}
type SettingUpdate = { new: GroupSettingValue; old?: GroupSettingValue };

export class SubscriptionPropertiesDto {
  @JsonParam(list(dict({ stream_id: { decoder: int() }, property: { decoder: str() }, value: { decoder: (v) => v } })))
  subscription_data: { stream_id: number; property: string; value: unknown }[];
}

export class SubscriptionPropertyDto {
  @PlainParam(str()) property: string;
  @LenientJsonParam((v) => v) value: unknown;
}

export class MutedTopicDto {
  @JsonParam(int(), { optional: true }) stream_id?: number;
  @PlainParam(str(), { optional: true }) stream?: string;
  @PlainParam(str()) @MaxChars(60) topic: string;
  @PlainParam(literal(['add', 'remove'] as const)) op: 'add' | 'remove';
}

export class StreamsDto {
  @JsonParam(bool(), { default: true }) include_public: boolean;
  @JsonParam(bool(), { default: false }) include_web_public: boolean;
  @JsonParam(bool(), { default: true }) include_subscribed: boolean;
  @JsonParam(bool(), { default: true }) exclude_archived: boolean;
  @JsonParam(bool(), { default: false }) include_all: boolean;
  @JsonParam(bool(), { default: false }) include_all_active: boolean;
  @JsonParam(bool(), { default: false }) include_default: boolean;
  @JsonParam(bool(), { default: false }) include_owner_subscribed: boolean;
  @JsonParam(bool(), { default: false }) include_can_access_content: boolean;
}

export class SubscriptionsDto {
  @JsonParam(oneOf<boolean | 'partial'>(bool(), literal(['partial'] as const)), { default: false })
  include_subscribers: boolean | 'partial';
}

/** POST and DELETE /default_streams. */
export class DefaultStreamDto {
  @JsonParam(int()) stream_id: number;
}

export class StreamIdDto {
  @PlainParam(str()) stream: string;
}

export class EmailAddressDto {
  @JsonParam(int({ min: 0 }), { optional: true }) sender_id?: number;
}

export class CreateFolderDto {
  @PlainParam(str(), { domainNul: true }) @MaxChars(60) name: string;
  @PlainParam(str()) @MaxChars(1024) description: string;
}

export class UpdateFolderDto {
  @PlainParam(str(), { optional: true, domainNul: true }) @MaxChars(60) name?: string;
  @PlainParam(str(), { optional: true }) @MaxChars(1024) description?: string;
  @JsonParam(bool(), { optional: true }) is_archived?: boolean;
}

export class ReorderFoldersDto {
  @JsonParam(list(int())) order: number[];
}

export class FoldersDto {
  @JsonParam(bool(), { default: false }) include_archived: boolean;
}
