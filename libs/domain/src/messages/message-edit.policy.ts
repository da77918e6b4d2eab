import type { Channel } from '../channels/channel.js';
import { holds, isChannelAdministrator, type Viewer } from '../channels/channel-access.policy.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import { badRequest, DomainError } from '../shared/domain-error.js';
import { expectationMismatch, type GroupSettingValue } from '../users/group-setting.js';
import { isAdmin, isModeratorOrAbove } from '../users/role.js';
import { normaliseEditedContent } from './content.js';
import type { EffectiveTopicsPolicy } from './message-send.policy.js';
import { checkEditTopic, parseTopicForEdit, type ResolveChange, resolveChange, RESOLVED_TOPIC_PREFIX } from './topic.js';

/** Every edit/move limit has a 20 s grace; deletion has none. */
export const EDIT_GRACE_SECONDS = 20;

const ageSeconds = (sent: Date, now: Date): number => (now.getTime() - sent.getTime()) / 1000;

export interface ContentEditFacts {
  allowMessageEditing: boolean;
  isSender: boolean;
  limitSeconds: number | null;
  dateSent: Date;
  /** Zulip's edit_limit_buffer: EDIT_GRACE_SECONDS for edits, 0 for "is typing an edit" notices. */
  graceSeconds?: number;
}

