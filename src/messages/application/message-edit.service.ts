import { createHash } from 'node:crypto';
import { type Channel, hasContentAccess, holds, isChannelAdministrator } from '@app/domain/channels';
import {
  assertCanChangeChannel,
  assertCanChangeTopic,
  assertCanDelete,
  assertCanEditContent,
  assertCanUseTopic,
  assertCanUseWildcards,
  assertTopicAllowed,
  assertWholeTopicMovable,
  checkEditTopic,
  effectiveTopicsPolicy,
  extractMentions,
  flagsToApi,
  invalidMessage,
  isMeMessage,
  isWidget,
  normaliseEditedContent,
  parseTopicForEdit,
  type PropagateMode,
  referencedUploadPaths,
  resolveChange,
  RESOLVED_TOPIC_PREFIX,
} from '@app/domain/messages';
import { EMPTY_TOPIC_DISPLAY_NAME, RealmTopicsPolicy } from '@app/domain/realm';
import { badRequest } from '@app/domain/shared';
import { type Actor, expectationMismatch, isAdmin, isGuest, isModeratorOrAbove, SystemGroup } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { pairKey, streamUpdateEvents, userTopicEvent } from '../../channels/index.js';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { type ActorContext, loadActorContext } from '../../users/index.js';
import { canAccessMessage } from './message-access.js';
import type { AttachmentRecord, EditHistoryEntry, MessageRecord } from './message.ports.js';
import { MessageRenderer } from './message-renderer.js';
import { MessageSendService, viewerOf } from './message-send.service.js';

export interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  prevContentSha256?: string;
}

const RESOLVE_NOTICE_GRACE_SECONDS = 60;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Zulip's hash encoding of narrow URLs (encodeURIComponent with `%` → `.`). */
const hashEncode = (s: string) => encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.');

