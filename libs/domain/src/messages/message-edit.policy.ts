import { badRequest, DomainError } from '../shared/domain-error.js';

/** Every edit/move limit has a 20 s grace; deletion has none. */
export const EDIT_GRACE_SECONDS = 20;

const ageSeconds = (sent: Date, now: Date): number => (now.getTime() - sent.getTime()) / 1000;

export interface ContentEditFacts {
  allowMessageEditing: boolean;
  isSender: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

/** Content edits: editing on, sender only, within the limit + grace (administrators too). */
export function assertCanEditContent(f: ContentEditFacts, now: Date): void {
  if (!f.allowMessageEditing) throw badRequest('Your organization has turned off message editing');
  if (!f.isSender) throw badRequest("You don't have permission to edit this message");
  if (f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds + EDIT_GRACE_SECONDS) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

export interface TopicMoveFacts {
  isResolveToggle: boolean;
  /** In a can_resolve_topics_group of the realm, source or destination channel. */
  canResolve: boolean;
  /** Realm can_move_messages_between_topics_group, administrator, or a channel grant. */
  canMoveBetweenTopics: boolean;
  isModeratorOrAbove: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

export function assertCanChangeTopic(f: TopicMoveFacts, now: Date): void {
  if (f.isResolveToggle) {
    if (!f.canResolve) throw badRequest("You don't have permission to resolve topics in this channel.");
    return;
  }
  if (!f.canMoveBetweenTopics) throw badRequest("You don't have permission to edit this message");
  if (!f.isModeratorOrAbove && f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds + EDIT_GRACE_SECONDS) {
    throw badRequest("The time limit for editing this message's topic has passed.");
  }
}

export interface ChannelMoveFacts {
  /** Administrator, realm can_move_messages_between_channels_group, source channel administrator or its can_move_messages_out_of_channel_group. */
  canMoveOut: boolean;
  canPostInDestination: boolean;
  isModeratorOrAbove: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

export function assertCanChangeChannel(f: ChannelMoveFacts, now: Date): void {
  if (!f.canMoveOut) throw badRequest("You don't have permission to move this message");
  if (!f.canPostInDestination) throw badRequest('You do not have permission to post in this channel.');
  if (!f.isModeratorOrAbove && f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds + EDIT_GRACE_SECONDS) {
    throw badRequest("The time limit for editing this message's channel has passed");
  }
}

/**
 * The whole-topic limit of `change_all` moves (spec 11 §1.4): the deadline is the smaller of
 * the applicable limits (+ grace); every candidate must be newer than it.
 */
export function assertWholeTopicMovable(
  candidates: readonly { id: number; dateSent: Date }[],
  limits: { topicSeconds: number | null; channelSeconds: number | null; topicChanged: boolean; channelChanged: boolean },
  now: Date,
): void {
  const applicable = [
    limits.topicChanged ? limits.topicSeconds : null,
    limits.channelChanged ? limits.channelSeconds : null,
  ].filter((x): x is number => x !== null);
  if (applicable.length === 0) return;
  const deadline = Math.min(...applicable) + EDIT_GRACE_SECONDS;
  const sorted = [...candidates].sort((a, b) => a.id - b.id);
  const allowed = sorted.filter((m) => ageSeconds(m.dateSent, now) <= deadline);
  if (allowed.length === sorted.length) return;
  throw new DomainError(
    `You only have permission to move the ${allowed.length}/${sorted.length} most recent messages in this topic.`,
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    'invalid',
    {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: sorted.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface DeleteFacts {
  canDeleteAny: boolean;
  /** Sent by the user or by a bot the user owns. */
  ownMessage: boolean;
  canDeleteOwn: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

/** DELETE /messages/{id} (spec 11 §3): no grace period on the delete limit. */
export function assertCanDelete(f: DeleteFacts, now: Date): void {
  if (f.canDeleteAny) return;
  if (!f.ownMessage || !f.canDeleteOwn) throw badRequest("You don't have permission to delete this message");
  if (f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds) {
    throw badRequest('The time limit for deleting this message has passed');
  }
}

export const invalidMessage = () => badRequest('Invalid message(s)');
