import { pairKey } from '@app/domain/channels';
import {
  assertTopicReadable,
  FLAG_BITS,
  invalidMessage,
  parseFlagChange,
  topicNameForRead,
} from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { loadActorContext } from '../../users/index.js';
import { accessChannel, canAccessMessage, viewerOf } from './message-access.js';
import type { NarrowTerm } from './message-queries.js';
import { MessageReadsService } from './message-reads.service.js';
import { flagsUpdatedEvent, unreadMessageDetails } from './message.events.js';

export interface FlagResult {
  changed: number[];
  ignoredChannels: number[] | null;
}

/** POST /messages/flags and the bulk read endpoints (spec 12). */
@Injectable()
export class MessageFlagsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly reads: MessageReadsService,
    private readonly config: ServerConfig,
  ) {}

  async updateFlags(actor: Actor, messageIds: number[], op: string, flagName: string): Promise<FlagResult> {
    const change = parseFlagChange(flagName, op);
    return this.uow.run((tx) => this.apply(tx, actor, [...new Set(messageIds)], change));
  }

  private async apply(tx: Tx, actor: Actor, ids: number[], change: ReturnType<typeof parseFlagChange>): Promise<FlagResult> {
    const markUnread = change.flag === 'read' && !change.add;
    // Ids beyond PostgreSQL integers name no message: they are never looked up.
    const storable = ids.filter(isStorableId);
    const messages = await tx.messages.findMany(actor.realmId, storable);
    let ignoredChannels: number[] | null = null;
    if (markUnread) {
      // A channel message can be unread only while its reader is subscribed.
      const channelIds = [...new Set([...messages.values()].map((m) => m.channelId).filter((c): c is number => c !== null))];
      const rows = await tx.subscriptions.records([actor.userId], channelIds);
      const unsubscribed = new Set(channelIds.filter((c) => !rows.get(pairKey(actor.userId, c))?.active));
      ignoredChannels = [...unsubscribed];
      ids = ids.filter((id) => {
        const m = messages.get(id);
        return !(m && m.channelId !== null && unsubscribed.has(m.channelId));
      });
    }
    const existing = await tx.userMessages.existingFlags(actor.userId, ids.filter(isStorableId));
    // Without a row a message counts as read + historical: only starring, collapsing and
    // marking unread need a (historical) row, and only for messages the user can read.
    const needsRow = ids.filter((id) => !existing.has(id) && (change.add ? change.flag !== 'read' : change.flag === 'read'));
    if (needsRow.length > 0) {
      const ctx = await loadActorContext(tx, actor);
      const viewer = viewerOf(actor, ctx);
      const channelIds = [...new Set(needsRow.map((id) => messages.get(id)?.channelId).filter((c): c is number => c != null))];
      const subs = await tx.subscriptions.records([actor.userId], channelIds);
      const channels = new Map<number, Awaited<ReturnType<Tx['channels']['findById']>>>();
      for (const c of channelIds) channels.set(c, await tx.channels.findById(actor.realmId, c));
      for (const id of needsRow) {
        const m = messages.get(id);
        const channel = m?.channelId != null ? (channels.get(m.channelId) ?? null) : null;
        const subscribed = m?.channelId != null && subs.get(pairKey(actor.userId, m.channelId))?.active === true;
        if (!m || !canAccessMessage(m, false, channel, viewer, subscribed, false)) throw invalidMessage();
      }
      const base = FLAG_BITS.read;
      const flags = change.add ? base | change.bit : base & ~change.bit;
      await tx.userMessages.insertHistoricalRows(actor.userId, needsRow, flags);
    }
    const updated = await tx.userMessages.setFlag(actor.userId, ids.filter((id) => existing.has(id)), change.bit, change.add);
    const changed = [...updated, ...needsRow].sort((a, b) => a - b);
    const details = markUnread ? await this.messageDetails(tx, actor, changed, messages, existing) : undefined;
    tx.afterCommit([flagsUpdatedEvent(actor.realmId, actor.userId, { flag: change.flag, add: change.add, messages: changed }, details)]);
    return { changed, ignoredChannels };
  }

  /** `message_details` of a `remove read` event (spec 30 §7.4). */
  private async messageDetails(
    tx: Tx,
    actor: Actor,
    ids: number[],
    messages: Awaited<ReturnType<Tx['messages']['findMany']>>,
    flags: Map<number, number>,
  ): Promise<Record<string, Record<string, unknown>>> {
    const directRecipients = [...new Set(ids.map((id) => messages.get(id)!).filter((m) => m.channelId === null).map((m) => m.recipientId))];
    const participants = await tx.conversations.directParticipantsOf(directRecipients);
    return unreadMessageDetails(actor.userId, ids, messages, flags, participants);
  }

  /**
   * POST /mark_all_as_read (Zulip's do_mark_all_as_read): unread rows are marked read in
   * batches, newest first, each batch its own transaction, so no request holds the locks of a
   * million rows. The short batch that ends the work sends Zulip's `update_message_flags` event
   * with `all: true`; each full batch before it sends the ids it marked (Zulip sends nothing for
   * them, so clients that stop at `complete: false` would not hear of rows already committed).
   * Past the time limit it stops after the batch in hand and says it did not finish.
   */
  async markAllAsRead(actor: Actor): Promise<{ complete: boolean }> {
    const started = performance.now();
    const batch = this.config.markAllAsReadBatchSize;
    for (;;) {
      const done = await this.uow.run(async (tx) => {
        const changed = await tx.userMessages.markReadBatch(actor.userId, batch);
        const last = changed.length < batch;
        const marked = last ? { messages: [], all: true } : { messages: changed.toSorted((a, b) => a - b) };
        tx.afterCommit([flagsUpdatedEvent(actor.realmId, actor.userId, { flag: 'read', add: true, ...marked })]);
        return last;
      });
      if (done) return { complete: true };
      if (performance.now() - started >= this.config.markAllAsReadTimeLimitMs) return { complete: false };
    }
  }

  /** POST /mark_stream_as_read (Zulip's do_mark_stream_messages_as_read): no event when nothing was unread. */
  async markChannelAsRead(actor: Actor, channelId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      await accessChannel(tx, actor, channelId);
      this.readEvent(tx, actor, await tx.userMessages.markAllRead(actor.userId, channelId, null));
    });
  }

  /**
   * POST /mark_topic_as_read: "general chat" names the empty topic; a named topic must hold a
   * message the user received.
   */
  async markTopicAsRead(actor: Actor, channelId: number, topicName: string): Promise<void> {
    await this.uow.run(async (tx) => {
      await accessChannel(tx, actor, channelId);
      const topic = topicNameForRead(topicName);
      // As Zulip, only a non-empty name is checked (after "general chat" became the empty topic).
      if (topicName !== '') assertTopicReadable(topic, await tx.userMessages.userHasTopic(actor.userId, channelId, topic));
      this.readEvent(tx, actor, await tx.userMessages.markAllRead(actor.userId, channelId, topic));
    });
  }

  private readEvent(tx: Tx, actor: Actor, ids: number[]): void {
    if (ids.length === 0) return;
    tx.afterCommit([flagsUpdatedEvent(actor.realmId, actor.userId, { flag: 'read', add: true, messages: [...ids].sort((a, b) => a - b) })]);
  }

  /** POST /messages/flags/narrow: the flag change over a range of a narrow (at most 5000 messages). */
  async updateFlagsForNarrow(
    actor: Actor,
    r: { anchor: number | 'newest' | 'oldest' | 'first_unread'; includeAnchor: boolean; numBefore: number; numAfter: number; narrow: NarrowTerm[]; op: string; flag: string },
  ) {
    const change = parseFlagChange(r.flag, r.op);
    const numBefore = Math.min(r.numBefore, 5000);
    const numAfter = Math.min(r.numAfter, 5000 - numBefore);
    const range = await this.reads.fetch(actor, { anchor: r.anchor, numBefore, numAfter, includeAnchor: r.includeAnchor, narrow: r.narrow, messageIds: null });
    if (range.byIds) throw new Error('unreachable');
    const ids = range.messages.map((f) => f.message.id);
    const result = await this.uow.run((tx) => this.apply(tx, actor, ids, change));
    return {
      processedCount: ids.length,
      updatedCount: result.changed.length,
      firstProcessedId: ids[0] ?? null,
      lastProcessedId: ids[ids.length - 1] ?? null,
      foundOldest: range.foundOldest,
      foundNewest: range.foundNewest,
      ignoredChannels: result.ignoredChannels,
    };
  }
}
