import type { Channel } from '../channels/channel.js';
import { hasContentAccess, holds, type Viewer } from '../channels/channel-access.policy.js';
import { AggregateRoot } from '../shared/aggregate-root.js';
import { badRequest } from '../shared/domain-error.js';
import { alertWordText } from '../users/alert-words.js';
import { isModeratorOrAbove } from '../users/role.js';
import type { MentionSyntax } from './mentions.js';
import {
  assertCanChangeChannel,
  assertCanChangeTopic,
  assertCanDelete,
  channelMoveFacts,
  deleteFacts,
  type EditRequest,
  type MessageEdit,
  parseEdit,
  type RealmMessageRules,
  topicMoveFacts,
} from './message-edit.policy.js';
import {
  assertCanMentionGroups,
  assertCanPostToChannel,
  assertCanSendDirectMessage,
  assertCanUseTopic,
  assertCanUseWildcards,
  assertTopicAllowed,
  canCreateTopic,
  channelPostFacts,
  type DirectMessageFacts,
  effectiveTopicsPolicy,
  type MentionedGroup,
} from './message-send.policy.js';
import { planTopicMove, type TopicMessage, type TopicMove } from './topic-move.js';
import { type Submessage, WIDGET_MSG_TYPE } from './widgets.js';

/** One entry of a message's edit history (stored newest first, as Zulip's JSON). */
export interface EditHistoryEntry {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

/**
 * A message as stored. `recipientId` is the channel's or the direct conversation's recipient;
 * `channelId` is null for direct messages (whose topic is ''). Its reactions are their own
 * aggregate (`MessageReactions`, reactions.ts), loaded only when they change.
 */
export interface MessageState {
  id: number;
  realmId: number;
  senderId: number;
  recipientId: number;
  channelId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: Date;
  sendingClient: string;
  lastEditTime: Date | null;
  lastMovedTime: Date | null;
  /** Newest first. */
  editHistory: EditHistoryEntry[];
  hasAttachment: boolean;
  /** It has submessages (Zulip's is_widget_message): the first, its widget's, came with it or from its sender. */
  hasSubmessages: boolean;
}

/** The content-dependent bits of the recipients' rows (set on send, re-evaluated on a content edit). */
export interface MentionFlags {
  mentioned: readonly number[];
  streamWildcard: boolean;
  topicWildcardUsers: readonly number[];
  /** The content as alert words are looked for in it (`alertWordText`): `has_alert_word` for recipients with a match. */
  alertWordText: string;
}

/**
 * The per-user rows a new message starts with, applied by the repository to every recipient in
 * one statement: the audience (a channel's active subscribers plus the sender, or the
 * conversation's participants) and the flags each row starts with.
 */
export interface FlagPlan extends MentionFlags {
  audience: { kind: 'channel'; channelId: number } | { kind: 'direct'; userIds: readonly number[] };
  senderId: number;
  senderRead: boolean;
  /** Users other than the sender whose copy starts read (the mover of a move notice). */
  alsoReadBy: readonly number[];
}

/** Mentions resolved by the service: who is mentioned, and the groups mentioned loudly. */
export interface ResolvedMentions {
  syntax: MentionSyntax;
  /** Users mentioned directly or through a group. */
  mentionedUserIds: readonly number[];
  loudGroups: readonly MentionedGroup[];
}

/**
 * What changing a stored message records. A new message records nothing: its rows are its
 * `pendingFlagPlan()`, and its `message` event is built from it once stored.
 */
export type MessageEvent =
  | {
      type: 'content_edited';
      messageId: number;
      editorId: number;
      previous: { content: string; renderedContent: string };
      mentionFlags: MentionFlags;
    }
  | { type: 'moved'; move: TopicMove }
  | { type: 'deleted'; messageId: number; channelId: number | null; topic: string };

/** What every new message has, whoever sends it. */
export interface NewMessage {
  realmId: number;
  senderId: number;
  content: string;
  renderedContent: string;
  sendingClient: string;
  hasAttachment: boolean;
  readBySender: boolean;
  mentions: ResolvedMentions;
}

/** Sending to a channel topic (spec 10 §2.5–2.7): the facts the service resolved. */
export interface ChannelSendFacts {
  kind: 'channel';
  channel: Channel;
  recipientId: number;
  topic: string;
  sender: Viewer;
  /** The active owner of a bot sender. */
  botOwner: Viewer | null;
  subscribed: boolean;
  botOwnerSubscribed: boolean;
  topicExists: boolean;
  /** Distinct senders of the topic so far. */
  topicParticipants: readonly number[];
  /** Active subscribers (counted only when the content has a channel wildcard). */
  activeSubscribers: number;
  realm: Pick<RealmMessageRules, 'topicsPolicy' | 'everyoneGroupId'> & { canMentionManyUsers: RealmMessageRules['groups']['canMentionManyUsers'] };
}

/** Sending a direct message (spec 10 §2.6). */
export interface DirectSendFacts extends DirectMessageFacts {
  kind: 'direct';
  recipientId: number;
  /** Every participant, the sender included. */
  participants: readonly number[];
  sender: Viewer;
}

/** What an edit needs beyond the request, fetched by the service for the `MessageEdit`. */
export interface EditFacts {
  editor: Viewer;
  realm: RealmMessageRules;
  /** The message's channel (null for a direct message). */
  source: Channel | null;
  /** When the channel changes: the destination (null if unknown), whether the editor is subscribed, its recipient. */
  destination?: { channel: Channel | null; subscribed: boolean; recipientId: number };
  /** When the content changes: its mentions and rendering. */
  mentions?: ResolvedMentions;
  renderedContent?: string;
  /** When the content of a channel message changes: the source topic's senders, and active subscribers (for channel wildcards). */
  sourceTopic?: { participants: readonly number[]; activeSubscribers: number };
  /** When the message moves: the source topic's messages the editor can access, oldest first. */
  topicMessages?: readonly TopicMessage[];
  /** When the message moves: whether the destination topic has messages. */
  destinationTopicExists?: boolean;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A message: its recipient, content, history, and the rules of sending, editing, moving and deleting it. */
export class Message extends AggregateRoot<MessageEvent> {
  /** The rows a new message starts with, until it is stored. */
  private flagPlan: FlagPlan | null = null;
  /** A new widget message's first submessage (its id once stored). */
  private widget: { id: number; content: string } | null = null;

