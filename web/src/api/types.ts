/** The server's shapes, as Zulip's API documents them (only the fields the app reads). */

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  content: string;
  timestamp: number;
  subject: string;
  type: 'stream' | 'private';
  stream_id?: number;
  display_recipient: string | DisplayRecipientUser[];
  reactions: Reaction[];
  flags: string[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  match_content?: string;
  match_subject?: string;
  /** Local echo: the text as typed (shown as text until the server's rendering comes). */
  raw?: string;
  /** Local echo: set while the message is only on this page. */
  local_id?: string;
  /** Local echo: the send failed with this error. */
  failed?: string;
  /** Local echo: the id the server gave it (its event may come later, or without local_message_id). */
  sent_id?: number;
}

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  avatar_url: string | null;
  role: number;
  is_bot: boolean;
  is_active?: boolean;
}

export interface Subscription {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
}

export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  is_archived?: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export interface UnreadMsgs {
  count: number;
  pms: { other_user_id?: number; sender_id?: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  old_unreads_missing?: boolean;
}

export interface PresenceInfo {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface RegisterResponse {
  queue_id: string;
  last_event_id: number;
  realm_name?: string;
  realm_users: User[];
  realm_non_active_users?: User[];
  subscriptions: Subscription[];
  streams?: Stream[];
  unread_msgs: UnreadMsgs;
  starred_messages?: number[];
  realm_emoji?: Record<string, RealmEmoji>;
  presences?: Record<string, PresenceInfo>;
  server_timestamp?: number;
  user_settings?: Record<string, unknown>;
  realm_allow_message_editing?: boolean;
  max_message_id?: number;
  [key: string]: unknown;
}

export interface Me {
  user_id: number;
  email: string;
  full_name: string;
  role: number;
  avatar_url: string | null;
}

/** One event of GET /events (loosely typed: the reducer checks the fields it reads). */
export interface ServerEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

export interface FetchMessagesResponse {
  messages: Message[];
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  anchor?: number;
}

/** Roles: owner 100, administrator 200, moderator 300, member 400, guest 600. */
export const ROLE_ADMIN = 200;
