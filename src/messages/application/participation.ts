import { DEFAULT_AUTOMATIC_VISIBILITY, participationVisibility, reactionMayChangeVisibility, shouldChangeVisibility } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { userTopicEvent } from '../../channels/index.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { MessageForModification } from './message-access.js';

/**
 * Reacting to a message or attaching a submessage is participating (Zulip's do_add_reaction and
 * do_add_submessage): a subscriber's automatic follow / unmute policies "on participation" apply
 * to the topic. Nothing to read when the policies cannot fire.
 */
export async function followTopicOnParticipation(tx: Tx, actor: Actor, target: MessageForModification, now: Date): Promise<void> {
  const m = target.message;
  if (!reactionMayChangeVisibility(m, actor) || target.subscription?.active !== true) return;
  const next = participationVisibility(DEFAULT_AUTOMATIC_VISIBILITY, target.subscription.isMuted);
  if (next === null) return;
  const current = await tx.topicVisibility.policy(actor.userId, m.channelId!, m.topic);
  if (!shouldChangeVisibility(next, current)) return;
  await tx.topicVisibility.set(actor.realmId, [actor.userId], m.channelId!, m.topic, next, now, false);
  tx.afterCommit([userTopicEvent(actor.realmId, actor.userId, m.channelId!, m.topic, next, now)]);
}