  private constructor(private state: MessageState) {
    super();
  }

  static restore(state: MessageState): Message {
    return new Message({ ...state, editHistory: [...state.editHistory] });
  }

  /**
   * A user's new message, after the sending rules in Zulip's order: for a channel, who may post,
   * topic creation, the topics policy, group mentions, wildcard limits; for a direct message, the
   * direct-message permission groups, then group mentions. Its id comes with `identify` once stored.
   */
  static create(m: NewMessage, to: ChannelSendFacts | DirectSendFacts, now: Date): Message {
    if (to.kind === 'channel') Message.assertCanSendToChannel(m, to);
    else {
      assertCanSendDirectMessage(to);
      assertCanMentionGroups(to.sender, m.mentions.loudGroups);
    }
    const topicWildcardUsers = to.kind === 'channel' && m.mentions.syntax.topicWildcard ? [...new Set([...to.topicParticipants, m.senderId])] : [];
    const place = to.kind === 'channel' ? { recipientId: to.recipientId, channelId: to.channel.id, topic: to.topic } : { recipientId: to.recipientId, channelId: null, topic: '' };
    return Message.newMessage(m, place, now, {
      audience: to.kind === 'channel' ? { kind: 'channel', channelId: to.channel.id } : { kind: 'direct', userIds: to.participants },
      senderId: m.senderId,
      senderRead: m.readBySender,
      alsoReadBy: [],
      mentioned: m.mentions.mentionedUserIds,
      streamWildcard: m.mentions.syntax.streamWildcard,
      topicWildcardUsers,
      alertWordText: alertWordText(m.content),
    });
  }

