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

const USER_FIELDS = {
  user_id: int,
  email: str,
  full_name: str,
  is_admin: bool,
  is_owner: bool,
  is_guest: bool,
  is_bot: bool,
  role: { type: 'integer', enum: [100, 200, 300, 400, 600] },
  avatar_url: nullable(str),
  timezone: str,
  date_joined: str,
};
const USER_OPTIONAL = { delivery_email: nullable(str), bot_type: nullable(int), bot_owner_id: nullable(int), profile_data: { type: 'object' } };

/** zulip.yaml's RealmExport (GET /export/realm, `realm_export` events); export_type as feature level 449 names it. */
const REALM_EXPORT = object({
  id: int,
  export_time: { type: 'number' },
  acting_user_id: int,
  export_url: nullable(str),
  deleted_timestamp: nullable({ type: 'number' }),
  failed_timestamp: nullable({ type: 'number' }),
  pending: bool,
  export_type: { type: 'string', enum: ['public', 'full_with_consent', 'full_without_consent'] },
});

/** zulip.yaml's User (GET /users, /users/{user_id}). */
const USER = object({ ...USER_FIELDS, is_active: bool }, USER_OPTIONAL);
/** The users of register's realm_users sections, which Zulip sends without `is_active` (post_process_state). */
const REGISTER_USER = object(USER_FIELDS, USER_OPTIONAL);

