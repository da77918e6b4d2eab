import type { Viewer } from '@app/domain/channels';
import { CustomEmojiCatalog, normaliseReactionType } from '@app/domain/emoji';
import {
  actionAudience,
  type EmojiLookups,
  FLAG_BITS,
  MessageReactions,
  type ReactionEvent,
  type ReactionRemoval,
  type ReactionRequest,
} from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { EmojiCatalog } from '../../emoji/index.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { loadForModification, type MessageForModification } from './message-access.js';
import { followTopicOnParticipation } from './participation.js';
import { reactionEvent } from './message.events.js';

/** POST and DELETE /messages/{id}/reactions (Zulip's zerver/views/reactions.py), one transaction each. */
@Injectable()
export class MessageReactionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly emoji: EmojiCatalog,
    private readonly config: ServerConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Zulip's check_add_reaction: the message must be readable and not in an archived channel;
   * reacting to a message the user has no row for (a public channel's history) first gives them
   * a historical, read row, so the message stays theirs like a starred one.
   */
  async addReaction(actor: Actor, messageId: number, req: ReactionRequest): Promise<void> {
    await this.uow.run(async (tx) => {
      const target = await loadForModification(tx, actor, messageId, () => this.viewer(tx, actor));
      const reactions = await tx.reactions.ofMessage(target.message.snapshot());
      const reactionType = this.readType(req.reactionType);
      const reaction = reactions.add(actor.userId, { ...req, reactionType }, await this.lookups(tx, actor, true));
      if (!target.hasRow) await tx.userMessages.insertHistoricalRows(actor.userId, [messageId], FLAG_BITS.read);
      await tx.reactions.insert(actor.realmId, messageId, reaction);
      await followTopicOnParticipation(tx, actor, target, this.clock.now());
      await this.publish(tx, actor, target, reactions.pullEvents());
    });
  }

  /**
   * Zulip's remove_reaction: the same access check; the reaction is found by code and type
   * (a name is looked up only when no code is sent) and is not checked against today's emoji.
   */
  async removeReaction(actor: Actor, messageId: number, req: ReactionRemoval): Promise<void> {
    await this.uow.run(async (tx) => {
      const target = await loadForModification(tx, actor, messageId, () => this.viewer(tx, actor));
      const reactions = await tx.reactions.ofMessage(target.message.snapshot());
      const removal = { ...req, reactionType: this.readType(req.reactionType) };
      const removed = reactions.remove(actor.userId, removal, await this.lookups(tx, actor, MessageReactions.removalNeedsLookup(removal)));
      await tx.reactions.delete(messageId, removed);
      await this.publish(tx, actor, target, reactions.pullEvents());
    });
  }

  /** Zulip's clients name the extra emoji's type zulip_extra_emoji (ZULIP_CLIENT_COMPAT). */
  private readType<T extends string | undefined>(type: T): T {
    return (this.config.zulipClientCompat ? normaliseReactionType(type) : type) as T;
  }

  private async viewer(tx: Tx, actor: Actor): Promise<Viewer> {
    return { userId: actor.userId, role: actor.role, groupIds: await tx.groups.groupIdsOfUser(actor.userId) };
  }

  /** The emoji tables; the organization's custom emoji are read only when they can matter. */
  private async lookups(tx: Tx, actor: Actor, needed: boolean): Promise<EmojiLookups> {
    const custom = needed ? new CustomEmojiCatalog(await tx.realmEmoji.customEmoji(actor.realmId)) : CustomEmojiCatalog.EMPTY;
    return { custom, unicode: this.emoji.unicode() };
  }

  /** `reaction` events for the users who can see the message (Zulip's event_recipient_ids_for_action_on_messages). */
  private async publish(tx: Tx, actor: Actor, target: MessageForModification, events: ReactionEvent[]): Promise<void> {
    const { message, channel } = target;
    const audience = actionAudience(
      channel === null ? null : { inviteOnly: channel.inviteOnly, historyPublicToSubscribers: channel.snapshot().historyPublicToSubscribers },
      await tx.userMessages.audienceCandidates(message.id, message.channelId),
    );
    const me = (await tx.users.findById(actor.realmId, actor.userId))!;
    tx.afterCommit(events.map((e) => reactionEvent(actor.realmId, e, { id: me.id, email: me.email, fullName: me.fullName }, audience)));
  }
}