  private static assertCanSendToChannel(m: NewMessage, to: ChannelSendFacts): void {
    assertCanPostToChannel(channelPostFacts(to.channel, to.sender, to.botOwner, to));
    assertCanUseTopic(to.topicExists, canCreateTopic(to.channel, to.realm.everyoneGroupId, to.sender, to.botOwner));
    assertTopicAllowed(to.topic, effectiveTopicsPolicy(to.channel.snapshot().topicsPolicy, to.realm.topicsPolicy));
    assertCanMentionGroups(to.sender, m.mentions.loudGroups);
    assertCanUseWildcards({
      streamWildcard: m.mentions.syntax.streamWildcard,
      topicWildcard: m.mentions.syntax.topicWildcard,
      activeSubscribers: to.activeSubscribers,
      topicParticipants: new Set([...to.topicParticipants, m.senderId]).size,
      canMentionManyUsers: holds(to.sender, to.realm.canMentionManyUsers),
    });
  }

  /**
   * A Notification Bot message (move and resolve notices, delivered reminders): internal sends
   * skip the sending rules. It starts read for the bot and for `alsoReadBy`.
   */
  static createNotice(
    m: Omit<NewMessage, 'readBySender' | 'mentions' | 'hasAttachment'>,
    to: { kind: 'channel'; channelId: number; recipientId: number; topic: string } | { kind: 'direct'; recipientId: number; participants: readonly number[] },
    alsoReadBy: readonly number[],
    now: Date,
  ): Message {
    const place = to.kind === 'channel' ? { recipientId: to.recipientId, channelId: to.channelId, topic: to.topic } : { recipientId: to.recipientId, channelId: null, topic: '' };
    return Message.newMessage({ ...m, hasAttachment: false }, place, now, {
      audience: to.kind === 'channel' ? { kind: 'channel', channelId: to.channelId } : { kind: 'direct', userIds: to.participants },
      senderId: m.senderId,
      senderRead: true,
      alsoReadBy,
      mentioned: [],
      streamWildcard: false,
      topicWildcardUsers: [],
      alertWordText: alertWordText(m.content),
    });
  }

  private static newMessage(
    m: Omit<NewMessage, 'readBySender' | 'mentions'>,
    place: { recipientId: number; channelId: number | null; topic: string },
    now: Date,
    flags: FlagPlan,
  ): Message {
    const message = new Message({
      id: 0,
      realmId: m.realmId,
      senderId: m.senderId,
      ...place,
      content: m.content,
      renderedContent: m.renderedContent,
      dateSent: now,
      sendingClient: m.sendingClient,
      lastEditTime: null,
      lastMovedTime: null,
      editHistory: [],
      hasAttachment: m.hasAttachment,
      hasSubmessages: false,
    });
    message.flagPlan = flags;
    return message;
  }

  /** The per-user rows of a new message, for the repository to write with it. */
  pendingFlagPlan(): FlagPlan {
    if (this.flagPlan === null) throw new Error('only a new message has a flag plan');
    return this.flagPlan;
  }

  /**
   * Makes a new message a widget (Zulip's do_widget_post_save_actions): `content` is its first
   * submessage's, stored with the message by the repository.
   */
  attachWidget(content: string): void {
    if (this.flagPlan === null) throw new Error('only a new message takes a widget');
    this.widget = { id: 0, content };
    this.state.hasSubmessages = true;
  }

  /** The widget submessage's content a new message is to be stored with (null: none). */
  pendingWidget(): string | null {
    return this.flagPlan === null ? null : (this.widget?.content ?? null);
  }

