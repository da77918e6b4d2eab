import { holds, type Viewer } from '../channels/channel-access.policy.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import { badRequest, DomainError } from '../shared/domain-error.js';
import type { GroupSettingValue } from '../users/group-setting.js';
import { isAdmin } from '../users/role.js';
import { VisibilityPolicy } from './message-send.policy.js';

/**
 * Rules of reading: topic lists, read state in bulk, read receipts, topic visibility policies
 * and deleting a whole topic (Zulip's message_flags.py, streams.py, read_receipts.py,
 * user_topics.py views).
 */

/** The values of a visibility policy (Zulip's UserTopic.VisibilityPolicy): inherit, muted, unmuted, followed. */
export const VISIBILITY_POLICIES: readonly number[] = Object.values(VisibilityPolicy);

/** POST /mark_all_as_read marks unread rows read in batches of this many, newest first. */
export const MARK_ALL_AS_READ_BATCH = 2000;
/** POST /streams/{id}/delete_topic deletes this many messages per transaction, newest first (Zulip's RETENTION_STREAM_MESSAGE_BATCH_SIZE). */
export const DELETE_TOPIC_BATCH = 100;
/** Both stop with `complete: false` once they have run this long (Zulip's 50-second budget). */
export const BATCHED_REQUEST_BUDGET_MS = 50_000;

/**
 * Terms one narrow may have (GET /messages, matches_narrow, POST /messages/flags/narrow, an event
 * queue's narrow). Zulip sets no limit; a client's narrow is a search of a few terms, and every
 * term is a condition of the query, so a long list only costs the server.
 */
export const MAX_NARROW_TERMS = 100;

export const tooManyNarrowTerms = (): DomainError => badRequest(`Too many narrow terms (maximum ${MAX_NARROW_TERMS}).`);

/** Zulip's maybe_rename_general_chat_to_empty_topic: the empty topic's display name means the empty topic. */
export function topicNameForRead(raw: string): string {
  return raw === EMPTY_TOPIC_DISPLAY_NAME ? '' : raw;
}

/** One case variant of a topic as stored: its newest message. */
export interface TopicVariantRow {
  topic: string;
  maxId: number;
}

/**
 * Zulip's generate_topic_history_from_db_rows: topics are case-insensitive, so the variants of
 * one topic become one entry named as its most recent message spells it, with the newest id;
 * newest topic first. Without `allowEmptyTopicName` the empty topic shows as "general chat".
 */
export function topicHistory(rows: readonly TopicVariantRow[], allowEmptyTopicName: boolean): { name: string; max_id: number }[] {
  const canonical = new Map<string, TopicVariantRow>();
  for (const row of [...rows].sort((a, b) => a.maxId - b.maxId)) canonical.set(row.topic.toLowerCase(), row);
  return [...canonical.values()]
    .map((r) => ({ name: r.topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : r.topic, max_id: r.maxId }))
    .sort((a, b) => b.max_id - a.max_id);
}

/** POST /mark_topic_as_read: the topic must hold a message the user received. */
export function assertTopicReadable(topic: string, userHasTopic: boolean): void {
  if (!userHasTopic) throw badRequest(`No such topic '${topic}'`);
}

/** GET /messages/{id}/read_receipts needs the organization's `enable_read_receipts`. */
export function assertReadReceiptsEnabled(enabled: boolean): void {
  if (!enabled) throw badRequest('Read receipts are disabled in this organization.');
}

/** Zulip's OrganizationAdministratorRequiredError. */
export const administratorRequired = (): DomainError => new DomainError('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');

/** Who may delete a topic: the facts the check reads. */
export interface TopicDeletionFacts {
  deleter: Viewer;
  /** The organization's `can_delete_any_message_group`. */
  realmCanDeleteAny: GroupSettingValue;
  /** The channel's `can_delete_any_message_group`, once the channel is known and accessible. */
  channelCanDeleteAny: GroupSettingValue | null;
}

/**
 * Whether the organization-level permission suffices: administrators, and whoever may delete any
 * message in the organization (by default, administrators only; Zulip's require_realm_admin).
 */
export function canDeleteTopicsInRealm(f: Pick<TopicDeletionFacts, 'deleter' | 'realmCanDeleteAny'>): boolean {
  return isAdmin(f.deleter.role) || holds(f.deleter, f.realmCanDeleteAny);
}

/**
 * POST /streams/{id}/delete_topic: the organization-level permission, or the channel's
 * `can_delete_any_message_group`; otherwise Zulip's "Must be an organization administrator".
 */
export function assertCanDeleteTopic(f: TopicDeletionFacts): void {
  if (canDeleteTopicsInRealm(f)) return;
  if (f.channelCanDeleteAny !== null && holds(f.deleter, f.channelCanDeleteAny)) return;
  throw administratorRequired();
}
