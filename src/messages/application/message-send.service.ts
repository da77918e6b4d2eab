import { type Channel, holds, type Viewer } from '@app/domain/channels';
import {
  activeRecipient,
  automaticVisibilityAfterSend,
  type ChannelSendFacts,
  checkWidgetContent,
  type JsonInput,
  DEFAULT_AUTOMATIC_VISIBILITY,
  type DirectSendFacts,
  extractMentions,
  Message,
  type NewMessage,
  normaliseContent,
  parseRecipients,
  readBySenderDefault,
  recipientChannelNotFound,
  type SendType,
  VisibilityPolicy,
  widgetFromContent,
  widgetSubmessageContent,
} from '@app/domain/messages';
import { type Actor, type GroupSettingValue, SystemGroup } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { userTopicEvent } from '../../channels/index.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { type ActorContext, loadActorContext, type UserRecord } from '../../users/index.js';
import { claimAttachments, claimableAttachments } from './attachment-claims.js';
import { realmTopicsPolicy, viewerOf } from './message-access.js';
import { newMessageEvent } from './message.events.js';
import type { ChannelSendReads } from './message.ports.js';
import { MessageRenderer } from './message-renderer.js';
import { type MentionResolution, MentionResolver } from './mention-resolver.js';
import { RenderTargetsResolver } from './render-targets.resolver.js';

export interface SendRequest {
  type: SendType;
  /** `to` as decoded leniently: JSON when it parsed, else the raw text; undefined when absent. */
  to: unknown;
  content: string;
  topic: string | undefined;
  readBySender: boolean | undefined;
  client: string;
  queueId?: string;
  localId?: string;
  /** `widget_content` (an API programmer's widget, instead of one from the content), as parsed. */
  widgetContent?: JsonInput;
}

export interface SendResult {
  id: number;
  automaticNewVisibilityPolicy?: number;
}

/** A message that passed every sending rule, rendered, not stored (what a scheduled message keeps). */
export interface CheckedSend {
  content: string;
  renderedContent: string;
  target: { kind: 'channel'; channelId: number; topic: string } | { kind: 'direct'; participantIds: number[] };
}

type Destination =
  | { kind: 'channel'; channel: string | number; topic: string }
  | { kind: 'direct'; users: UserRecord[]; sender: UserRecord };

/** What the sender's automatic topic follow reads (spec 10 §2.9). */
interface SenderTopicFacts {
  topicExists: boolean;
  muted: boolean;
  senderTopicPolicy: number;
}

/** A new message after the sending rules, with what storing it and its events need. */
type PreparedSend =
  | { kind: 'channel'; message: Message; ctx: ActorContext; channel: Channel; sender: UserRecord; topic: string; facts: SenderTopicFacts; resolution: MentionResolution; attachments: number[] }
  | { kind: 'direct'; message: Message; ctx: ActorContext; sender: UserRecord; recipients: UserRecord[]; participants: number[]; attachments: number[] };

const localEchoOf = (req: SendRequest) =>
  req.queueId !== undefined && req.localId !== undefined ? { queueId: req.queueId, localId: req.localId } : undefined;

/**
 * Sending a user's message inside the caller's transaction, in Zulip's order of checks (spec 10
 * §2): a collaborator of use cases (POST /messages, delivering scheduled messages), with no unit
 * of work of its own. `check` applies every rule and renders without storing anything.
 */
@Injectable()
export class MessageSender {
  constructor(
    private readonly clock: Clock,
    private readonly renderer: MessageRenderer,
    private readonly mentions: MentionResolver,
    private readonly renderTargets: RenderTargetsResolver,
  ) {}

  /** Sends the message, dated `now`. */
  async send(tx: Tx, actor: Actor, req: SendRequest, now: Date = this.clock.now()): Promise<SendResult> {
    const prepared = await this.prepare(tx, actor, req, now);
    return prepared.kind === 'channel' ? this.storeChannelMessage(tx, actor, prepared, req, now) : this.storeDirectMessage(tx, actor, prepared, req);
  }

