import { invalidChannelId } from '@app/domain/channels';
import { topicNameForRead, VisibilityPolicy } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { userTopicChangeEvents } from '../../channels/index.js';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { accessChannel } from './message-access.js';

/**
 * POST /user_topics (Zulip's update_user_topic): a user's visibility policy for one topic.
 * Setting a policy needs access to the channel; removing one (inherit) only needs the channel to
 * exist in the organization, archived or not. Nothing changes, and nothing is announced, when the
 * policy already is the requested one.
 */
@Injectable()
export class UserTopicsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async updateUserTopic(actor: Actor, channelId: number, topicName: string, policy: number): Promise<void> {
    await this.uow.run(async (tx) => {
      if (policy === VisibilityPolicy.INHERIT) {
        if (!isStorableId(channelId) || (await tx.channels.findById(actor.realmId, channelId)) === null) throw invalidChannelId();
      } else {
        await accessChannel(tx, actor, channelId);
      }
      await changeVisibility(tx, actor.realmId, [actor.userId], { channelId, topic: topicNameForRead(topicName), policy, now: this.clock.now() });
    });
  }
}

/**
 * Zulip's bulk_do_set_user_topic_visibility_policy: stores the policy for these users where it
 * differs, and tells each of them (legacy `muted_topics` list, then `user_topic`).
 */
export async function changeVisibility(
  tx: Tx,
  realmId: number,
  userIds: readonly number[],
  change: { channelId: number; topic: string; policy: number; now: Date },
): Promise<void> {
  const changed = await tx.topicVisibility.change(realmId, userIds, change.channelId, change.topic, change.policy, change.now);
  if (changed.length === 0) return;
  const muted = await tx.channels.mutedTopics(changed);
  tx.afterCommit(changed.flatMap((userId) => userTopicChangeEvents(realmId, userId, muted.get(userId) ?? [], change)));
}
