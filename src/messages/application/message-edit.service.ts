import { pairKey } from '@app/domain/channels';
import { createHash } from 'node:crypto';
import type { Channel } from '@app/domain/channels';
import {
  type EditFacts,
  extractMentions,
  flagsToApi,
  type MentionFlags,
  isResolveNoticeMove,
  type Message,
  type MessageEdit,
  type MessageEvent,
  moveNotices,
  type PropagateMode,
  type RealmMessageRules,
  resolveNotice,
  type TopicMove,
  undoesResolveNotice,
} from '@app/domain/messages';
import { badRequest } from '@app/domain/shared';
import { type Actor, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { streamUpdateEvents } from '../../channels/index.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { type ActorContext, loadActorContext } from '../../users/index.js';
import { relinkAttachments } from './attachment-claims.js';
import { loadForModification, realmMessageRules, viewerOf } from './message-access.js';
import { messageDeletedEvents, messageUpdateEvents, topicVisibilityMovedEvents } from './message.events.js';
import type { AttachmentRecord } from './message.ports.js';
import { MessageRenderer } from './message-renderer.js';
import { MentionResolver } from './mention-resolver.js';
import { RenderTargetsResolver } from './render-targets.resolver.js';
import { NotificationBot } from './notification-bot.js';

export interface EditMessageRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  prevContentSha256?: string;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** PATCH and DELETE /messages/{id} (spec 11): load, let the Message decide, store, publish. */
@Injectable()
export class MessageEditService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly renderer: MessageRenderer,
    private readonly mentions: MentionResolver,
    private readonly renderTargets: RenderTargetsResolver,
    private readonly bot: NotificationBot,
  ) {}

  async editMessage(actor: Actor, messageId: number, req: EditMessageRequest): Promise<AttachmentRecord[]> {
    return this.uow.run(async (tx) => {
      const ctx = await loadActorContext(tx, actor);
      const rules = realmMessageRules(ctx);
      const now = this.clock.now();
      const { message, channel: source } = await this.loadForModification(tx, actor, ctx, messageId);
      const prevContentMatches = req.prevContentSha256 === undefined ? undefined : req.prevContentSha256 === sha256(message.content);
      const edit = message.requestEdit(
        { content: req.content, topic: req.topic, channelId: req.streamId, propagateMode: req.propagateMode, prevContentMatches },
        actor.userId,
        rules,
        now,
      );
      const facts = await this.editFacts(tx, actor, ctx, rules, message, source, edit);
      const move = message.edit(edit, facts, now);
      const recorded = message.pullEvents();
      const contentEdited = recorded.find((e) => e.type === 'content_edited');
      const detached = contentEdited ? await this.saveContent(tx, actor, message, contentEdited.mentionFlags) : [];
      const destination = facts.destination?.channel ?? source;
      const dropped = move !== null ? (await tx.messages.move(move)).dropped : [];
      const visibility = move?.wholeTopic ? await tx.topicVisibility.moveWithTopic(move.from, move.to) : null;
      await this.publishUpdate(tx, actor, message, { recorded, source, destination, move, dropped, now });
      if (move !== null) {
        if (move.channelChanged) {
          await this.firstMessageChanged(tx, actor.realmId, source!);
          await this.firstMessageChanged(tx, actor.realmId, destination!);
        }
        if (visibility !== null) tx.afterCommit(topicVisibilityMovedEvents(actor.realmId, move, visibility, now));
        await this.postMoveNotices(tx, actor, move, { source: source!, destination: destination!, req, now });
      }
      return detached;
    });
  }

  /** The message with a row lock, if the actor can access it for modification (missing and invisible look the same). */
  private async loadForModification(tx: Tx, actor: Actor, ctx: ActorContext, messageId: number): Promise<{ message: Message; channel: Channel | null }> {
    return loadForModification(tx, actor, messageId, () => viewerOf(actor, ctx));
  }

  /** Fetches what the edit needs: the destination, the content's mentions and rendering, the topics' facts. */
  private async editFacts(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    rules: RealmMessageRules,
    message: Message,
    source: Channel | null,
    edit: MessageEdit,
  ): Promise<EditFacts> {
    const facts: EditFacts = { editor: viewerOf(actor, ctx), realm: rules, source };
    if (edit.channelId !== undefined) facts.destination = await this.destination(tx, actor, edit.channelId);
    if (edit.content !== undefined) {
      const resolution = await this.mentions.resolve(tx, actor.realmId, extractMentions(edit.content));
      facts.mentions = resolution.mentions;
      if (source !== null) {
        const participants = (await tx.messages.topicFacts(source.id, message.topic)).participants;
        const wildcard = resolution.mentions.syntax.streamWildcard;
        facts.sourceTopic = { participants, activeSubscribers: wildcard ? await tx.conversations.activeSubscriberCount(source.id) : 0 };
      }
      const targets = await this.renderTargets.resolve(tx, actor.realmId, actor.userId, edit.content, resolution.targets);
      facts.renderedContent = this.renderer.render(edit.content, targets);
    }
    const destination = edit.channelId !== undefined ? (facts.destination?.channel ?? null) : source;
    if (edit.moves && source !== null && destination !== null) {
      // Only messages the user can access move (protected history hides the rest).
      const visibleTo = source.snapshot().historyPublicToSubscribers ? null : actor.userId;
      facts.topicMessages = await tx.messages.topicMessages(source.id, message.topic, visibleTo);
      facts.destinationTopicExists = (await tx.messages.topicFacts(destination.id, edit.topic ?? message.topic)).exists;
    }
    return facts;
  }

  private async destination(tx: Tx, actor: Actor, channelId: number): Promise<NonNullable<EditFacts['destination']>> {
    const channel = await tx.channels.findById(actor.realmId, channelId);
    if (channel === null) return { channel, subscribed: false, recipientId: 0 };
    const sub = (await tx.subscriptions.records([actor.userId], [channelId])).get(pairKey(actor.userId, channelId));
    return { channel, subscribed: sub?.active === true, recipientId: await tx.conversations.channelRecipient(actor.realmId, channelId) };
  }

  /** Relinks uploads, stores the content and re-evaluates the recipients' mention flags; returns the detached uploads. */
  private async saveContent(tx: Tx, actor: Actor, message: Message, mentionFlags: MentionFlags): Promise<AttachmentRecord[]> {
    const detached = await relinkAttachments(tx, actor, message.id, message.content);
    await tx.messages.saveContent(message);
    await tx.userMessages.updateMentionFlags(message.id, mentionFlags);
    return detached;
  }

  /** A `stream` update of `first_message_id` when messages leaving or entering changed it (spec 30 §7.3). */
  private async firstMessageChanged(tx: Tx, realmId: number, channel: Channel): Promise<void> {
    const r = await tx.messages.refreshChannelFirstMessage(channel.id);
    if (r.changed) {
      tx.afterCommit(await streamUpdateEvents(tx, realmId, channel.id, channel.name, [{ property: 'first_message_id', value: r.firstMessageId }]));
    }
  }

  /**
   * Queues `update_message` for the message's readers (and, for channels with public history,
   * the subscribers of both channels), `delete_message` for those a move locks out.
   */
  private async publishUpdate(
    tx: Tx,
    actor: Actor,
    message: Message,
    u: {
      recorded: readonly MessageEvent[];
      source: Channel | null;
      destination: Channel | null;
      move: TopicMove | null;
      dropped: readonly number[];
      now: Date;
    },
  ): Promise<void> {
    const { source, destination, dropped } = u;
    const flags = new Map((await tx.userMessages.readers(message.id)).map((r) => [r.userId, flagsToApi(r.flags)]));
    let losers = new Set<number>();
    if (source !== null && destination !== null) {
      const channelChanged = u.move?.channelChanged === true;
      if (channelChanged && dropped.length > 0) {
        const users = await tx.users.findManyByIds(actor.realmId, dropped);
        losers = new Set(dropped.filter((id) => destination.inviteOnly || (users.has(id) && isGuest(users.get(id)!.role))));
      }
      if (source.snapshot().historyPublicToSubscribers) {
        const extra = [...(await tx.conversations.activeSubscribers(destination.id))];
        if (channelChanged) extra.push(...(await tx.conversations.activeSubscribers(source.id)));
        for (const id of extra) if (!flags.has(id) && !losers.has(id)) flags.set(id, ['read']);
      }
      for (const id of dropped) if (!losers.has(id) && !flags.has(id)) flags.set(id, ['read']);
    }
    tx.afterCommit(
      messageUpdateEvents({
        realmId: actor.realmId,
        editorId: actor.userId,
        editedAt: u.now,
        message,
        recorded: u.recorded,
        source: source === null ? null : { id: source.id, name: source.name },
        flags,
        losers,
      }),
    );
  }

  /** Resolve notices (or the undo of a recent one), else the move notices of spec 11 §1.6. */
  private async postMoveNotices(
    tx: Tx,
    actor: Actor,
    move: TopicMove,
    n: { source: Channel; destination: Channel; req: EditMessageRequest; now: Date },
  ): Promise<void> {
    const me = (await tx.users.findById(actor.realmId, actor.userId))!;
    const mover = { id: me.id, fullName: me.fullName };
    if (isResolveNoticeMove(move)) {
      const last = await tx.messages.lastTopicMessage(move.to.channelId, move.to.topic);
      const bot = await tx.users.systemBot(actor.realmId, 'notification-bot');
      if (last !== null && undoesResolveNotice(last, bot.id, n.now)) {
        await tx.messages.delete(last.id); // undoing within a minute removes the notice instead
        return;
      }
      await this.bot.postChannelNotice(tx, actor.realmId, resolveNotice(move, mover), actor.userId, [mover], n.now);
      return;
    }
    const notices = moveNotices(move, {
      mover,
      source: { id: n.source.id, name: n.source.name },
      destination: { id: n.destination.id, name: n.destination.name },
      notifyOldThread: n.req.notifyOldThread,
      notifyNewThread: n.req.notifyNewThread,
    });
    for (const notice of notices) await this.bot.postChannelNotice(tx, actor.realmId, notice, actor.userId, [mover], n.now);
  }

  /** DELETE /messages/{id} (spec 11 §3). */
  async deleteMessage(actor: Actor, messageId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const ctx = await loadActorContext(tx, actor);
      const { message, channel } = await this.loadForModification(tx, actor, ctx, messageId);
      const sender = await tx.users.findById(actor.realmId, message.senderId);
      const sentByOwnBot = sender?.isBot === true && sender.botOwnerId === actor.userId;
      message.delete(viewerOf(actor, ctx), realmMessageRules(ctx), channel, sentByOwnBot, this.clock.now());
      const readers = (await tx.userMessages.readers(message.id)).map((r) => r.userId);
      const subscribers = channel !== null && channel.snapshot().historyPublicToSubscribers ? await tx.conversations.activeSubscribers(channel.id) : [];
      if (!(await tx.messages.delete(message.id))) throw badRequest('Message already deleted');
      tx.afterCommit(messageDeletedEvents(actor.realmId, message.pullEvents(), [...new Set([...readers, ...subscribers])]));
      if (channel !== null) await this.firstMessageChanged(tx, actor.realmId, channel);
    });
  }
}
