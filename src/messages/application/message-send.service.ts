import { type Channel, holds, type Viewer } from '@app/domain/channels';
import {
  assertCanPostToChannel,
  assertCanSendDirectMessage,
  assertCanUseTopic,
  assertCanUseWildcards,
  assertTopicAllowed,
  automaticVisibilityAfterSend,
  DEFAULT_AUTOMATIC_VISIBILITY,
  effectiveTopicsPolicy,
  extractMentions,
  FLAG_BITS,
  normaliseContent,
  parseTopicForSend,
  readBySenderDefault,
  referencedUploadPaths,
  VisibilityPolicy,
} from '@app/domain/messages';
import { RealmTopicsPolicy } from '@app/domain/realm';
import { badRequest, DomainError } from '@app/domain/shared';
import { type Actor, type GroupSettingValue, isGuest, SystemGroup } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { pairKey, userTopicEvent } from '../../channels/index.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { type ActorContext, loadActorContext, type UserRecord } from '../../users/index.js';
import type { MentionCandidates } from './message.ports.js';
import { messageEvent } from './message.events.js';
import { type MentionTargets, MessageRenderer } from './message-renderer.js';

export interface SendRequest {
  type: 'direct' | 'private' | 'channel' | 'stream';
  /** `to` as decoded leniently: JSON when it parsed, else the raw text; undefined when absent. */
  to: unknown;
  content: string;
  topic: string | undefined;
  readBySender: boolean | undefined;
  client: string;
  queueId?: string;
  localId?: string;
}

export interface SendResult {
  id: number;
  automaticNewVisibilityPolicy?: number;
}

type Destination =
  | { kind: 'channel'; byName?: string; byId?: number; topic: string }
  | { kind: 'direct'; users: UserRecord[] };

/** The Viewer of the domain's channel rules. */
export const viewerOf = (actor: Actor, ctx: ActorContext): Viewer => ({
  userId: actor.userId,
  role: actor.role,
  groupIds: ctx.groupIds,
});

const localEchoOf = (req: SendRequest) =>
  req.queueId !== undefined && req.localId !== undefined ? { queueId: req.queueId, localId: req.localId } : undefined;