/** PATCH and DELETE /messages/{id} (spec 11). */
@Injectable()
export class MessageEditService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly sender: MessageSendService,
    private readonly renderer: MessageRenderer,
  ) {}

  private async loadForModification(tx: Tx, actor: Actor, ctx: ActorContext, messageId: number): Promise<{ m: MessageRecord; channel: Channel | null }> {
    const m = await tx.messages.find(actor.realmId, messageId, true);
    if (m === null) throw invalidMessage();
    const hasRow = (await tx.messages.userMessageFlags(actor.userId, m.id)) !== null;
    const channel = m.channelId === null ? null : await tx.channels.findById(actor.realmId, m.channelId);
    const subscribed =
      m.channelId !== null && (await tx.channels.subscriptionRows([actor.userId], [m.channelId])).get(pairKey(actor.userId, m.channelId))?.active === true;
    if (!canAccessMessage(m, hasRow, channel, viewerOf(actor, ctx), subscribed, true)) throw invalidMessage();
    return { m, channel };
  }

  async editMessage(actor: Actor, messageId: number, req: EditRequest): Promise<AttachmentRecord[]> {
    return this.uow.run(async (tx) => {
      const ctx = await loadActorContext(actor, tx.realms, tx.groups);
      const viewer = viewerOf(actor, ctx);
      const realm = ctx.realm;
      const now = this.clock.now();
      const { m, channel: source } = await this.loadForModification(tx, actor, ctx, messageId);

      if (req.content !== undefined) {
        assertCanEditContent(
          { allowMessageEditing: realm.allowMessageEditing, isSender: m.senderId === actor.userId, limitSeconds: realm.messageContentEditLimitSeconds, dateSent: m.dateSent },
          now,
        );
      }
      let requestedTopic = req.topic === undefined ? undefined : parseTopicForEdit(req.topic);
      if (requestedTopic !== undefined && requestedTopic === m.topic) requestedTopic = undefined;
      let streamId = req.streamId;
      if (streamId !== undefined && streamId === m.channelId) streamId = undefined;

      if (req.content === undefined && requestedTopic === undefined && streamId === undefined) throw badRequest('Nothing to change');
      if (m.channelId === null && streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
      if (m.channelId === null && requestedTopic !== undefined) throw badRequest('Direct messages cannot have topics.');
      if (req.propagateMode !== 'change_one' && requestedTopic === undefined && streamId === undefined) {
        throw badRequest('Invalid propagate_mode without topic edit');
      }
      if (requestedTopic !== undefined && (requestedTopic === '✔' || requestedTopic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_DISPLAY_NAME}`)) {
        throw badRequest('General chat cannot be marked as resolved');
      }
      const resolve = requestedTopic !== undefined ? resolveChange(m.topic, requestedTopic) : null;
      const newTopic = requestedTopic !== undefined ? checkEditTopic(requestedTopic) : undefined;
      if (req.content !== undefined && req.streamId !== undefined) throw badRequest('Cannot change message content while changing channel');
      if (req.content !== undefined && isWidget(m.content)) throw badRequest('Widgets cannot be edited.');
      if (req.prevContentSha256 !== undefined && req.prevContentSha256 !== sha256(m.content)) throw expectationMismatch('prev_content_sha256');

      const content = req.content === undefined ? undefined : normaliseEditedContent(req.content);
      let destination: Channel | null = source;
      if (streamId !== undefined) {
        destination = await tx.channels.findById(actor.realmId, streamId);
        const sub = destination ? (await tx.channels.subscriptionRows([actor.userId], [streamId])).get(pairKey(actor.userId, streamId)) : undefined;
        if (destination === null || destination.isArchived || !hasContentAccess(destination, viewer, sub?.active === true)) {
          throw badRequest('Invalid channel ID');
        }
      }
      const targetTopic = newTopic ?? m.topic;
      const moved = newTopic !== undefined || streamId !== undefined;
      if (moved && destination !== null) {
        const realmPolicy = realm.topicsPolicy === RealmTopicsPolicy.disable_empty_topic ? 'disable_empty_topic' : 'allow_empty_topic';
        assertTopicAllowed(targetTopic, effectiveTopicsPolicy(destination.snapshot().topicsPolicy, realmPolicy));
      }
      const realmHolds = (s: string) => holds(viewer, ctx.realmSettings[s]);
      const channels = [source, streamId !== undefined ? destination : null].filter((c): c is Channel => c !== null);
      if (newTopic !== undefined) {
        assertCanChangeTopic(
          {
            isResolveToggle: resolve !== null,
            canResolve: realmHolds('can_resolve_topics_group') || channels.some((c) => holds(viewer, c.groupSettings.can_resolve_topics_group)),
            canMoveBetweenTopics:
              realmHolds('can_move_messages_between_topics_group') ||
              isAdmin(actor.role) ||
              channels.some(
                (c) => holds(viewer, c.groupSettings.can_administer_channel_group) || holds(viewer, c.groupSettings.can_move_messages_within_channel_group),
              ),
            isModeratorOrAbove: isModeratorOrAbove(actor.role),
            limitSeconds: realm.moveMessagesWithinStreamLimitSeconds,
            dateSent: m.dateSent,
          },
          now,
        );
      }

      let rendered: string | undefined;
      let mentionFlags: Awaited<ReturnType<MessageSendService['resolveMentions']>> | undefined;
      if (content !== undefined) {
        const mentions = extractMentions(content);
        mentionFlags = await this.sender.resolveMentions(tx, actor, viewer, mentions);
        if (source !== null) {
          const facts = await tx.messages.topicFacts(source.id, m.topic);
          assertCanUseWildcards({
            streamWildcard: mentions.streamWildcard,
            topicWildcard: mentions.topicWildcard,
            activeSubscribers: mentions.streamWildcard ? await tx.messages.activeSubscriberCount(source.id) : 0,
            topicParticipants: new Set([...facts.participants, m.senderId]).size,
            canMentionManyUsers: realmHolds('can_mention_many_users_group'),
          });
        }
        rendered = this.renderer.render(content, mentionFlags.targets);
      }

      if (streamId !== undefined && source !== null && destination !== null) {
        assertCanChangeChannel(
          {
            canMoveOut:
              isAdmin(actor.role) ||
              realmHolds('can_move_messages_between_channels_group') ||
              isChannelAdministrator(source, viewer) ||
              holds(viewer, source.groupSettings.can_move_messages_out_of_channel_group),
            canPostInDestination: holds(viewer, destination.groupSettings.can_send_message_group),
            isModeratorOrAbove: isModeratorOrAbove(actor.role),
            limitSeconds: realm.moveMessagesBetweenStreamsLimitSeconds,
            dateSent: m.dateSent,
          },
          now,
        );
      }

      // Which messages move: only those the user can access (protected history hides the rest).
      let ids = [m.id];
      let topicMessages: { id: number; dateSent: Date }[] = [];
      if (moved && source !== null) {
        const visibleTo = source.snapshot().historyPublicToSubscribers ? null : actor.userId;
        topicMessages = await tx.messages.topicMessages(source.id, m.topic, visibleTo);
        if (req.propagateMode === 'change_all' && !isModeratorOrAbove(actor.role) && resolve === null) {
          assertWholeTopicMovable(
            topicMessages,
            {
              topicSeconds: realm.moveMessagesWithinStreamLimitSeconds,
              channelSeconds: realm.moveMessagesBetweenStreamsLimitSeconds,
              topicChanged: newTopic !== undefined,
              channelChanged: streamId !== undefined,
            },
            now,
          );
        }
        if (req.propagateMode === 'change_all') ids = topicMessages.map((x) => x.id);
        else if (req.propagateMode === 'change_later') ids = topicMessages.filter((x) => x.id >= m.id).map((x) => x.id);
        if (!ids.includes(m.id)) ids.push(m.id);
      }
      const destinationTopicExisted = moved && destination !== null ? (await tx.messages.topicFacts(destination.id, targetTopic)).exists : false;
      if (moved && resolve === null && destination !== null && !destinationTopicExisted) {
        const everyone = ctx.systemGroups.get(SystemGroup.EVERYONE);
        const topicGroup = destination.groupSettings.can_create_topic_group;
        assertCanUseTopic(false, topicGroup === everyone || holds(viewer, topicGroup));
      }

      // Apply: history entries, content, move, flags, attachments, notices.
      const entry: EditHistoryEntry = { user_id: actor.userId, timestamp: seconds(now) };
      if (newTopic !== undefined) Object.assign(entry, { prev_topic: m.topic, topic: newTopic });
      if (streamId !== undefined) Object.assign(entry, { prev_stream: m.channelId!, stream: streamId });
      let detached: AttachmentRecord[] = [];
      if (content !== undefined) {
        const contentEntry: EditHistoryEntry = { ...entry, prev_content: m.content, prev_rendered_content: m.renderedContent };
        detached = await this.updateAttachments(tx, actor, m, content);
        const hasAttachment = (await tx.messages.attachmentsOfMessage(m.id)).length > 0;
        await tx.messages.updateContent(m.id, content, rendered!, now, [contentEntry, ...m.editHistory], hasAttachment);
        await tx.messages.updateMentionFlags(m.id, {
          senderId: m.senderId,
          senderRead: true,
          mentioned: mentionFlags!.mentionedUsers,
          streamWildcard: extractMentions(content).streamWildcard,
          topicWildcardUsers: [],
        });
      }
      let dropped: number[] = [];
      if (moved && destination !== null && source !== null) {
        const recipientId = await tx.messages.channelRecipient(actor.realmId, destination.id);
        const movedTime = resolve === null ? now : null;
        const others = content !== undefined ? ids.filter((id) => id !== m.id) : ids;
        await tx.messages.move(others, { channelId: destination.id, recipientId, topic: targetTopic }, entry, movedTime);
        if (content !== undefined) await tx.messages.move([m.id], { channelId: destination.id, recipientId, topic: targetTopic }, null, movedTime);
        if (streamId !== undefined) {
          dropped = await tx.messages.dropRowsOfNonSubscribers(ids, destination.id);
          if (!destination.snapshot().historyPublicToSubscribers) await tx.messages.addRowsForSubscribers(ids, destination.id);
          await tx.messages.markChannelFirstMessage(destination.id, Math.min(...ids));
        }
        const wholeTopic = ids.length === topicMessages.length;
        let visibility: Awaited<ReturnType<Tx['messages']['moveTopicVisibility']>> | null = null;
        if (wholeTopic) {
          visibility = await tx.messages.moveTopicVisibility({ channelId: source.id, topic: m.topic }, { channelId: destination.id, topic: targetTopic });
        }
        await this.publishUpdate(tx, actor, { m, source, destination, ids, dropped, content, rendered, newTopic, streamId, propagateMode: req.propagateMode, now });
        if (streamId !== undefined) {
          await this.firstMessageChanged(tx, actor.realmId, source);
          await this.firstMessageChanged(tx, actor.realmId, destination);
        }
        if (visibility !== null) {
          tx.afterCommit([
            ...visibility.removed.map((u) => userTopicEvent(actor.realmId, u, source.id, m.topic, 0, now)),
            ...visibility.set.map((r) => userTopicEvent(actor.realmId, r.userId, destination.id, targetTopic, r.policy, r.lastUpdated)),
          ]);
        }
        await this.notices(tx, actor, {
          source,
          destination,
          oldTopic: m.topic,
          newTopic: targetTopic,
          resolve,
          movedIds: ids,
          wholeTopic,
          destinationHadMessages: destinationTopicExisted,
          notifyOld: req.notifyOldThread,
          notifyNew: req.notifyNewThread,
          channelChanged: streamId !== undefined,
          now,
        });
      } else {
        await this.publishUpdate(tx, actor, { m, source, destination, ids, dropped, content, rendered, newTopic, streamId, propagateMode: req.propagateMode, now });
      }
      return detached;
    });
  }

  /** A `stream` update of `first_message_id` when messages leaving or entering changed it (spec 30 §7.3). */
  private async firstMessageChanged(tx: Tx, realmId: number, channel: Channel): Promise<void> {
    const r = await tx.messages.refreshChannelFirstMessage(channel.id);
    if (r.changed) {
      tx.afterCommit(await streamUpdateEvents(tx, realmId, channel.id, channel.name, [{ property: 'first_message_id', value: r.firstMessageId }]));
    }
  }

  /** The `update_message` event (spec 30 §7.2), and `delete_message` for users a move locks out. */
  private async publishUpdate(
    tx: Tx,
    actor: Actor,
    u: {
      m: MessageRecord;
      source: Channel | null;
      destination: Channel | null;
      ids: number[];
      dropped: number[];
      content: string | undefined;
      rendered: string | undefined;
      newTopic: string | undefined;
      streamId: number | undefined;
      propagateMode: PropagateMode;
      now: Date;
    },
  ): Promise<void> {
    const { m, source, destination } = u;
    const event: Record<string, unknown> & { type: string } = {
      type: 'update_message',
      user_id: actor.userId,
      edit_timestamp: seconds(u.now),
      message_id: m.id,
      message_ids: [...u.ids].sort((a, b) => a - b),
      rendering_only: false,
    };
    if (u.content !== undefined) {
      Object.assign(event, {
        orig_content: m.content,
        orig_rendered_content: m.renderedContent,
        content: u.content,
        rendered_content: u.rendered,
        is_me_message: isMeMessage(u.content),
      });
    }
    if (source !== null) Object.assign(event, { stream_id: source.id, stream_name: source.name });
    if (u.newTopic !== undefined || u.streamId !== undefined) {
      Object.assign(event, { propagate_mode: u.propagateMode, orig_subject: m.topic });
      if (u.newTopic !== undefined) Object.assign(event, { subject: u.newTopic, topic_links: [] });
      if (u.streamId !== undefined) event.new_stream_id = u.streamId;
    }
    const flags = new Map((await tx.messages.readers(m.id)).map((r) => [r.userId, flagsToApi(r.flags)]));
    let losers = new Set<number>();
    if (source !== null && destination !== null) {
      if (u.streamId !== undefined && u.dropped.length > 0) {
        const privateDestination = destination.snapshot().inviteOnly;
        const users = await tx.users.findManyByIds(actor.realmId, u.dropped);
        losers = new Set(u.dropped.filter((id) => privateDestination || (users.has(id) && isGuest(users.get(id)!.role))));
      }
      if (source.snapshot().historyPublicToSubscribers) {
        const extra = [...(await tx.messages.activeSubscribers(destination.id))];
        if (u.streamId !== undefined) extra.push(...(await tx.messages.activeSubscribers(source.id)));
        for (const id of extra) if (!flags.has(id) && !losers.has(id)) flags.set(id, ['read']);
      }
      for (const id of u.dropped) if (!losers.has(id) && !flags.has(id)) flags.set(id, ['read']);
    }
    const events: ClientEvent[] = [
      { realmId: actor.realmId, event, userIds: [...flags.keys()], perUser: Object.fromEntries([...flags].map(([id, f]) => [String(id), { flags: f }])) },
    ];
    if (losers.size > 0) {
      events.push({
        realmId: actor.realmId,
        event: { type: 'delete_message', message_ids: event.message_ids as number[], message_type: 'stream', stream_id: source!.id, topic: m.topic },
        userIds: [...losers],
      });
    }
    tx.afterCommit(events);
  }

  /** Relinks the message's uploads after a content edit; returns the editor's now-orphaned ones. */
  private async updateAttachments(tx: Tx, actor: Actor, m: MessageRecord, content: string): Promise<AttachmentRecord[]> {
    const before = await tx.messages.attachmentsOfMessage(m.id);
    const referenced = new Set(referencedUploadPaths(content));
    const unlinked = before.filter((a) => !referenced.has(a.pathId));
    await tx.messages.unlinkAttachments(m.id, unlinked.map((a) => a.id));
    await tx.messages.linkAttachments(m.id, await this.sender.attachmentsToClaim(tx, actor, content));
    const after = await tx.messages.attachmentsByPath(actor.realmId, unlinked.map((a) => a.pathId));
    return after.filter((a) => a.ownerId === actor.userId && a.messageIds.length === 0);
  }

  private async notices(
    tx: Tx,
    actor: Actor,
    n: {
      source: Channel;
      destination: Channel;
      oldTopic: string;
      newTopic: string;
      resolve: 'resolve' | 'unresolve' | null;
      movedIds: number[];
      wholeTopic: boolean;
      destinationHadMessages: boolean;
      notifyOld: boolean;
      notifyNew: boolean;
      channelChanged: boolean;
      now: Date;
    },
  ): Promise<void> {
    const me = (await tx.users.findById(actor.realmId, actor.userId))!;
    const user = `@_**${me.fullName}|${me.id}**`;
    const users = [{ id: me.id, fullName: me.fullName }];
    const loc = (c: Channel, topic: string) => `#**${c.name}>${topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic}**`;
    if (n.resolve !== null && !n.channelChanged) {
      const text = `${user} has marked this topic as ${n.resolve === 'resolve' ? 'resolved' : 'unresolved'}.`;
      const last = await tx.messages.lastTopicMessage(n.destination.id, n.newTopic);
      const bot = await tx.users.systemBot(actor.realmId, 'notification-bot');
      const isToggleNotice = (x: MessageRecord) => x.senderId === bot.id && /has marked this topic as (un)?resolved\.$/.test(x.content);
      if (last && isToggleNotice(last) && (n.now.getTime() - last.dateSent.getTime()) / 1000 < RESOLVE_NOTICE_GRACE_SECONDS) {
        await tx.messages.delete(last.id); // undoing within a minute removes the notice instead
        return;
      }
      await this.sender.postNotice(tx, actor.realmId, n.destination.id, n.newTopic, text, actor.userId, users);
      return;
    }
    const count = n.movedIds.length;
    if (n.notifyOld) {
      const text = n.wholeTopic
        ? `This topic was moved to ${loc(n.destination, n.newTopic)} by ${user}.`
        : count === 1
          ? `A message was moved from this topic to ${loc(n.destination, n.newTopic)} by ${user}.`
          : `${count} messages were moved from this topic to ${loc(n.destination, n.newTopic)} by ${user}.`;
      await this.sender.postNotice(tx, actor.realmId, n.source.id, n.oldTopic, text, actor.userId, users);
    }
    if (n.notifyNew && (n.channelChanged || n.resolve === null)) {
      const slug = n.destination.name.replace(/ /g, '-');
      const link = `#narrow/channel/${n.destination.id}-${hashEncode(slug)}/topic/${hashEncode(n.newTopic)}/near/${n.movedIds[0]}`;
      const text =
        n.wholeTopic && !n.destinationHadMessages
          ? `This topic was moved here from ${loc(n.source, n.oldTopic)} by ${user}.`
          : count === 1
            ? `[A message](${link}) was moved here from ${loc(n.source, n.oldTopic)} by ${user}.`
            : `${count} messages were moved here from ${loc(n.source, n.oldTopic)} by ${user}.`;
      await this.sender.postNotice(tx, actor.realmId, n.destination.id, n.newTopic, text, actor.userId, users);
    }
  }

  /** DELETE /messages/{id} (spec 11 §3). */
  async deleteMessage(actor: Actor, messageId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const ctx = await loadActorContext(actor, tx.realms, tx.groups);
      const viewer = viewerOf(actor, ctx);
      const { m, channel } = await this.loadForModification(tx, actor, ctx, messageId);
      const sender = await tx.users.findById(actor.realmId, m.senderId);
      const realmHolds = (s: string) => holds(viewer, ctx.realmSettings[s]);
      assertCanDelete(
        {
          canDeleteAny: realmHolds('can_delete_any_message_group') || (channel !== null && holds(viewer, channel.groupSettings.can_delete_any_message_group)),
          ownMessage: m.senderId === actor.userId || (sender?.isBot === true && sender.botOwnerId === actor.userId),
          canDeleteOwn: realmHolds('can_delete_own_message_group') || (channel !== null && holds(viewer, channel.groupSettings.can_delete_own_message_group)),
          limitSeconds: ctx.realm.messageContentDeleteLimitSeconds,
          dateSent: m.dateSent,
        },
        this.clock.now(),
      );
      const readers = (await tx.messages.readers(m.id)).map((r) => r.userId);
      const subscribers = channel !== null && channel.snapshot().historyPublicToSubscribers ? await tx.messages.activeSubscribers(channel.id) : [];
      if (!(await tx.messages.delete(m.id))) throw badRequest('Message already deleted');
      const event: Record<string, unknown> & { type: string } = { type: 'delete_message', message_ids: [m.id], message_type: channel ? 'stream' : 'private' };
      if (channel !== null) Object.assign(event, { stream_id: channel.id, topic: m.topic });
      tx.afterCommit([{ realmId: actor.realmId, event, userIds: [...new Set([...readers, ...subscribers])] }]);
      if (channel !== null) await this.firstMessageChanged(tx, actor.realmId, channel);
    });
  }
}