  /** Zulip's check_message: every rule of sending `req` now, without storing it. */
  async check(tx: Tx, actor: Actor, req: SendRequest): Promise<CheckedSend> {
    const { message, ...p } = await this.prepare(tx, actor, req, this.clock.now());
    const { content, renderedContent } = message.snapshot();
    if (p.kind === 'channel') return { content, renderedContent, target: { kind: 'channel', channelId: p.channel.id, topic: p.topic } };
    return { content, renderedContent, target: { kind: 'direct', participantIds: [...p.participants].sort((a, b) => a - b) } };
  }

  private async prepare(tx: Tx, actor: Actor, req: SendRequest, now: Date): Promise<PreparedSend> {
    const destination = await this.findRecipients(tx, actor, req);
    const content = normaliseContent(req.content);
    const ctx = await loadActorContext(tx, actor);
    if (destination.kind === 'channel') return this.prepareChannelMessage(tx, actor, ctx, destination, content, req, now);
    return this.prepareDirectMessage(tx, actor, ctx, destination, content, req, now);
  }

  /** The recipients `req` names (the domain's parseRecipients); a direct message's are looked up, each active. */
  private async findRecipients(tx: Tx, actor: Actor, req: SendRequest): Promise<Destination> {
    const to = parseRecipients(req.type, req.to, req.topic);
    if (to.kind === 'channel') return to;
    // The sender's record comes with the recipients' (the message event shows it).
    if (to.by === 'email') {
      const found = await tx.users.findManyByApiEmails(actor.realmId, [...to.emails, actor.email]);
      return { kind: 'direct', users: to.emails.map((e) => activeRecipient(found.get(e.toLowerCase()), e)), sender: found.get(actor.email.toLowerCase())! };
    }
    const found = await tx.users.findManyByIds(actor.realmId, [...to.userIds, actor.userId]);
    return { kind: 'direct', users: to.userIds.map((id) => activeRecipient(found.get(id), id)), sender: found.get(actor.userId)! };
  }

  private async findChannel(tx: Tx, actor: Actor, channel: string | number): Promise<Channel> {
    const found = typeof channel === 'number' ? await tx.channels.findById(actor.realmId, channel) : (await tx.channels.findByNames(actor.realmId, [channel]))[0];
    if (!found) throw recipientChannelNotFound(channel);
    return found;
  }

  /** A channel message: facts for the sending rules, then `Message.create` (which applies them). */
  private async prepareChannelMessage(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    d: Extract<Destination, { kind: 'channel' }>,
    content: string,
    req: SendRequest,
    now: Date,
  ): Promise<PreparedSend> {
    const channel = await this.findChannel(tx, actor, d.channel);
    const syntax = extractMentions(content);
    const reads = await tx.conversations.channelSendReads(actor.realmId, actor.userId, channel.id, d.topic, {
      participants: syntax.topicWildcard,
      subscriberCount: syntax.streamWildcard,
    });
    const sender = reads.sender;
    const facts = await this.channelFacts(tx, actor, ctx, reads, channel, d.topic);
    const resolution = await this.mentions.resolve(tx, actor.realmId, syntax);
    const rendered = this.renderer.render(content, await this.renderTargets.resolve(tx, actor.realmId, actor.userId, content, resolution.targets));
    facts.recipientId = reads.recipientId ?? (await tx.conversations.channelRecipient(actor.realmId, channel.id));
    const attachments = await claimableAttachments(tx, actor, content);
    const message = Message.create(this.newMessage(actor, req, content, rendered, resolution, attachments), facts, now);
    this.attachWidget(message, req);
    return { kind: 'channel', message, ctx, channel, sender, topic: d.topic, facts, resolution, attachments };
  }

  /** Stores a channel message, queues its event, then the topic visibility it changes. */
  private async storeChannelMessage(tx: Tx, actor: Actor, p: Extract<PreparedSend, { kind: 'channel' }>, req: SendRequest, now: Date): Promise<SendResult> {
    const { message, channel, sender } = p;
    const rows = await tx.messages.add(message);
    await claimAttachments(tx, actor, message.id, p.attachments);
    tx.afterCommit([newMessageEvent(message, { realmStringId: p.ctx.realm.stringId, sender, to: { channel }, rows, localEcho: localEchoOf(req) })]);
    const result: SendResult = { id: message.id };
    if (!sender.isBot) {
      const next = await this.followAfterSend(tx, actor, channel.id, p.topic, p.facts, now);
      if (next !== null) result.automaticNewVisibilityPolicy = next;
    }
    await this.followMentioned(tx, actor, channel.id, p.topic, p.resolution, now);
    return result;
  }