  /** The id Postgres gave the new message, and its widget submessage's (set by the repository when it stores them). */
  identify(id: number, widgetSubmessageId?: number): void {
    if (this.state.id !== 0) throw new Error(`message ${this.state.id} already has an id`);
    if ((this.widget === null) !== (widgetSubmessageId === undefined)) throw new Error('a widget message is identified with its submessage');
    this.state.id = id;
    if (this.widget !== null) this.widget.id = widgetSubmessageId!;
    this.flagPlan = null;
  }

  /** A message just sent: its submessages (its widget's, or none), as its `message` event shows them. */
  newSubmessages(): Submessage[] {
    if (this.widget === null) return [];
    return [{ id: this.widget.id, messageId: this.state.id, senderId: this.state.senderId, msgType: WIDGET_MSG_TYPE, content: this.widget.content }];
  }

  get id(): number {
    return this.state.id;
  }
  get senderId(): number {
    return this.state.senderId;
  }
  get channelId(): number | null {
    return this.state.channelId;
  }
  get topic(): string {
    return this.state.topic;
  }
  get content(): string {
    return this.state.content;
  }
  get dateSent(): Date {
    return this.state.dateSent;
  }
  snapshot(): Readonly<MessageState> {
    return this.state;
  }

  /**
   * Checks what PATCH asks (spec 11 §1.2 steps 2–5) without changing anything: the returned
   * edit says which facts `edit` will need.
   */
  requestEdit(req: EditRequest, editorId: number, realm: RealmMessageRules, now: Date): MessageEdit {
    return parseEdit(this.state, req, editorId, realm, now);
  }

  /**
   * Steps 5–10 of spec 11 §1.2 in Zulip's order (destination, topics policy, topic permission,
   * mentions and wildcards, channel permission, whole-topic limit, topic creation), then the
   * change: content (recorded `content_edited`) and the move this message leads (`moved`,
   * returned for the repository to apply to every moved row).
   */
  edit(e: MessageEdit, f: EditFacts, now: Date): TopicMove | null {
    const destination = this.checkDestination(e, f);
    const targetTopic = e.topic ?? this.state.topic;
    if (e.moves && destination !== null) {
      assertTopicAllowed(targetTopic, effectiveTopicsPolicy(destination.snapshot().topicsPolicy, f.realm.topicsPolicy));
    }
    const channels = [f.source, e.channelId !== undefined ? destination : null].filter((c): c is Channel => c !== null);
    if (e.topic !== undefined) assertCanChangeTopic(topicMoveFacts(f.editor, f.realm, channels, e.resolve !== null, this.state.dateSent), now);
    if (e.content !== undefined) this.checkMentions(f);
    if (e.channelId !== undefined && f.source !== null && destination !== null) {
      assertCanChangeChannel(channelMoveFacts(f.editor, f.realm, f.source, destination, this.state.dateSent), now);
    }
    const entry: EditHistoryEntry = { user_id: f.editor.userId, timestamp: seconds(now) };
    if (e.topic !== undefined) Object.assign(entry, { prev_topic: this.state.topic, topic: e.topic });
    if (e.channelId !== undefined) Object.assign(entry, { prev_stream: this.state.channelId!, stream: e.channelId });
    const move = e.moves && f.source !== null && destination !== null ? this.planMove(e, f, destination, entry, now) : null;
    if (e.content !== undefined) this.changeContent(e.content, f, entry, now);
    if (move !== null) this.moveTo(move);
    return move;
  }

  /** Step 5: the destination channel must exist, be active and readable by the editor. */
  private checkDestination(e: MessageEdit, f: EditFacts): Channel | null {
    if (e.channelId === undefined) return f.source;
    const d = f.destination;
    if (!d || d.channel === null || d.channel.isArchived || !hasContentAccess(d.channel, f.editor, d.subscribed)) {
      throw badRequest('Invalid channel ID');
    }
    return d.channel;
  }

