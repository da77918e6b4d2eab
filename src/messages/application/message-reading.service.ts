import {
  assertReadReceiptsEnabled,
  type EditSnapshot,
  extractMentions,
  invalidMessage,
  messageHistory,
  searchFields,
  searchWords,
  topicHistory,
} from '@app/domain/messages';
import { EditHistoryVisibility } from '@app/domain/realm';
import { badRequest } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { MentionResolver } from './mention-resolver.js';
import { RenderTargetsResolver } from './render-targets.resolver.js';
import { accessChannel } from './message-access.js';
import { type Condition, MessageQueries, type NarrowTerm } from './message-queries.js';
import { MessageReadsService } from './message-reads.service.js';
import { HtmlDiffer, MessageRenderer } from './message-renderer.js';
import type { MessageRecord } from './message.ports.js';

/**
 * Reading without changing anything: a channel's topics, who read a message, a message's edit
 * history, which messages match a narrow, a preview rendering. Each is one transaction (or one
 * read), scoped to the actor's organization; what the actor may not read looks like what does
 * not exist.
 */
@Injectable()
export class MessageReadingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: MessageQueries,
    private readonly reads: MessageReadsService,
    private readonly renderer: MessageRenderer,
    private readonly mentions: MentionResolver,
    private readonly renderTargets: RenderTargetsResolver,
    private readonly differ: HtmlDiffer,
  ) {}

  /**
   * GET /users/me/{stream_id}/topics (Zulip's get_topic_history_for_stream): with protected
   * history only the topics of messages the actor received.
   */
  async channelTopics(actor: Actor, channelId: number, allowEmptyTopicName: boolean): Promise<{ name: string; max_id: number }[]> {
    const { channel } = await this.uow.run((tx) => accessChannel(tx, actor, channelId));
    const rowsOf = channel.snapshot().historyPublicToSubscribers ? null : actor.userId;
    return topicHistory(await this.queries.topicVariants(actor.realmId, channelId, rowsOf), allowEmptyTopicName);
  }

  /** GET /messages/{id}/read_receipts: the message must be readable, then the organization must allow receipts. */
  async readReceipts(actor: Actor, messageId: number): Promise<number[]> {
    return this.uow.run(async (tx) => {
      const message = await this.readable(tx, actor, messageId);
      assertReadReceiptsEnabled((await tx.realms.get(actor.realmId)).enableReadReceipts);
      return tx.userMessages.readReceipts(message.id, message.senderId);
    });
  }

  /** GET /messages/{id}/history: the organization's policy first, then access to the message. */
  async editHistory(actor: Actor, messageId: number, allowEmptyTopicName: boolean): Promise<EditSnapshot[]> {
    return this.uow.run(async (tx) => {
      const policy = (await tx.realms.get(actor.realmId)).messageEditHistoryVisibilityPolicy;
      if (policy === EditHistoryVisibility.none) throw badRequest('Message edit history is disabled in this organization');
      const message = await this.readable(tx, actor, messageId);
      return messageHistory(message, policy, allowEmptyTopicName, (before, after) => this.differ.diff(before, after));
    });
  }

  /**
   * GET /messages/matches_narrow (Zulip's messages_in_narrow_backend): of the given messages,
   * those the actor received that match the narrow, with their search fields.
   */
  async matchesNarrow(actor: Actor, ids: readonly number[], narrow: NarrowTerm[]): Promise<Record<string, { match_content: string; match_subject: string }>> {
    const compiled = await this.reads.compile(actor, narrow);
    const matches = await this.queries.matching(actor.realmId, actor.userId, compiled, ids.filter(isStorableId));
    const words = searchWords(compiled.conditions.filter((c): c is Extract<Condition, { kind: 'search' }> => c.kind === 'search'));
    return Object.fromEntries(matches.map((m) => [String(m.id), searchFields(m.renderedContent, m.topic, words)]));
  }

  /** POST /messages/render: the content as a message of the actor would render (mentions resolved). */
  async render(actor: Actor, content: string): Promise<string> {
    return this.uow.run(async (tx) => {
      const resolution = await this.mentions.resolve(tx, actor.realmId, extractMentions(content));
      return this.renderer.render(content, await this.renderTargets.resolve(tx, actor.realmId, actor.userId, content, resolution.targets));
    });
  }

  /** Zulip's access_message (reading): missing, other organizations' and unreadable messages are all "Invalid message(s)". */
  private async readable(tx: Tx, actor: Actor, messageId: number): Promise<MessageRecord> {
    const message = await tx.messages.find(actor.realmId, messageId);
    if (message === null) throw invalidMessage();
    const hasRow = (await tx.userMessages.flags(actor.userId, message.id)) !== null;
    if (!(await this.reads.canRead(tx, actor, message, hasRow))) throw invalidMessage();
    return message;
  }
}
