import type { EditHistoryEntry } from './message.js';
import { assertWholeTopicMovable, type PropagateMode } from './message-edit.policy.js';
import type { ResolveChange } from './topic.js';

/** A message of the source topic the mover can access: what propagation and the whole-topic limit read. */
export interface TopicMessage {
  id: number;
  dateSent: Date;
}

/**
 * A decided move of one or more messages of a channel topic (spec 11 §1.3, §1.7). The `Message`
 * aggregate decides it; the repository applies it to every listed row in a constant number of
 * statements (one UPDATE, plus the per-user rows when the channel changes).
 */
export interface TopicMove {
  /** The message the request named. */
  messageId: number;
  from: { channelId: number; topic: string };
  to: { channelId: number; recipientId: number; topic: string };
  propagateMode: PropagateMode;
  /** Every message that moves, the target included: topic order, the target last if it was not listed. */
  messageIds: number[];
  /** Every message of the topic the mover can access moves (user-topic preferences move too). */
  wholeTopic: boolean;
  topicChanged: boolean;
  channelChanged: boolean;
  resolve: ResolveChange;
  /** Prepended to the edit history of every moved message. */
  historyEntry: EditHistoryEntry;
  /** The message whose history already holds the entry (merged with its content entry), or null. */
  historyWrittenFor: number | null;
  /** `last_moved_time` of the moved messages; null for a pure resolve toggle. */
  movedTime: Date | null;
  /** The destination topic had messages before the move. */
  destinationTopicExisted: boolean;
  /** Destination subscribers get (read) rows of the moved messages: its history is protected. */
  destinationHistoryProtected: boolean;
}

/** Which messages a propagate mode moves: the target, the target and later ones, or the whole topic. */
export function propagatedIds(mode: PropagateMode, targetId: number, topicMessages: readonly TopicMessage[]): number[] {
  let ids = [targetId];
  if (mode === 'change_all') ids = topicMessages.map((m) => m.id);
  else if (mode === 'change_later') ids = topicMessages.filter((m) => m.id >= targetId).map((m) => m.id);
  if (!ids.includes(targetId)) ids.push(targetId);
  return ids;
}

export interface TopicMovePlan {
  target: TopicMessage;
  from: TopicMove['from'];
  to: TopicMove['to'];
  propagateMode: PropagateMode;
  topicChanged: boolean;
  channelChanged: boolean;
  resolve: ResolveChange;
  /** The source topic's messages the mover can access, oldest first. */
  topicMessages: readonly TopicMessage[];
  moverIsModeratorOrAbove: boolean;
  limits: { topicSeconds: number | null; channelSeconds: number | null };
  historyEntry: EditHistoryEntry;
  contentEdited: boolean;
  destinationTopicExisted: boolean;
  destinationHistoryProtected: boolean;
}

/**
 * Decides a move: `change_all` by a user below moderator (not a resolve toggle) must fit the
 * whole-topic limit (spec 11 §1.4); then the propagate mode picks the messages.
 */
export function planTopicMove(p: TopicMovePlan, now: Date): TopicMove {
  if (p.propagateMode === 'change_all' && !p.moverIsModeratorOrAbove && p.resolve === null) {
    assertWholeTopicMovable(
      p.topicMessages,
      { topicSeconds: p.limits.topicSeconds, channelSeconds: p.limits.channelSeconds, topicChanged: p.topicChanged, channelChanged: p.channelChanged },
      now,
    );
  }
  const messageIds = propagatedIds(p.propagateMode, p.target.id, p.topicMessages);
  return {
    messageId: p.target.id,
    from: p.from,
    to: p.to,
    propagateMode: p.propagateMode,
    messageIds,
    wholeTopic: messageIds.length === p.topicMessages.length,
    topicChanged: p.topicChanged,
    channelChanged: p.channelChanged,
    resolve: p.resolve,
    historyEntry: p.historyEntry,
    historyWrittenFor: p.contentEdited ? p.target.id : null,
    movedTime: p.resolve === null ? now : null,
    destinationTopicExisted: p.destinationTopicExisted,
    destinationHistoryProtected: p.channelChanged && p.destinationHistoryProtected,
  };
}