  /** Step 7: group mentions of the editor, then wildcard limits in the message's channel. */
  private checkMentions(f: EditFacts): void {
    const mentions = f.mentions!;
    assertCanMentionGroups(f.editor, mentions.loudGroups);
    if (f.source === null) return;
    const topic = f.sourceTopic!;
    assertCanUseWildcards({
      streamWildcard: mentions.syntax.streamWildcard,
      topicWildcard: mentions.syntax.topicWildcard,
      activeSubscribers: topic.activeSubscribers,
      topicParticipants: new Set([...topic.participants, this.state.senderId]).size,
      canMentionManyUsers: holds(f.editor, f.realm.groups.canMentionManyUsers),
    });
  }

  /** Steps 9–10: which messages move; a real move (not a resolve toggle) into a new topic needs can_create_topic_group. */
  private planMove(e: MessageEdit, f: EditFacts, destination: Channel, entry: EditHistoryEntry, now: Date): TopicMove {
    const move = planTopicMove(
      {
        target: { id: this.state.id, dateSent: this.state.dateSent },
        from: { channelId: this.state.channelId!, topic: this.state.topic },
        to: { channelId: destination.id, recipientId: f.destination?.recipientId ?? this.state.recipientId, topic: e.topic ?? this.state.topic },
        propagateMode: e.propagateMode,
        topicChanged: e.topic !== undefined,
        channelChanged: e.channelId !== undefined,
        resolve: e.resolve,
        topicMessages: f.topicMessages ?? [],
        moverIsModeratorOrAbove: isModeratorOrAbove(f.editor.role),
        limits: { topicSeconds: f.realm.moveWithinChannelLimitSeconds, channelSeconds: f.realm.moveBetweenChannelsLimitSeconds },
        historyEntry: entry,
        contentEdited: e.content !== undefined,
        destinationTopicExisted: f.destinationTopicExists === true,
        destinationHistoryProtected: !destination.snapshot().historyPublicToSubscribers,
      },
      now,
    );
    if (e.resolve === null && !move.destinationTopicExisted) {
      assertCanUseTopic(false, canCreateTopic(destination, f.realm.everyoneGroupId, f.editor));
    }
    return move;
  }

  private changeContent(content: string, f: EditFacts, entry: EditHistoryEntry, now: Date): void {
    const previous = { content: this.state.content, renderedContent: this.state.renderedContent };
    const contentEntry: EditHistoryEntry = { ...entry, prev_content: previous.content, prev_rendered_content: previous.renderedContent };
    this.state.content = content;
    this.state.renderedContent = f.renderedContent!;
    this.state.lastEditTime = now;
    this.state.editHistory = [contentEntry, ...this.state.editHistory];
    const mentionFlags = {
      mentioned: f.mentions!.mentionedUserIds,
      streamWildcard: f.mentions!.syntax.streamWildcard,
      topicWildcardUsers: [],
      alertWordText: alertWordText(content),
    };
    this.record({ type: 'content_edited', messageId: this.state.id, editorId: f.editor.userId, previous, mentionFlags });
  }

  private moveTo(move: TopicMove): void {
    if (move.historyWrittenFor !== this.state.id) this.state.editHistory = [move.historyEntry, ...this.state.editHistory];
    this.state.channelId = move.to.channelId;
    this.state.recipientId = move.to.recipientId;
    this.state.topic = move.to.topic;
    if (move.movedTime !== null) this.state.lastMovedTime = move.movedTime;
    this.record({ type: 'moved', move });
  }

  /** DELETE (spec 11 §3): can_delete_any, else own (or own bot's) message with can_delete_own, within the limit (no grace). */
  delete(deleter: Viewer, realm: RealmMessageRules, channel: Channel | null, sentByOwnBot: boolean, now: Date): void {
    const ownMessage = this.state.senderId === deleter.userId || sentByOwnBot;
    assertCanDelete(deleteFacts(deleter, realm, channel, { ownMessage, dateSent: this.state.dateSent }), now);
    this.record({ type: 'deleted', messageId: this.state.id, channelId: this.state.channelId, topic: this.state.topic });
  }
}