/** POST /messages (spec 10 §2), in Zulip's order of checks, in one transaction. */
@Injectable()
export class MessageSendService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly renderer: MessageRenderer,
  ) {}

  async send(actor: Actor, req: SendRequest): Promise<SendResult> {
    return this.uow.run(async (tx) => {
      const destination = await this.parseRecipients(tx, actor, req);
      const content = normaliseContent(req.content);
      const ctx = await loadActorContext(actor, tx.realms, tx.groups);
      if (destination.kind === 'channel') return this.sendToChannel(tx, actor, ctx, destination, content, req);
      return this.sendDirect(tx, actor, ctx, destination.users, content, req);
    });
  }

  private async parseRecipients(tx: Tx, actor: Actor, req: SendRequest): Promise<Destination> {
    if (req.type === 'channel' || req.type === 'stream') {
      if (req.to === undefined) throw badRequest('Missing channel');
      let target = req.to;
      if (Array.isArray(target)) {
        if (target.length !== 1) throw badRequest('Expected exactly one channel');
        target = target[0];
      }
      if (req.topic === undefined) throw badRequest('Missing topic');
      const topic = parseTopicForSend(req.topic);
      if (typeof target === 'string') return { kind: 'channel', byName: target.trim(), topic };
      if (typeof target === 'number' && Number.isSafeInteger(target)) return { kind: 'channel', byId: target, topic };
      throw badRequest('Invalid data type for channel');
    }
    let list = req.to === undefined ? [] : req.to;
    if (typeof list === 'string') list = list.split(',');
    if (typeof list === 'number') list = [list];
    if (!Array.isArray(list)) throw badRequest('Invalid data type for recipients');
    if (list.length === 0) throw badRequest('Message must have recipients');
    const mixed = () => badRequest('Recipient lists may contain emails or user IDs, but not both.');
    if (typeof list[0] === 'string') {
      if (list.some((e) => typeof e !== 'string')) throw mixed();
      const emails = [...new Set((list as string[]).map((e) => e.trim()).filter((e) => e !== ''))];
      if (emails.length === 0) throw badRequest('Message must have recipients');
      const found = await tx.users.findManyByEmails(actor.realmId, emails);
      return { kind: 'direct', users: emails.map((e) => this.activeRecipient(found.get(e.toLowerCase()), () => `Invalid email '${e}'`)) };
    }
    if (typeof list[0] === 'number') {
      if (list.some((e) => typeof e !== 'number' || !Number.isSafeInteger(e))) throw mixed();
      const ids = [...new Set(list as number[])];
      const found = await tx.users.findManyByIds(actor.realmId, ids);
      return { kind: 'direct', users: ids.map((id) => this.activeRecipient(found.get(id), () => `Invalid user ID ${id}`)) };
    }
    throw badRequest('Invalid data type for recipients');
  }

  private activeRecipient(u: UserRecord | undefined, unknown: () => string): UserRecord {
    if (u === undefined) throw badRequest(unknown());
    if (!u.isActive) throw badRequest(`'${u.email}' is no longer using Zulip.`);
    return u;
  }

  private async findChannel(tx: Tx, actor: Actor, d: { byName?: string; byId?: number }): Promise<Channel> {
    if (d.byId !== undefined) {
      const c = await tx.channels.findById(actor.realmId, d.byId);
      if (!c) throw new DomainError(`Channel with ID '${d.byId}' does not exist`, 'STREAM_DOES_NOT_EXIST', 'invalid', { stream_id: d.byId });
      return c;
    }
    const [c] = await tx.channels.findByNames(actor.realmId, [d.byName!]);
    if (!c) throw new DomainError(`Channel '${d.byName}' does not exist`, 'STREAM_DOES_NOT_EXIST', 'invalid', { stream: d.byName });
    return c;
  }

  private async sendToChannel(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    d: Extract<Destination, { kind: 'channel' }>,
    content: string,
    req: SendRequest,
  ): Promise<SendResult> {
    const channel = await this.findChannel(tx, actor, d);
    const viewer = viewerOf(actor, ctx);
    const sender = (await tx.users.findById(actor.realmId, actor.userId))!;
    const ownerId = sender.isBot ? sender.botOwnerId : null;
    const rows = await tx.channels.subscriptionRows(ownerId !== null ? [actor.userId, ownerId] : [actor.userId], [channel.id]);
    const subscription = rows.get(pairKey(actor.userId, channel.id));
    const owner = ownerId !== null ? await this.ownerViewer(tx, actor, ownerId) : null;
    const s = channel.snapshot();
    assertCanPostToChannel({
      channelName: s.name,
      canSendMessage: holds(viewer, s.groupSettings.can_send_message_group) || (owner !== null && holds(owner, s.groupSettings.can_send_message_group)),
      isArchived: s.isArchived,
      isWebPublic: s.isWebPublic,
      inviteOnly: s.inviteOnly,
      historyPublicToSubscribers: s.historyPublicToSubscribers,
      senderIsGuest: isGuest(actor.role),
      subscribed: subscription?.active === true,
      botOwnerSubscribed: ownerId !== null && rows.get(pairKey(ownerId, channel.id))?.active === true,
      inContentGrantingGroup: holds(viewer, s.groupSettings.can_subscribe_group) || holds(viewer, s.groupSettings.can_add_subscribers_group),
    });
    const topicFacts = await tx.messages.topicFacts(channel.id, d.topic);
    const everyone = ctx.systemGroups.get(SystemGroup.EVERYONE);
    const canCreateTopic =
      s.groupSettings.can_create_topic_group === everyone ||
      holds(viewer, s.groupSettings.can_create_topic_group) ||
      (owner !== null && holds(owner, s.groupSettings.can_create_topic_group));
    assertCanUseTopic(topicFacts.exists, canCreateTopic);
    const realmPolicy = ctx.realm.topicsPolicy === RealmTopicsPolicy.disable_empty_topic ? 'disable_empty_topic' : 'allow_empty_topic';
    assertTopicAllowed(d.topic, effectiveTopicsPolicy(s.topicsPolicy, realmPolicy));

    const mentions = extractMentions(content);
    const { targets, mentionedUsers, candidates } = await this.resolveMentions(tx, actor, viewer, mentions);
    const participants = [...new Set([...topicFacts.participants, actor.userId])];
    assertCanUseWildcards({
      streamWildcard: mentions.streamWildcard,
      topicWildcard: mentions.topicWildcard,
      activeSubscribers: mentions.streamWildcard ? await tx.messages.activeSubscriberCount(channel.id) : 0,
      topicParticipants: participants.length,
      canMentionManyUsers: holds(viewer, ctx.realmSettings.can_mention_many_users_group),
    });

    const now = this.clock.now();
    const rendered = this.renderer.render(content, targets);
    const recipientId = await tx.messages.channelRecipient(actor.realmId, channel.id);
    const attachments = await this.attachmentsToClaim(tx, actor, content);
    const id = await tx.messages.insert({
      realmId: actor.realmId,
      senderId: actor.userId,
      recipientId,
      channelId: channel.id,
      topic: d.topic,
      content,
      renderedContent: rendered,
      dateSent: now,
      sendingClient: req.client,
      hasAttachment: attachments.length > 0,
    });
    const userRows = await tx.messages.insertChannelUserMessages(id, channel.id, {
      senderId: actor.userId,
      senderRead: req.readBySender ?? readBySenderDefault(req.client),
      mentioned: mentionedUsers,
      streamWildcard: mentions.streamWildcard,
      topicWildcardUsers: mentions.topicWildcard ? participants : [],
    });
    await tx.messages.markChannelFirstMessage(channel.id, id);
    await tx.messages.linkAttachments(id, attachments);
    tx.afterCommit([
      messageEvent({
        realmId: actor.realmId,
        realmStringId: ctx.realm.stringId,
        id,
        sender,
        channel: { id: channel.id, name: s.name, public: !s.inviteOnly },
        participants: [],
        recipientId,
        topic: d.topic,
        content,
        renderedContent: rendered,
        dateSent: now,
        client: req.client,
        rows: userRows,
        localEcho: localEchoOf(req),
      }),
    ]);

    const result: SendResult = { id };
    if (!sender.isBot) {
      const current = await tx.messages.topicVisibility(actor.userId, channel.id, d.topic);
      const next = automaticVisibilityAfterSend(DEFAULT_AUTOMATIC_VISIBILITY, current, subscription?.isMuted === true, !topicFacts.exists);
      if (next !== null) {
        await tx.messages.setTopicVisibility(actor.realmId, [actor.userId], channel.id, d.topic, next, now, false);
        tx.afterCommit([userTopicEvent(actor.realmId, actor.userId, channel.id, d.topic, next, now)]);
        result.automaticNewVisibilityPolicy = next;
      }
    }
    // People mentioned by name follow the topic (automatically_follow_topics_where_mentioned).
    const humanMentions = candidates.users
      .filter((u) => !u.isBot && u.id !== actor.userId)
      .filter((u) => mentions.userIds.includes(u.id) || mentions.userNames.includes(u.fullName.toLowerCase()))
      .map((u) => u.id);
    const followed = await tx.messages.setTopicVisibility(actor.realmId, humanMentions, channel.id, d.topic, VisibilityPolicy.FOLLOWED, now, true);
    tx.afterCommit(followed.map((userId) => userTopicEvent(actor.realmId, userId, channel.id, d.topic, VisibilityPolicy.FOLLOWED, now)));
    return result;
  }

  private async ownerViewer(tx: Tx, actor: Actor, ownerId: number): Promise<Viewer | null> {
    const owner = await tx.users.findById(actor.realmId, ownerId);
    if (!owner || !owner.isActive) return null;
    return { userId: owner.id, role: owner.role, groupIds: await tx.groups.groupIdsOfUser(owner.id) };
  }

  private async sendDirect(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    recipients: UserRecord[],
    content: string,
    req: SendRequest,
  ): Promise<SendResult> {
    const participants = [...new Set([actor.userId, ...recipients.map((u) => u.id)])];
    const others = recipients.filter((u) => u.id !== actor.userId);
    const conversation = await tx.messages.directConversation(actor.realmId, participants);
    const viewer = viewerOf(actor, ctx);
    const permission = ctx.realmSettings.direct_message_permission_group;
    const someoneAuthorizes =
      holds(viewer, permission) ||
      (await this.anyHolds(tx, others, permission));
    assertCanSendDirectMessage({
      senderIsBot: actor.isBot,
      onlyBotsOrSelf: others.every((u) => u.isBot),
      someoneAuthorizes,
      permissionGroupIsNobody: permission === ctx.systemGroups.get(SystemGroup.NOBODY),
      senderCanInitiate: holds(viewer, ctx.realmSettings.direct_message_initiator_group),
      conversationExists: conversation.hasMessages,
    });
    const mentions = extractMentions(content);
    const { targets, mentionedUsers } = await this.resolveMentions(tx, actor, viewer, mentions);
    const now = this.clock.now();
    const attachments = await this.attachmentsToClaim(tx, actor, content);
    const renderedContent = this.renderer.render(content, targets);
    const id = await tx.messages.insert({
      realmId: actor.realmId,
      senderId: actor.userId,
      recipientId: conversation.recipientId,
      channelId: null,
      topic: '',
      content,
      renderedContent,
      dateSent: now,
      sendingClient: req.client,
      hasAttachment: attachments.length > 0,
    });
    const userRows = await tx.messages.insertDirectUserMessages(id, participants, {
      senderId: actor.userId,
      senderRead: req.readBySender ?? readBySenderDefault(req.client),
      mentioned: mentionedUsers,
      streamWildcard: mentions.streamWildcard,
      topicWildcardUsers: [],
    });
    await tx.messages.linkAttachments(id, attachments);
    const sender = (await tx.users.findById(actor.realmId, actor.userId))!;
    const everyone = new Map([[sender.id, sender], ...recipients.map((u) => [u.id, u] as const)]);
    tx.afterCommit([
      messageEvent({
        realmId: actor.realmId,
        realmStringId: ctx.realm.stringId,
        id,
        sender,
        channel: null,
        participants: [...everyone.values()].sort((a, b) => a.id - b.id),
        recipientId: conversation.recipientId,
        topic: '',
        content,
        renderedContent,
        dateSent: now,
        client: req.client,
        rows: userRows,
        localEcho: localEchoOf(req),
      }),
    ]);
    return { id };
  }

  private async anyHolds(tx: Tx, users: readonly UserRecord[], value: GroupSettingValue): Promise<boolean> {
    const groups = await tx.groups.groupIdsOfUsers(users.map((u) => u.id));
    return users.some((u) => holds({ userId: u.id, role: u.role, groupIds: groups.get(u.id)! }, value));
  }

  /** Resolves mentions to users and groups, refusing groups the sender may not mention. */
  async resolveMentions(
    tx: Tx,
    actor: Actor,
    viewer: Viewer,
    mentions: ReturnType<typeof extractMentions>,
  ): Promise<{ targets: MentionTargets; mentionedUsers: number[]; candidates: MentionCandidates }> {
    const candidates = await tx.messages.mentionCandidates(
      actor.realmId,
      [...mentions.userNames, ...mentions.silentUserNames],
      [...mentions.userIds, ...mentions.silentUserIds],
      [...mentions.groupNames, ...mentions.silentGroupNames],
    );
    const nameCounts = new Map<string, number>();
    for (const u of candidates.users) nameCounts.set(u.fullName.toLowerCase(), (nameCounts.get(u.fullName.toLowerCase()) ?? 0) + 1);
    const usersByName = new Map(
      candidates.users.filter((u) => nameCounts.get(u.fullName.toLowerCase()) === 1).map((u) => [u.fullName.toLowerCase(), u]),
    );
    const usersById = new Map(candidates.users.map((u) => [u.id, u]));
    const groupsByName = new Map(candidates.groups.map((g) => [g.name, g]));
    const loudGroups = candidates.groups.filter((g) => mentions.groupNames.includes(g.name));
    if (loudGroups.length > 0) {
      const values = await tx.groups.settingValuesOf(loudGroups.map((g) => g.canMentionGroupId));
      for (const g of loudGroups) {
        if (!holds(viewer, values.get(g.canMentionGroupId)!)) throw badRequest(`You are not allowed to mention user group '${g.name}'.`);
      }
    }
    const direct = [
      ...mentions.userIds.filter((id) => usersById.has(id)),
      ...mentions.userNames.map((n) => usersByName.get(n)?.id).filter((id): id is number => id !== undefined),
    ];
    const viaGroups = await tx.messages.groupMembers(loudGroups.map((g) => g.id));
    return {
      targets: { usersByName, usersById, groupsByName },
      mentionedUsers: [...new Set([...direct, ...viaGroups])],
      candidates,
    };
  }

  /**
   * A Notification Bot message in a channel topic (move and resolve notices): every subscriber
   * gets it, read for `readBy` (the acting user). Mentions in `content` are silent ones of `users`.
   */
  async postNotice(
    tx: Tx,
    realmId: number,
    channelId: number,
    topic: string,
    content: string,
    readBy: number,
    users: readonly { id: number; fullName: string }[],
  ): Promise<number> {
    const bot = await tx.users.systemBot(realmId, 'notification-bot');
    const targets: MentionTargets = {
      usersByName: new Map(),
      usersById: new Map(users.map((u) => [u.id, u])),
      groupsByName: new Map(),
    };
    const recipientId = await tx.messages.channelRecipient(realmId, channelId);
    const renderedContent = this.renderer.render(content, targets);
    const now = this.clock.now();
    const id = await tx.messages.insert({
      realmId,
      senderId: bot.id,
      recipientId,
      channelId,
      topic,
      content,
      renderedContent,
      dateSent: now,
      sendingClient: 'Internal',
      hasAttachment: false,
    });
    const rows = await tx.messages.insertChannelUserMessages(id, channelId, {
      senderId: bot.id,
      senderRead: true,
      mentioned: [],
      streamWildcard: false,
      topicWildcardUsers: [],
    });
    await tx.messages.markRead([readBy], [id]);
    const channel = (await tx.channels.findById(realmId, channelId))!.snapshot();
    const realm = await tx.realms.get(realmId);
    tx.afterCommit([
      messageEvent({
        realmId,
        realmStringId: realm.stringId,
        id,
        sender: bot,
        channel: { id: channelId, name: channel.name, public: !channel.inviteOnly },
        participants: [],
        recipientId,
        topic,
        content,
        renderedContent,
        dateSent: now,
        client: 'Internal',
        rows: rows.map((r) => (r.userId === readBy ? { ...r, flags: r.flags | FLAG_BITS.read } : r)),
      }),
    ]);
    return id;
  }

  /**
   * A Notification Bot direct message to one user (delivered reminders), sent at `dateSent`:
   * unread for the user, read for the bot. `renderedContent` is the caller's rendering.
   */
  async postDirectNotice(tx: Tx, realmId: number, userId: number, content: string, renderedContent: string, dateSent: Date): Promise<number> {
    const bot = await tx.users.systemBot(realmId, 'notification-bot');
    const participants = [bot.id, userId];
    const conversation = await tx.messages.directConversation(realmId, participants);
    const id = await tx.messages.insert({
      realmId,
      senderId: bot.id,
      recipientId: conversation.recipientId,
      channelId: null,
      topic: '',
      content,
      renderedContent,
      dateSent,
      sendingClient: 'Internal',
      hasAttachment: false,
    });
    const rows = await tx.messages.insertDirectUserMessages(id, participants, {
      senderId: bot.id,
      senderRead: true,
      mentioned: [],
      streamWildcard: false,
      topicWildcardUsers: [],
    });
    const users = await tx.users.findManyByIds(realmId, participants);
    tx.afterCommit([
      messageEvent({
        realmId,
        realmStringId: (await tx.realms.get(realmId)).stringId,
        id,
        sender: bot,
        channel: null,
        participants: [...users.values()].sort((a, b) => a.id - b.id),
        recipientId: conversation.recipientId,
        topic: '',
        content,
        renderedContent,
        dateSent,
        client: 'Internal',
        rows,
      }),
    ]);
    return id;
  }

  /** Uploads the content links to that the sender owns (or can already see through a message). */
  async attachmentsToClaim(tx: Tx, actor: Actor, content: string): Promise<number[]> {
    const paths = referencedUploadPaths(content);
    if (paths.length === 0) return [];
    const found = await tx.messages.attachmentsByPath(actor.realmId, paths);
    return found.filter((a) => a.ownerId === actor.userId || a.messageIds.length > 0).map((a) => a.id);
  }
}
