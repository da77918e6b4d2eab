import { MAX_NARROW_TERMS, tooManyNarrowTerms } from '@app/domain/messages';
import { PlainParam, bool, type Decoder, dict, int, JsonParam, list, nullable, oneOf, literal, paramError, str } from '../../shared/http/params/index.js';

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

const NARROW_OPERATORS = ['channel', 'stream', 'topic', 'sender', 'is'];

/** The queue narrow: `[operator, operand]` string pairs with the operators spec 30 allows. */
export const queueNarrow = (): Decoder<[string, string][]> => (v, path) => {
  if (!Array.isArray(v)) throw paramError(`${path} is not a list`);
  if (v.length > MAX_NARROW_TERMS) throw tooManyNarrowTerms();
  return v.map((e, i) => {
    if (!Array.isArray(e)) throw paramError(`${path}[${i}] is not a list`);
    if (e.length !== 2) throw paramError(`${path}[${i}] does not have the expected length`);
    e.forEach((x, j) => {
      if (typeof x !== 'string') throw paramError(`${path}[${i}][${j}] is not a string`);
    });
    if (!NARROW_OPERATORS.includes(e[0])) throw paramError(`Operator ${e[0]} not supported.`);
    if (e[0] === 'is' && e[1] === 'followed') throw paramError('Operand followed not supported.');
    return [e[0], e[1]] as [string, string];
  });
};

export class RegisterDto {
  @JsonParam(nullable(list(str())), { default: null }) event_types: string[] | null;
  @JsonParam(nullable(list(str())), { default: null }) fetch_event_types: string[] | null;
  @JsonParam(queueNarrow(), { default: [] }) narrow: [string, string][];
  @JsonParam(bool(), { default: false }) apply_markdown: boolean;
  @JsonParam(bool(), { default: true }) client_gravatar: boolean;
  @JsonParam(bool(), { optional: true }) all_public_streams?: boolean;
  @JsonParam(oneOf<boolean | 'partial'>(bool(), literal(['partial'] as const)), { default: false })
  include_subscribers: boolean | 'partial';
  @JsonParam(bool(), { default: false }) slim_presence: boolean;
  @JsonParam(int(), { optional: true }) presence_history_limit_days?: number;
  @JsonParam(clientCapabilities(), { default: { notification_settings_null: false } })
  client_capabilities: Record<string, boolean | undefined>;
  @JsonParam(int({ min: 0 }), { default: 0 }) queue_lifespan_secs: number;
}

export class EventsDto {
  @PlainParam(str(), { optional: true }) queue_id?: string;
  @JsonParam(int(), { optional: true }) last_event_id?: number;
  @JsonParam(bool(), { default: false }) dont_block: boolean;
}

export class DeleteQueueDto {
  @PlainParam(str()) queue_id: string;
}
