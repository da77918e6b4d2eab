import { MAX_NARROW_TERMS, MAX_SUBMESSAGE_LENGTH, tooManyNarrowTerms } from '@app/domain/messages';
import {
  bool,
  type Decoder,
  described,
  int,
  JsonParam,
  LenientJsonParam,
  list,
  literal,
  paramError,
  PlainParam,
  str,
} from '../../shared/http/params/index.js';
import type { NarrowTerm } from '../application/message-queries.js';

/** `to` of a message: a channel id or name, or the recipients' ids or emails (a JSON list). */
const SEND_TO = {
  anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'array', items: { type: 'integer' } }, { type: 'array', items: { type: 'string' } }],
};

export class SendMessageDto {
  @PlainParam(literal(['direct', 'private', 'channel', 'stream'] as const)) type: 'direct' | 'private' | 'channel' | 'stream';
  @LenientJsonParam(described((v) => v, SEND_TO), { optional: true }) to?: unknown;
  @PlainParam(str(), { domainNul: true }) content: string;
  @PlainParam(str(), { optional: true, aliases: ['subject'], domainNul: true }) topic?: string;
  @PlainParam(str(), { optional: true }) queue_id?: string;
  @PlainParam(str(), { optional: true }) local_id?: string;
  @JsonParam(bool(), { optional: true }) read_by_sender?: boolean;
  @PlainParam(str(), { optional: true }) client?: string;
  /** An API programmer's widget (Zulip's undocumented widget_content): JSON, judged by the use case. */
  @PlainParam(str({ maxLength: MAX_SUBMESSAGE_LENGTH }), { optional: true }) widget_content?: string;
}

/** Narrow elements: `[operator, operand]` pairs or `{operator, operand, negated}` objects. */
export const narrowDecoder: Decoder<NarrowTerm[]> = described<Decoder<NarrowTerm[]>>((v, path) => {
  if (!Array.isArray(v)) throw paramError(`${path} is not a list`);
  if (v.length > MAX_NARROW_TERMS) throw tooManyNarrowTerms();
  return v.map((e, i) => {
    if (Array.isArray(e) && e.length === 2 && typeof e[0] === 'string') return { operator: e[0], operand: e[1], negated: false };
    if (typeof e === 'object' && e !== null && !Array.isArray(e) && typeof e.operator === 'string' && 'operand' in e) {
      if (e.negated !== undefined && typeof e.negated !== 'boolean') throw paramError(`${path}[${i}]["negated"] is not a boolean`);
      return { operator: e.operator, operand: e.operand, negated: e.negated === true };
    }
    throw paramError(`Invalid ${path}[${i}]`);
  });
}, {
  type: 'array',
  maxItems: MAX_NARROW_TERMS,
  items: {
    anyOf: [
      { type: 'object', required: ['operator', 'operand'], properties: { operator: { type: 'string' }, operand: {}, negated: { type: 'boolean' } } },
      { type: 'array', prefixItems: [{ type: 'string' }, {}], minItems: 2, maxItems: 2 },
    ],
  },
});

export class GetMessagesDto {
  @PlainParam(str(), { optional: true }) anchor?: string;
  @JsonParam(bool(), { optional: true }) include_anchor?: boolean;
  @JsonParam(int({ min: 0 }), { optional: true }) num_before?: number;
  @JsonParam(int({ min: 0 }), { optional: true }) num_after?: number;
  @JsonParam(narrowDecoder, { default: [] }) narrow: NarrowTerm[];
  @JsonParam(bool(), { default: true }) client_gravatar: boolean;
  @JsonParam(bool(), { default: true }) apply_markdown: boolean;
  @JsonParam(bool(), { optional: true }) use_first_unread_anchor?: boolean;
  @JsonParam(list(int()), { optional: true }) message_ids?: number[];
  @JsonParam(bool(), { default: false }) allow_empty_topic_name: boolean;
}

/** GET /messages/summary: the conversation to summarize. */
export class MessagesSummaryDto {
  @JsonParam(narrowDecoder, { optional: true }) narrow?: NarrowTerm[];
}

export class GetMessageDto {
  @JsonParam(bool(), { default: true }) apply_markdown: boolean;
  @JsonParam(bool(), { default: false }) allow_empty_topic_name: boolean;
}

export class UpdateFlagsDto {
  @JsonParam(list(int())) messages: number[];
  @PlainParam(str()) op: string;
  @PlainParam(str()) flag: string;
}

export class EditMessageDto {
  @PlainParam(str(), { optional: true, aliases: ['subject'], domainNul: true }) topic?: string;
  @JsonParam(int({ min: 0 }), { optional: true }) stream_id?: number;
  @PlainParam(literal(['change_one', 'change_later', 'change_all'] as const), { default: 'change_one' })
  propagate_mode: 'change_one' | 'change_later' | 'change_all';
  @JsonParam(bool(), { default: false }) send_notification_to_old_thread: boolean;
  @JsonParam(bool(), { default: true }) send_notification_to_new_thread: boolean;
  @PlainParam(str(), { optional: true, domainNul: true }) content?: string;
  @PlainParam(str(), { optional: true }) prev_content_sha256?: string;
}

export class AddReactionDto {
  @PlainParam(str()) emoji_name: string;
  @PlainParam(str(), { optional: true }) emoji_code?: string;
  @PlainParam(str(), { optional: true }) reaction_type?: string;
}

export class RemoveReactionDto {
  @PlainParam(str(), { optional: true }) emoji_name?: string;
  @PlainParam(str(), { optional: true }) emoji_code?: string;
  @PlainParam(str(), { default: 'unicode_emoji' }) reaction_type: string;
}
