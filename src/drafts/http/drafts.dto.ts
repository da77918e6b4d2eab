import {
  DRAFT_TYPES,
  type DraftInput,
  MAX_SAVED_SNIPPET_CONTENT_LENGTH,
  MAX_SAVED_SNIPPET_TITLE_LENGTH,
  SCHEDULED_MESSAGE_TYPES,
  type ScheduledMessageTypeParam,
  snippetText,
} from '@app/domain/drafts';
import { bool, type Decoder, dict, int, JsonFloat, JsonParam, list, literal, paramError, PlainParam, str } from '../../shared/http/params/index.js';

/** pydantic's RequiredStringConstraint: stripped, then not empty. */
const requiredString: Decoder<string> = (v, path) => {
  const s = str()(v, path).trim();
  if (s === '') throw paramError(`${path} cannot be blank`);
  return s;
};

/** `int | float | None` in pydantic's strict mode (a float-looking JSON number is a float). */
const timestamp: Decoder<number | null> = (v, path) => {
  if (v === null) return null;
  if (v instanceof JsonFloat) return v.value;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  throw paramError(`${path}["int"] is not an integer`);
};

const draftFields = dict(
  {
    type: { decoder: literal(DRAFT_TYPES) },
    to: { decoder: list(int()) },
    topic: { decoder: str() },
    content: { decoder: requiredString },
    timestamp: { decoder: timestamp, optional: true },
  },
  {},
);

/** Zulip's DraftData model: strict, unknown keys refused. */
export const draftData: Decoder<DraftInput> = (v, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof JsonFloat) {
    throw paramError(`Invalid ${path}: Input should be a valid dictionary or instance of DraftData`);
  }
  const d = draftFields(v, path);
  return { type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: d.timestamp ?? null };
};

export class CreateDraftsDto {
  @JsonParam(list(draftData), { default: [], domainNul: ['content', 'topic'] }) drafts: DraftInput[];
}

export class EditDraftDto {
  @JsonParam(draftData, { domainNul: ['content', 'topic'] }) draft: DraftInput;
}

/** A saved snippet's title or content: stripped, not blank, not too long. */
const snippetString =
  (maxLength: number): Decoder<string> =>
  (v, path) =>
    snippetText(path, str()(v, path), maxLength);

/** Zulip declares content before title: a request missing both reports content. */
export class CreateSavedSnippetDto {
  @PlainParam(snippetString(MAX_SAVED_SNIPPET_CONTENT_LENGTH)) content: string;
  @PlainParam(snippetString(MAX_SAVED_SNIPPET_TITLE_LENGTH)) title: string;
}

export class EditSavedSnippetDto {
  @PlainParam(snippetString(MAX_SAVED_SNIPPET_CONTENT_LENGTH), { optional: true }) content?: string;
  @PlainParam(snippetString(MAX_SAVED_SNIPPET_TITLE_LENGTH), { optional: true }) title?: string;
}

/** POST /reminders (Zulip's create_reminders_message_backend). */
export class CreateReminderDto {
  @JsonParam(int()) message_id: number;
  @JsonParam(int()) scheduled_delivery_timestamp: number;
  @PlainParam(str(), { optional: true, domainNul: true }) note?: string;
}

/** `to` of scheduled messages, Json[int | list[int]]: pydantic reports the `int` alternative when neither fits. */
const scheduledTo: Decoder<number | number[]> = (v, path) => {
  const isInt = (e: unknown): e is number => typeof e === 'number' && Number.isSafeInteger(e);
  if (isInt(v)) return v;
  if (Array.isArray(v) && v.every(isInt)) return v;
  throw paramError(`${path}["int"] is not an integer`);
};

/** POST /scheduled_messages (Zulip's create_scheduled_message_backend, in its parameter order). */
export class CreateScheduledMessageDto {
  @PlainParam(str(), { domainNul: true }) content: string;
  @JsonParam(bool(), { optional: true }) read_by_sender?: boolean;
  @JsonParam(scheduledTo) to: number | number[];
  @PlainParam(literal(SCHEDULED_MESSAGE_TYPES)) type: ScheduledMessageTypeParam;
  @JsonParam(int()) scheduled_delivery_timestamp: number;
  @PlainParam(str(), { optional: true, aliases: ['subject'], domainNul: true }) topic?: string;
  /** The client name, as for POST /messages (else the User-Agent's). */
  @PlainParam(str(), { optional: true }) client?: string;
}

/** PATCH /scheduled_messages/{id} (Zulip's update_scheduled_message_backend, in its parameter order). */
export class EditScheduledMessageDto {
  @PlainParam(str(), { optional: true, domainNul: true }) content?: string;
  @PlainParam(literal(SCHEDULED_MESSAGE_TYPES), { optional: true }) type?: ScheduledMessageTypeParam;
  @JsonParam(int(), { optional: true }) scheduled_delivery_timestamp?: number;
  @JsonParam(scheduledTo, { optional: true }) to?: number | number[];
  @PlainParam(str(), { optional: true, aliases: ['subject'], domainNul: true }) topic?: string;
  @PlainParam(str(), { optional: true }) client?: string;
}