/** zulip.yaml's MessagesBase (as `message` events carry it, their flags beside it). */
const MESSAGE_BASE = object(
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
    submessages: arrayOf(object({ id: int, message_id: int, sender_id: int, msg_type: str, content: str })),
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

/** A fetched message: MessagesBase with the reader's flags. */
const MESSAGE: JsonSchema = { allOf: [MESSAGE_BASE, object({ flags: arrayOf(str) })] };

/** An event of GET /events; a `message` event has the message and the reader's flags. */
const EVENT: JsonSchema = {
  allOf: [object({ id: int, type: str })],
  if: { properties: { type: { const: 'message' } } },
  then: object({ message: MESSAGE_BASE, flags: arrayOf(str) }),
};

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

const VERSION = { svc_version: str, svc_merge_base: str, svc_feature_level: int };

const AUTHENTICATION_METHODS = ['password', 'dev', 'email', 'ldap', 'remoteuser', 'github', 'azuread', 'gitlab', 'apple', 'google', 'saml', 'openid connect'];

/**
 * zulip.yaml's get-server-settings answer, closed as it is there (`additionalProperties: false`):
 * the svc_* version fields always, Zulip's zulip_* names too under ZULIP_CLIENT_COMPAT.
 */
const SERVER_SETTINGS: JsonSchema = {
  type: 'object',
  required: [
    'authentication_methods', 'external_authentication_methods', 'push_notifications_enabled', 'is_incompatible', 'email_auth_enabled',
    'require_email_format_usernames', 'realm_url', 'realm_name', 'realm_icon', 'realm_description', 'realm_web_public_access_enabled',
    'svc_version', 'svc_merge_base', 'svc_feature_level',
  ],
  properties: {
    result: {},
    msg: {},
    ignored_parameters_unsupported: {},
    authentication_methods: {
      type: 'object',
      deprecated: true,
      properties: Object.fromEntries(AUTHENTICATION_METHODS.map((m) => [m, bool])),
      additionalProperties: false,
    },
    external_authentication_methods: arrayOf({
      type: 'object',
      required: ['name', 'display_name', 'display_icon', 'login_url', 'signup_url'],
      properties: { name: str, display_name: str, display_icon: nullable(str), login_url: str, signup_url: str },
      additionalProperties: false,
    }),
    svc_version: str,
    svc_merge_base: str,
    svc_feature_level: int,
    zulip_version: str,
    zulip_merge_base: str,
    zulip_feature_level: int,
    push_notifications_enabled: bool,
    is_incompatible: bool,
    email_auth_enabled: bool,
    require_email_format_usernames: bool,
    realm_uri: { type: 'string', deprecated: true },
    realm_url: str,
    realm_name: str,
    realm_icon: str,
    realm_description: str,
    realm_web_public_access_enabled: bool,
  },
  additionalProperties: false,
};

/** zulip.yaml's NavigationView. */
const NAVIGATION_VIEW = object({ fragment: str, is_pinned: bool, name: nullable(str) });
/** zulip.yaml's DefaultChannelGroup: its channels by id. */
const DEFAULT_CHANNEL_GROUP = object({ name: str, id: int, description: str, streams: arrayOf(int) });

/** A redirect to an image (an avatar, the organization's icon or logo), the request's query string appended. */
const IMAGE_REDIRECT: JsonSchema = {
  description: 'Found: the image is at the `Location` header (the request\'s query string appended). No body.',
  headers: { Location: { required: true, schema: str } },
};

/**
 * By `METHOD /openapi/path`: the success fields (envelope routes) or the whole 200 response (raw
 * routes); by `METHOD /openapi/path STATUS`: a route's own answer with an error status.
 */
export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  'POST /api/v1/register': object(
    { queue_id: nullable(str), last_event_id: int, ...VERSION },
    // The sections asked for (fetch_event_types), those with a shape of their own here.
    {
      max_message_id: int,
      realm_users: arrayOf(REGISTER_USER),
      realm_non_active_users: arrayOf(REGISTER_USER),
      cross_realm_bots: arrayOf(REGISTER_USER),
      subscriptions: arrayOf(SUBSCRIPTION),
      unsubscribed: arrayOf(SUBSCRIPTION),
      never_subscribed: arrayOf(object({ stream_id: int, name: str })),
      realm_user_groups: arrayOf(object({ id: int, name: str, members: arrayOf(int), direct_subgroup_ids: arrayOf(int) })),
      realm_linkifiers: arrayOf(object({ id: int, pattern: str, url_template: str })),
      realm_domains: arrayOf(object({ domain: str, allow_subdomains: bool })),
      unread_msgs: object({ count: int, pms: arrayOf({ type: 'object' }), streams: arrayOf({ type: 'object' }), huddles: arrayOf({ type: 'object' }) }),
      recent_private_conversations: arrayOf(object({ max_message_id: int, user_ids: arrayOf(int) })),
      realm_default_stream_groups: arrayOf(DEFAULT_CHANNEL_GROUP),
      navigation_views: arrayOf(NAVIGATION_VIEW),
      realm_user_settings_defaults: object({ emojiset_choices: arrayOf(object({ key: str, text: str })), available_notification_sounds: arrayOf(str) }),
    },
  ),
  'GET /api/v1/navigation_views': object({ navigation_views: arrayOf(NAVIGATION_VIEW) }),
  'POST /api/v1/export/realm': object({ id: int }),
  'GET /api/v1/export/realm': object({ exports: arrayOf(REALM_EXPORT) }),
  'GET /api/v1/export/realm/consents': object({ export_consents: arrayOf(object({ user_id: int, consented: bool, email_address_visibility: int })) }),
  'POST /api/v1/users/me/avatar': object({ avatar_url: str }),
  'DELETE /api/v1/users/me/avatar': object({ avatar_url: str }),
  'GET /avatar/{email_or_id} 302': IMAGE_REDIRECT,
  'GET /avatar/{email_or_id}/medium 302': IMAGE_REDIRECT,
  'POST /api/v1/realm/icon': object({ icon_url: str }),
  'DELETE /api/v1/realm/icon': object({ icon_url: str }),
  'GET /api/v1/realm/icon 302': IMAGE_REDIRECT,
  'GET /api/v1/realm/logo 302': IMAGE_REDIRECT,
  'GET /user_avatars/{realm_id}/{file_name}': { description: 'An uploaded avatar (PNG).', content: { 'image/png': { schema: str } } },
  'GET /user_avatars/{realm_id}/realm/{file_name}': { description: "The organization's uploaded icon or logo (PNG).", content: { 'image/png': { schema: str } } },
  'GET /api/v1/user_uploads/{realm_id}/{bucket}/{key}/{name}': object({ url: str }),
  'GET /user_uploads/thumbnail/{realm_id}/{bucket}/{key}/{name}/{format}': {
    description: 'The thumbnail of an uploaded image (`image/webp` for the server\'s formats).',
    content: { 'image/webp': { schema: str } },
  },
  'GET /api/v1/events': object({ events: arrayOf(EVENT) }, { queue_id: str }),
  'POST /api/v1/messages': object({ id: int }, { automatic_new_visibility_policy: int }),
  'GET /api/v1/messages': object(
    { messages: arrayOf(MESSAGE), found_anchor: bool, found_newest: bool, found_oldest: bool, history_limited: bool },
    { anchor: int },
  ),
  'GET /api/v1/messages/{message_id}': object({ message: MESSAGE, raw_content: str }),
  'GET /api/v1/users/me': object(
    { ...USER_FIELDS, is_active: bool },
    { delivery_email: nullable(str), max_message_id: int, profile_data: { type: 'object' } },
  ),
  'GET /api/v1/users': object({ members: arrayOf(USER) }),
  'GET /api/v1/users/{user_id}': object({ user: USER }),
  'POST /api/v1/users': object({ user_id: int }),
  'GET /api/v1/server_settings': SERVER_SETTINGS,
  'GET /api/v1/users/me/subscriptions': object({ subscriptions: arrayOf(SUBSCRIPTION) }),
  'POST /api/v1/users/me/subscriptions': object(
    { subscribed: { type: 'object', additionalProperties: arrayOf(str) }, already_subscribed: { type: 'object', additionalProperties: arrayOf(str) } },
    { unauthorized: arrayOf(str), new_subscription_messages_sent: bool },
  ),
  'PATCH /api/v1/users/me/subscriptions': object(
    {
      subscribed: { type: 'object', additionalProperties: arrayOf(str) },
      already_subscribed: { type: 'object', additionalProperties: arrayOf(str) },
      removed: arrayOf(str),
      not_removed: arrayOf(str),
    },
    { new_subscription_messages_sent: bool },
  ),
  'GET /api/v1/calls/bigbluebutton/create': object({ url: str }),
  'GET /api/v1/streams': object({ streams: arrayOf(object({ stream_id: int, name: str, description: str, invite_only: bool })) }),
  'GET /api/v1/get_stream_id': object({ stream_id: int }),
  'POST /api/v1/fetch_api_key': object({ api_key: str, email: str, user_id: int }),
  // The web app's login: the session is in the cookies, never the API key in the answer.
  'POST /accounts/login': { ...object({ user_id: int, email: str }), not: { required: ['api_key'] } },
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