  /**
   * What the sending rules read about the channel (spec 10 §2.5): the sender's (and a bot's
   * owner's) groups and subscriptions, the topic's existence and senders. Subscriber count and
   * recipient are filled in later (after mention resolution, as Zulip orders its queries).
   */
  private async channelFacts(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    reads: ChannelSendReads,
    channel: Channel,
    topic: string,
  ): Promise<ChannelSendFacts & { muted: boolean; senderTopicPolicy: number }> {
    const ownerId = reads.sender.isBot ? reads.sender.botOwnerId : null;
    return {
      kind: 'channel',
      channel,
      recipientId: 0,
      topic,
      sender: viewerOf(actor, ctx),
      botOwner: ownerId !== null ? await this.ownerViewer(tx, actor, ownerId) : null,
      subscribed: reads.subscribed,
      botOwnerSubscribed: ownerId !== null && reads.ownerSubscribed,
      topicExists: reads.topicExists,
      topicParticipants: reads.topicParticipants,
      activeSubscribers: reads.activeSubscribers,
      realm: { topicsPolicy: realmTopicsPolicy(ctx), everyoneGroupId: ctx.systemGroups.get(SystemGroup.EVERYONE), canMentionManyUsers: ctx.realmSettings.can_mention_many_users_group },
      muted: reads.muted,
      senderTopicPolicy: reads.senderTopicPolicy,
    };
  }

  private newMessage(actor: Actor, req: SendRequest, content: string, rendered: string, r: MentionResolution, attachments: number[]): NewMessage {
    return {
      realmId: actor.realmId,
      senderId: actor.userId,
      content,
      renderedContent: rendered,
      sendingClient: req.client,
      hasAttachment: attachments.length > 0,
      readBySender: req.readBySender ?? readBySenderDefault(req.client),
      mentions: r.mentions,
    };
  }

  /**
   * The widget a new message is stored with (Zulip's do_widget_post_save_actions): the checked
   * `widget_content` when sent (check_message refuses a bad one), else one its content makes
   * (`/poll`, `/todo`), else none.
   */
  private attachWidget(message: Message, req: SendRequest): void {
    const widget = req.widgetContent !== undefined ? checkWidgetContent(req.widgetContent) : widgetFromContent(message.content);
    if (widget !== null) message.attachWidget(widgetSubmessageContent(widget));
  }

  /** The sender's automatic follow / unmute of the topic (spec 10 §2.9). */
  private async followAfterSend(
    tx: Tx,
    actor: Actor,
    channelId: number,
    topic: string,
    facts: SenderTopicFacts,
    now: Date,
  ): Promise<number | null> {
    const next = automaticVisibilityAfterSend(DEFAULT_AUTOMATIC_VISIBILITY, facts.senderTopicPolicy, facts.muted, !facts.topicExists);
    if (next === null) return null;
    await tx.topicVisibility.set(actor.realmId, [actor.userId], channelId, topic, next, now, false);
    tx.afterCommit([userTopicEvent(actor.realmId, actor.userId, channelId, topic, next, now)]);
    return next;
  }

  /** People mentioned by name follow the topic (automatically_follow_topics_where_mentioned). */
  private async followMentioned(tx: Tx, actor: Actor, channelId: number, topic: string, r: MentionResolution, now: Date): Promise<void> {
    const { syntax } = r.mentions;
    const humanMentions = r.candidates.users
      .filter((u) => !u.isBot && u.id !== actor.userId)
      .filter((u) => syntax.userIds.includes(u.id) || syntax.userNames.includes(u.fullName.toLowerCase()))
      .map((u) => u.id);
    const followed = await tx.topicVisibility.set(actor.realmId, humanMentions, channelId, topic, VisibilityPolicy.FOLLOWED, now, true);
    tx.afterCommit(followed.map((userId) => userTopicEvent(actor.realmId, userId, channelId, topic, VisibilityPolicy.FOLLOWED, now)));
  }

