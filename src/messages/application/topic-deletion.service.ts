import type { Channel } from '@app/domain/channels';
import {
  actionAudience,
  assertCanDeleteTopic,
  BATCHED_REQUEST_BUDGET_MS,
  canDeleteTopicsInRealm,
  DELETE_TOPIC_BATCH,
  topicNameForRead,
  VisibilityPolicy,
} from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { loadActorContext } from '../../users/index.js';
import { type AccessedChannel, accessChannel, viewerOf } from './message-access.js';
import { firstMessageIdEvent, topicMessagesDeletedEvent } from './message.events.js';
import { changeVisibility } from './user-topics.service.js';

/**
 * POST /streams/{stream_id}/delete_topic (Zulip's delete_in_topic): deletes the topic's messages
 * the actor can read, newest first, in batches that each commit on their own (so a huge topic
 * makes progress even when the request runs out of time and answers `complete: false`); then
 * the users' visibility policies for the topic go, except where protected history still shows
 * them some of its messages.
 */
@Injectable()
export class TopicDeletionService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** `readTopicName` reads the request's `topic_name`; as in Zulip it is read only once the actor's permission is known. */
  async deleteTopic(actor: Actor, channelId: number, readTopicName: () => string): Promise<{ complete: boolean }> {
    const { channel, topic } = await this.uow.run((tx) => this.authorize(tx, actor, channelId, readTopicName));
    const visibleTo = channel.channel.snapshot().historyPublicToSubscribers ? null : actor.userId;
    const started = performance.now();
    for (;;) {
      if (performance.now() - started >= BATCHED_REQUEST_BUDGET_MS) return { complete: false };
      const deleted = await this.uow.run((tx) => this.deleteBatch(tx, actor, channel.channel, topic, visibleTo));
      if (!deleted) break;
    }
    await this.uow.run((tx) => this.dropStalePolicies(tx, actor, channel.channel, topic));
    return { complete: true };
  }

  /**
   * Who may: administrators and the organization's `can_delete_any_message_group` (checked
   * first, as Zulip's require_realm_admin, before any parameter), or the channel's group.
   */
  private async authorize(tx: Tx, actor: Actor, channelId: number, readTopicName: () => string): Promise<{ channel: AccessedChannel; topic: string }> {
    const ctx = await loadActorContext(tx, actor);
    const facts = { deleter: viewerOf(actor, ctx), realmCanDeleteAny: ctx.realmSettings.can_delete_any_message_group };
    if (canDeleteTopicsInRealm(facts)) {
      const topic = topicNameForRead(readTopicName());
      return { channel: await accessChannel(tx, actor, channelId), topic };
    }
    const channel = await accessChannel(tx, actor, channelId).catch(() => null);
    assertCanDeleteTopic({ ...facts, channelCanDeleteAny: channel?.channel.groupSettings.can_delete_any_message_group ?? null });
    return { channel: channel!, topic: topicNameForRead(readTopicName()) };
  }

  /** One batch: lock, tell its audience (and the deleter), delete; false when nothing was left. */
  private async deleteBatch(tx: Tx, actor: Actor, channel: Channel, topic: string, visibleTo: number | null): Promise<boolean> {
    const batch = await tx.messages.lockTopicBatch(channel.id, topic, visibleTo, DELETE_TOPIC_BATCH);
    if (batch.length === 0) return false;
    const ids = batch.map((m) => m.id);
    const candidates = await tx.userMessages.audienceCandidatesOfMany(ids, channel.id);
    const audience = actionAudience({ inviteOnly: channel.inviteOnly, historyPublicToSubscribers: channel.snapshot().historyPublicToSubscribers }, candidates);
    const notify = [...new Set([...audience, actor.userId])].sort((a, b) => a - b);
    const deleted = await tx.messages.deleteMany(ids);
    const first = await tx.messages.refreshChannelFirstMessage(channel.id);
    if (first.changed) tx.afterCommit([firstMessageIdEvent(actor.realmId, channel, first.firstMessageId, notify)]);
    tx.afterCommit([topicMessagesDeletedEvent(actor.realmId, { channelId: channel.id, topic: batch[0].topic, messageIds: deleted }, notify)]);
    return true;
  }

  /** The topic is gone: its visibility policies are dropped, except for users who can still read some of its messages. */
  private async dropStalePolicies(tx: Tx, actor: Actor, channel: Channel, topic: string): Promise<void> {
    let users = await tx.topicVisibility.usersWithPolicy(channel.id, topic);
    if (!channel.snapshot().historyPublicToSubscribers) {
      const stillReading = new Set(await tx.messages.usersWithRowsInTopic(users, channel.id, topic));
      users = users.filter((u) => !stillReading.has(u));
    }
    await changeVisibility(tx, actor.realmId, users, { channelId: channel.id, topic, policy: VisibilityPolicy.INHERIT, now: this.clock.now() });
  }
}
