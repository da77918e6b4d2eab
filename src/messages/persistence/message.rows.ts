import type { EditHistoryEntry } from '@app/domain/messages';

/**
 * A `messages` row as `SELECT *` (or `m.*`) returns it through node-postgres: serial and int4
 * columns are numbers, timestamptz are Dates, `edit_history` (jsonb) is parsed (null until the
 * first edit or move).
 */
export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: Date;
  sending_client: string;
  last_edit_time: Date | null;
  last_moved_time: Date | null;
  edit_history: EditHistoryEntry[] | null;
  has_attachment: boolean;
  has_submessages: boolean;
}

/** A message of a fetch: its row and the reader's flags (`um.flags AS um_flags`; null for a message the reader holds no row for). */
export interface FetchedMessageRow extends MessageRow {
  um_flags: number | null;
}

/** The `user_id` of a `user_messages` (or `subscriptions`, `user_topics`) row. */
export interface UserIdRow {
  user_id: number;
}

/** The `message_id` of a `user_messages` row. */
export interface MessageIdRow {
  message_id: number;
}

/** A row that is only an `id`. */
export interface IdRow {
  id: number;
}