  private async ownerViewer(tx: Tx, actor: Actor, ownerId: number): Promise<Viewer | null> {
    const owner = await tx.users.findById(actor.realmId, ownerId);
    if (!owner || !owner.isActive) return null;
    return { userId: owner.id, role: owner.role, groupIds: await tx.groups.groupIdsOfUser(owner.id) };
  }

  /** A direct message: the direct-message permission facts, then `Message.create`. */
  private async prepareDirectMessage(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    { users: recipients, sender }: Extract<Destination, { kind: 'direct' }>,
    content: string,
    req: SendRequest,
    now: Date,
  ): Promise<PreparedSend> {
    const participants = [...new Set([actor.userId, ...recipients.map((u) => u.id)])];
    const conversation = await tx.conversations.directConversation(actor.realmId, participants);
    const facts = await this.directFacts(tx, actor, ctx, recipients, participants, conversation);
    const resolution = await this.mentions.resolve(tx, actor.realmId, extractMentions(content));
    const attachments = await claimableAttachments(tx, actor, content);
    const rendered = this.renderer.render(content, await this.renderTargets.resolve(tx, actor.realmId, actor.userId, content, resolution.targets));
    const message = Message.create(this.newMessage(actor, req, content, rendered, resolution, attachments), facts, now);
    this.attachWidget(message, req);
    return { kind: 'direct', message, ctx, sender, recipients, participants, attachments };
  }

  private async storeDirectMessage(tx: Tx, actor: Actor, p: Extract<PreparedSend, { kind: 'direct' }>, req: SendRequest): Promise<SendResult> {
    const { message } = p;
    const rows = await tx.messages.add(message);
    await claimAttachments(tx, actor, message.id, p.attachments);
    const { sender } = p;
    const participants = [...new Map([[sender.id, sender], ...p.recipients.map((u) => [u.id, u] as const)]).values()];
    tx.afterCommit([newMessageEvent(message, { realmStringId: p.ctx.realm.stringId, sender, to: { participants }, rows, localEcho: localEchoOf(req) })]);
    return { id: message.id };
  }

  /** Spec 10 §2.6: does some participant hold direct_message_permission_group (the others only asked when the sender does not)? */
  private async directFacts(
    tx: Tx,
    actor: Actor,
    ctx: ActorContext,
    recipients: readonly UserRecord[],
    participants: number[],
    conversation: { recipientId: number; hasMessages: boolean },
  ): Promise<DirectSendFacts> {
    const others = recipients.filter((u) => u.id !== actor.userId);
    const viewer = viewerOf(actor, ctx);
    const permission = ctx.realmSettings.direct_message_permission_group;
    return {
      kind: 'direct',
      recipientId: conversation.recipientId,
      participants,
      sender: viewer,
      senderIsBot: actor.isBot,
      onlyBotsOrSelf: others.every((u) => u.isBot),
      someoneAuthorizes: holds(viewer, permission) || (await this.anyHolds(tx, others, permission)),
      permissionGroupIsNobody: permission === ctx.systemGroups.get(SystemGroup.NOBODY),
      senderCanInitiate: holds(viewer, ctx.realmSettings.direct_message_initiator_group),
      conversationExists: conversation.hasMessages,
    };
  }

  private async anyHolds(tx: Tx, users: readonly UserRecord[], value: GroupSettingValue): Promise<boolean> {
    const groups = await tx.groups.groupIdsOfUsers(users.map((u) => u.id));
    return users.some((u) => holds({ userId: u.id, role: u.role, groupIds: groups.get(u.id)! }, value));
  }
}

/** POST /messages (spec 10 §2): the use case in one transaction of its own. */
@Injectable()
export class MessageSendService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sender: MessageSender,
  ) {}

  sendMessage(actor: Actor, req: SendRequest): Promise<SendResult> {
    return this.uow.run((tx) => this.sender.send(tx, actor, req));
  }
}
