import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH } from '@app/domain/realm';
import { groupSettingUpdate } from '../../shared/http/group-setting.decoders.js';
import { bool, int, INT4_MAX, JsonParam, LenientJsonParam, literal, oneOf, PlainParam, str } from '../../shared/http/params/index.js';
import type { GroupSettingUpdate } from '../application/realm-settings.service.js';

/** A number of seconds or days kept in an integer column, or a word such as 'unlimited'. */
const limit = () => oneOf<number | string>(int({ max: INT4_MAX }), str());
const group = () => groupSettingUpdate();
const optional = { optional: true } as const;

/** PATCH /realm: the settings this server supports, in Zulip's (alphabetical) parameter order. */
export class UpdateRealmDto {
  @JsonParam(bool(), optional) allow_message_editing?: boolean;
  @JsonParam(group(), optional) can_access_all_users_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_add_custom_emoji_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_add_subscribers_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_create_bots_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_create_groups?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_create_private_channel_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_create_public_channel_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_create_web_public_channel_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_create_write_only_bots_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_delete_any_message_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_delete_own_message_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_invite_users_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_manage_all_groups?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_manage_billing_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_mention_many_users_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_move_messages_between_channels_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_move_messages_between_topics_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_resolve_topics_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_set_delete_message_policy_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_set_topics_policy_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) can_summarize_topics_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) create_multiuse_invite_group?: GroupSettingUpdate;
  @PlainParam(str({ maxLength: MAX_REALM_DESCRIPTION_LENGTH }), optional) description?: string;
  @JsonParam(group(), optional) direct_message_initiator_group?: GroupSettingUpdate;
  @JsonParam(group(), optional) direct_message_permission_group?: GroupSettingUpdate;
  @JsonParam(bool(), optional) disallow_disposable_email_addresses?: boolean;
  @JsonParam(bool(), optional) emails_restricted_to_domains?: boolean;
  @JsonParam(bool(), optional) enable_read_receipts?: boolean;
  @JsonParam(bool(), optional) enable_spectator_access?: boolean;
  @JsonParam(bool(), optional) invite_required?: boolean;
  @LenientJsonParam(limit(), optional) message_content_delete_limit_seconds?: number | string;
  @LenientJsonParam(limit(), optional) message_content_edit_limit_seconds?: number | string;
  @PlainParam(literal(['all', 'moves', 'none']), optional) message_edit_history_visibility_policy?: 'all' | 'moves' | 'none';
  @LenientJsonParam(limit(), optional) message_retention_days?: number | string;
  @LenientJsonParam(limit(), optional) move_messages_between_streams_limit_seconds?: number | string;
  @JsonParam(int(), optional) moderation_request_channel_id?: number;
  @LenientJsonParam(limit(), optional) move_messages_within_stream_limit_seconds?: number | string;
  @PlainParam(str({ maxLength: MAX_REALM_NAME_LENGTH }), optional) name?: string;
  @JsonParam(int(), optional) new_stream_announcements_stream_id?: number;
  @JsonParam(bool(), optional) send_channel_events_messages?: boolean;
  @JsonParam(int(), optional) signup_announcements_stream_id?: number;
  @JsonParam(int(), optional) svc_update_announcements_stream_id?: number;
  @PlainParam(literal(['allow_empty_topic', 'disable_empty_topic']), optional) topics_policy?: 'allow_empty_topic' | 'disable_empty_topic';
  @JsonParam(int({ min: 0, max: INT4_MAX }), optional) waiting_period_threshold?: number;
  /** Zulip's name for svc_update_announcements_stream_id, which Zulip's clients send. */
  @JsonParam(int(), optional) zulip_update_announcements_stream_id?: number;
}