/** Content edits: editing on, sender only, within the limit + grace (administrators too). */
export function assertCanEditContent(f: ContentEditFacts, now: Date): void {
  if (!f.allowMessageEditing) throw badRequest('Your organization has turned off message editing');
  if (!f.isSender) throw badRequest("You don't have permission to edit this message");
  if (f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds + (f.graceSeconds ?? EDIT_GRACE_SECONDS)) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

export interface TopicMoveFacts {
  isResolveToggle: boolean;
  /** In a can_resolve_topics_group of the realm, source or destination channel. */
  canResolve: boolean;
  /** Realm can_move_messages_between_topics_group, administrator, or a channel grant. */
  canMoveBetweenTopics: boolean;
  isModeratorOrAbove: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

export function assertCanChangeTopic(f: TopicMoveFacts, now: Date): void {
  if (f.isResolveToggle) {
    if (!f.canResolve) throw badRequest("You don't have permission to resolve topics in this channel.");
    return;
  }
  if (!f.canMoveBetweenTopics) throw badRequest("You don't have permission to edit this message");
  if (!f.isModeratorOrAbove && f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds + EDIT_GRACE_SECONDS) {
    throw badRequest("The time limit for editing this message's topic has passed.");
  }
}

export interface ChannelMoveFacts {
  /** Administrator, realm can_move_messages_between_channels_group, source channel administrator or its can_move_messages_out_of_channel_group. */
  canMoveOut: boolean;
  canPostInDestination: boolean;
  isModeratorOrAbove: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

export function assertCanChangeChannel(f: ChannelMoveFacts, now: Date): void {
  if (!f.canMoveOut) throw badRequest("You don't have permission to move this message");
  if (!f.canPostInDestination) throw badRequest('You do not have permission to post in this channel.');
  if (!f.isModeratorOrAbove && f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds + EDIT_GRACE_SECONDS) {
    throw badRequest("The time limit for editing this message's channel has passed");
  }
}

/**
 * The whole-topic limit of `change_all` moves (spec 11 §1.4): the deadline is the smaller of
 * the applicable limits (+ grace); every candidate must be newer than it.
 */
export function assertWholeTopicMovable(
  candidates: readonly { id: number; dateSent: Date }[],
  limits: { topicSeconds: number | null; channelSeconds: number | null; topicChanged: boolean; channelChanged: boolean },
  now: Date,
): void {
  const applicable = [
    limits.topicChanged ? limits.topicSeconds : null,
    limits.channelChanged ? limits.channelSeconds : null,
  ].filter((x): x is number => x !== null);
  if (applicable.length === 0) return;
  const deadline = Math.min(...applicable) + EDIT_GRACE_SECONDS;
  const sorted = [...candidates].sort((a, b) => a.id - b.id);
  const allowed = sorted.filter((m) => ageSeconds(m.dateSent, now) <= deadline);
  if (allowed.length === sorted.length) return;
  throw new DomainError(
    `You only have permission to move the ${allowed.length}/${sorted.length} most recent messages in this topic.`,
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    'invalid',
    {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: sorted.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface DeleteFacts {
  canDeleteAny: boolean;
  /** Sent by the user or by a bot the user owns. */
  ownMessage: boolean;
  canDeleteOwn: boolean;
  limitSeconds: number | null;
  dateSent: Date;
}

/** DELETE /messages/{id} (spec 11 §3): no grace period on the delete limit. */
export function assertCanDelete(f: DeleteFacts, now: Date): void {
  if (f.canDeleteAny) return;
  if (!f.ownMessage || !f.canDeleteOwn) throw badRequest("You don't have permission to delete this message");
  if (f.limitSeconds !== null && ageSeconds(f.dateSent, now) > f.limitSeconds) {
    throw badRequest('The time limit for deleting this message has passed');
  }
}

export const invalidMessage = () => badRequest('Invalid message(s)');

/** The organization's message settings the edit, move and delete rules read (resolved by the service). */
export interface RealmMessageRules {
  allowMessageEditing: boolean;
  contentEditLimitSeconds: number | null;
  deleteLimitSeconds: number | null;
  moveWithinChannelLimitSeconds: number | null;
  moveBetweenChannelsLimitSeconds: number | null;
  /** The organization's topics policy (a channel that inherits uses it). */
  topicsPolicy: EffectiveTopicsPolicy;
  /** The role:everyone system group: a can_create_topic_group set to it lets everybody create topics. */
  everyoneGroupId: number | undefined;
  groups: RealmMessageGroups;
}

export interface RealmMessageGroups {
  canResolveTopics: GroupSettingValue;
  canMoveBetweenTopics: GroupSettingValue;
  canMoveBetweenChannels: GroupSettingValue;
  canMentionManyUsers: GroupSettingValue;
  canDeleteAny: GroupSettingValue;
  canDeleteOwn: GroupSettingValue;
}

/** What PATCH /messages/{id} asks for, as the API gave it. */
export interface EditRequest {
  content?: string;
  topic?: string;
  channelId?: number;
  propagateMode: PropagateMode;
  /** Whether `prev_content_sha256` matched the stored content; undefined when not sent. */
  prevContentMatches?: boolean;
}

/** An edit that passed the payload checks: only what actually changes is set. */
export interface MessageEdit {
  /** The new raw content (normalised). */
  content?: string;
  /** The new topic (checked and truncated). */
  topic?: string;
  /** The destination channel when the channel changes. */
  channelId?: number;
  resolve: ResolveChange;
  propagateMode: PropagateMode;
  /** The topic or the channel changes. */
  moves: boolean;
}

/**
 * Steps 2–5 of spec 11 §1.2 in Zulip's order: the content-edit permission, then the payload
 * (nothing to change, direct-message rules, propagate mode, resolving general chat, topic
 * characters, content with channel, widgets, prev_content_sha256), then the content itself.
 */
export function parseEdit(
  m: { senderId: number; channelId: number | null; topic: string; content: string; dateSent: Date; hasSubmessages: boolean },
  req: EditRequest,
  editorId: number,
  realm: RealmMessageRules,
  now: Date,
): MessageEdit {
  if (req.content !== undefined) {
    const f = { allowMessageEditing: realm.allowMessageEditing, isSender: m.senderId === editorId, limitSeconds: realm.contentEditLimitSeconds };
    assertCanEditContent({ ...f, dateSent: m.dateSent }, now);
  }
  let requestedTopic = req.topic === undefined ? undefined : parseTopicForEdit(req.topic);
  if (requestedTopic === m.topic) requestedTopic = undefined;
  const channelId = req.channelId === m.channelId ? undefined : req.channelId;
  if (req.content === undefined && requestedTopic === undefined && channelId === undefined) throw badRequest('Nothing to change');
  if (m.channelId === null && channelId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
  if (m.channelId === null && requestedTopic !== undefined) throw badRequest('Direct messages cannot have topics.');
  if (req.propagateMode !== 'change_one' && requestedTopic === undefined && channelId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (requestedTopic === '✔' || requestedTopic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_DISPLAY_NAME}`) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  const resolve = requestedTopic !== undefined ? resolveChange(m.topic, requestedTopic) : null;
  const topic = requestedTopic !== undefined ? checkEditTopic(requestedTopic) : undefined;
  if (req.content !== undefined && req.channelId !== undefined) throw badRequest('Cannot change message content while changing channel');
  // Zulip's is_widget_message: a message with submessages (its widget's first one came with it).
  if (req.content !== undefined && m.hasSubmessages) throw badRequest('Widgets cannot be edited.');
  if (req.prevContentMatches === false) throw expectationMismatch('prev_content_sha256');
  const content = req.content === undefined ? undefined : normaliseEditedContent(req.content);
  return { content, topic, channelId, resolve, propagateMode: req.propagateMode, moves: topic !== undefined || channelId !== undefined };
}

/**
 * Topic renames (spec 11 §1.2 step 6): resolving needs a can_resolve_topics_group (realm, source
 * or destination); other renames the realm's can_move_messages_between_topics_group, being an
 * administrator, or administering / can_move_messages_within_channel_group of either channel.
 */
export function topicMoveFacts(
  mover: Viewer,
  realm: RealmMessageRules,
  channels: readonly Channel[],
  isResolveToggle: boolean,
  dateSent: Date,
): TopicMoveFacts {
  const inChannelGroup = (c: Channel, ...names: (keyof Channel['groupSettings'])[]) => names.some((n) => holds(mover, c.groupSettings[n]));
  return {
    isResolveToggle,
    canResolve: holds(mover, realm.groups.canResolveTopics) || channels.some((c) => inChannelGroup(c, 'can_resolve_topics_group')),
    canMoveBetweenTopics:
      holds(mover, realm.groups.canMoveBetweenTopics) ||
      isAdmin(mover.role) ||
      channels.some((c) => inChannelGroup(c, 'can_administer_channel_group', 'can_move_messages_within_channel_group')),
    isModeratorOrAbove: isModeratorOrAbove(mover.role),
    limitSeconds: realm.moveWithinChannelLimitSeconds,
    dateSent,
  };
}

/** Channel moves (step 8): out of the source, into a destination the mover may post in. */
export function channelMoveFacts(mover: Viewer, realm: RealmMessageRules, source: Channel, destination: Channel, dateSent: Date): ChannelMoveFacts {
  return {
    canMoveOut:
      isAdmin(mover.role) ||
      holds(mover, realm.groups.canMoveBetweenChannels) ||
      isChannelAdministrator(source, mover) ||
      holds(mover, source.groupSettings.can_move_messages_out_of_channel_group),
    canPostInDestination: holds(mover, destination.groupSettings.can_send_message_group),
    isModeratorOrAbove: isModeratorOrAbove(mover.role),
    limitSeconds: realm.moveBetweenChannelsLimitSeconds,
    dateSent,
  };
}

/** Deletion (spec 11 §3): the realm's or the channel's can_delete_any / can_delete_own groups. */
export function deleteFacts(
  deleter: Viewer,
  realm: RealmMessageRules,
  channel: Channel | null,
  m: { ownMessage: boolean; dateSent: Date },
): DeleteFacts {
  const inChannel = (name: 'can_delete_any_message_group' | 'can_delete_own_message_group') =>
    channel !== null && holds(deleter, channel.groupSettings[name]);
  return {
    canDeleteAny: holds(deleter, realm.groups.canDeleteAny) || inChannel('can_delete_any_message_group'),
    ownMessage: m.ownMessage,
    canDeleteOwn: holds(deleter, realm.groups.canDeleteOwn) || inChannel('can_delete_own_message_group'),
    limitSeconds: realm.deleteLimitSeconds,
    dateSent: m.dateSent,
  };
}
