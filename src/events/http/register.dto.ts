import { bool, type Decoder, dict, JsonParam, list, nullable, str } from '../../shared/http/params/index.js';

const optionalBool = { decoder: bool(), optional: true } as const;

/**
 * Zulip's ClientCapabilities: a JSON object of booleans in which notification_settings_null
 * is required (an accident Zulip keeps for compatibility); unknown keys are ignored.
 */
export const clientCapabilities = (): Decoder<Record<string, boolean | undefined>> =>
  dict(
    {
      notification_settings_null: { decoder: bool() },
      bulk_message_deletion: optionalBool,
      user_avatar_url_field_optional: optionalBool,
      stream_typing_notifications: optionalBool,
      linkifier_url_template: optionalBool,
      user_list_incomplete: optionalBool,
      include_deactivated_groups: optionalBool,
      archived_channels: optionalBool,
      empty_topic_name: optionalBool,
      simplified_presence_events: optionalBool,
      user_settings_object: optionalBool,
    },
    { allowExtra: true },
  );

export class RegisterDto {
  @JsonParam(nullable(list(str())), { default: null }) event_types: string[] | null;
  @JsonParam(nullable(list(str())), { default: null }) fetch_event_types: string[] | null;
  @JsonParam(bool(), { default: true }) client_gravatar: boolean;
  @JsonParam(clientCapabilities(), { default: { notification_settings_null: false } })
  client_capabilities: Record<string, boolean | undefined>;
}
