import type { JsonSchema } from '../params/decoders.js';

/*
 * The success fields of the main endpoints, after zerver/openapi/zulip.yaml (the brand word
 * `zulip` in field names is `svc` here: svc_version, svc_feature_level). Objects keep
 * `additionalProperties` open, as zulip.yaml does: the listed fields are required and typed,
 * newer ones may be added. A route not listed here is documented with the envelope only.
 */

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const object = (properties: Record<string, JsonSchema>, optional: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  required: Object.keys(properties),
  properties: { ...properties, ...optional },
  additionalProperties: true,
});

/** zulip.yaml's User (GET /users, /users/{user_id}). */
const USER = object(
  {
    user_id: int,
    email: str,
    full_name: str,
    is_admin: bool,
    is_owner: bool,
    is_guest: bool,
    is_bot: bool,
    role: { type: 'integer', enum: [100, 200, 300, 400, 600] },
    is_active: bool,
    avatar_url: nullable(str),
    timezone: str,
    date_joined: str,
  },
  { delivery_email: nullable(str), bot_type: nullable(int), bot_owner_id: nullable(int), profile_data: { type: 'object' } },
);

/** zulip.yaml's MessagesBase with the fetch-only fields (flags). */
const MESSAGE = object(
  {
    id: int,
    sender_id: int,
    content: str,
    recipient_id: int,
    timestamp: int,
    client: str,
    subject: str,
    is_me_message: bool,
    reactions: arrayOf(object({ emoji_name: str, emoji_code: str, reaction_type: str, user_id: int })),
    submessages: arrayOf({ type: 'object' }),
    flags: arrayOf(str),
    sender_full_name: str,
    sender_email: str,
    sender_realm_str: str,
    display_recipient: { anyOf: [str, arrayOf(object({ id: int, email: str, full_name: str }))] },
    type: { type: 'string', enum: ['stream', 'private'] },
    avatar_url: nullable(str),
    content_type: { type: 'string', enum: ['text/html', 'text/x-markdown'] },
  },
  { stream_id: int, topic_links: arrayOf(object({ text: str, url: str })), last_edit_timestamp: int, last_moved_timestamp: int },
);

/** zulip.yaml's Subscription (the fields every client reads). */
const SUBSCRIPTION = object(
  {
    stream_id: int,
    name: str,
    description: str,
    rendered_description: str,
    invite_only: bool,
    is_web_public: bool,
    color: str,
    is_muted: bool,
    pin_to_top: bool,
    date_created: int,
  },
  { desktop_notifications: nullable(bool), email_notifications: nullable(bool), subscribers: arrayOf(int), stream_weekly_traffic: nullable(int) },
);

const VERSION = { svc_version: str, svc_feature_level: int };

/**
 * By `METHOD /openapi/path`: the success fields (envelope routes) or the whole 200 response (raw
 * routes); by `METHOD /openapi/path STATUS`: a route's own answer with an error status.
 */
export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  'POST /api/v1/register': object({ queue_id: nullable(str), last_event_id: int, ...VERSION }),
  'GET /api/v1/events': object({ events: arrayOf(object({ id: int, type: str })) }, { queue_id: str }),
  'POST /api/v1/messages': object({ id: int }, { automatic_new_visibility_policy: int }),
  'GET /api/v1/messages': object(
    { messages: arrayOf(MESSAGE), found_anchor: bool, found_newest: bool, found_oldest: bool, history_limited: bool },
    { anchor: int },
  ),
  'GET /api/v1/messages/{message_id}': object({ message: MESSAGE, raw_content: str }),
  'GET /api/v1/users/me': object(
    {
      user_id: int,
      email: str,
      full_name: str,
      is_admin: bool,
      is_owner: bool,
      is_guest: bool,
      is_bot: bool,
      role: { type: 'integer', enum: [100, 200, 300, 400, 600] },
      is_active: bool,
      avatar_url: nullable(str),
      timezone: str,
      date_joined: str,
    },
    { delivery_email: nullable(str), max_message_id: int, profile_data: { type: 'object' } },
  ),
  'GET /api/v1/users': object({ members: arrayOf(USER) }),
  'GET /api/v1/users/{user_id}': object({ user: USER }),
  'POST /api/v1/users': object({ user_id: int }),
  'GET /api/v1/server_settings': object({
    authentication_methods: { type: 'object', additionalProperties: bool },
    external_authentication_methods: arrayOf({ type: 'object' }),
    push_notifications_enabled: bool,
    is_incompatible: bool,
    email_auth_enabled: bool,
    require_email_format_usernames: bool,
    realm_url: str,
    realm_name: str,
    realm_icon: str,
    realm_description: str,
    ...VERSION,
  }),
  'GET /api/v1/users/me/subscriptions': object({ subscriptions: arrayOf(SUBSCRIPTION) }),
  'POST /api/v1/users/me/subscriptions': object(
    { subscribed: { type: 'object', additionalProperties: arrayOf(str) }, already_subscribed: { type: 'object', additionalProperties: arrayOf(str) } },
    { unauthorized: arrayOf(str), new_subscription_messages_sent: bool },
  ),
  'GET /api/v1/streams': object({ streams: arrayOf(object({ stream_id: int, name: str, description: str, invite_only: bool })) }),
  'GET /api/v1/get_stream_id': object({ stream_id: int }),
  'POST /api/v1/fetch_api_key': object({ api_key: str, email: str, user_id: int }),
  'GET /health': {
    description: 'Ready (200) once the database answers; 503 with the same body otherwise.',
    content: { 'application/json': { schema: object({ status: { type: 'string', enum: ['ok', 'unavailable'] }, details: { type: 'object' } }) } },
  },
  'GET /health 503': {
    description: 'Not ready: the database does not answer.',
    content: { 'application/json': { schema: object({ status: { type: 'string', enum: ['unavailable'] }, details: { type: 'object' } }) } },
  },
  'GET /api/v1/openapi.json': {
    description: 'This document (OpenAPI 3.1).',
    content: { 'application/json': { schema: object({ openapi: str, info: { type: 'object' }, paths: { type: 'object' } }) } },
  },
  'GET /api/docs': { description: 'The reference, readable in a browser (Swagger UI).', content: { 'text/html': { schema: str } } },
  'GET /api/docs/{asset}': {
    description: "A file of the Swagger UI page (script, style sheet, icon).",
    content: { 'text/javascript': { schema: str }, 'text/css': { schema: str }, 'image/png': { schema: str } },
  },
};
