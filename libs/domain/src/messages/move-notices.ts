import { noticeHashEncode, silentMention } from '../shared/text.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import type { TopicMove } from './topic-move.js';

/** Undoing a resolve toggle within a minute deletes the previous notice instead of posting one. */
export const RESOLVE_NOTICE_GRACE_SECONDS = 60;

/** A Notification Bot message into a channel topic. */
export interface ChannelNotice {
  channelId: number;
  topic: string;
  content: string;
}

export interface NoticeChannel {
  id: number;
  name: string;
}

/** Zulip's hash encoding of narrow URLs (encodeURIComponent with `%` → `.`). */
const topicLink = (c: NoticeChannel, topic: string) => `#**${c.name}>${topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic}**`;

/** A topic-only resolve toggle gets a resolve notice instead of move notices (spec 11 §1.6). */
export const isResolveNoticeMove = (move: TopicMove): boolean => move.resolve !== null && !move.channelChanged;

/** The resolve notice posted into the renamed topic. */
export function resolveNotice(move: TopicMove, mover: { id: number; fullName: string }): ChannelNotice {
  const state = move.resolve === 'resolve' ? 'resolved' : 'unresolved';
  return { channelId: move.to.channelId, topic: move.to.topic, content: `${silentMention(mover)} has marked this topic as ${state}.` };
}

/** Whether the topic's last message is a resolve notice young enough for an undo to delete it. */
export function undoesResolveNotice(last: { senderId: number; content: string; dateSent: Date } | null, botId: number, now: Date): boolean {
  if (last === null || last.senderId !== botId || !/has marked this topic as (un)?resolved\.$/.test(last.content)) return false;
  return (now.getTime() - last.dateSent.getTime()) / 1000 < RESOLVE_NOTICE_GRACE_SECONDS;
}

export interface MoveNoticeRequest {
  mover: { id: number; fullName: string };
  source: NoticeChannel;
  destination: NoticeChannel;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/**
 * The move notices (spec 11 §1.6): in the old topic when asked, in the new one when asked and
 * the channel changed or the rename is not a resolve toggle. Old first.
 */
export function moveNotices(move: TopicMove, r: MoveNoticeRequest): ChannelNotice[] {
  const user = silentMention(r.mover);
  const count = move.messageIds.length;
  const newLoc = topicLink(r.destination, move.to.topic);
  const oldLoc = topicLink(r.source, move.from.topic);
  const notices: ChannelNotice[] = [];
  if (r.notifyOldThread) {
    const content = move.wholeTopic
      ? `This topic was moved to ${newLoc} by ${user}.`
      : count === 1
        ? `A message was moved from this topic to ${newLoc} by ${user}.`
        : `${count} messages were moved from this topic to ${newLoc} by ${user}.`;
    notices.push({ channelId: move.from.channelId, topic: move.from.topic, content });
  }
  if (r.notifyNewThread && (move.channelChanged || move.resolve === null)) {
    const slug = r.destination.name.replace(/ /g, '-');
    const link = `#narrow/channel/${r.destination.id}-${noticeHashEncode(slug)}/topic/${noticeHashEncode(move.to.topic)}/near/${move.messageIds[0]}`;
    const content =
      move.wholeTopic && !move.destinationTopicExisted
        ? `This topic was moved here from ${oldLoc} by ${user}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${oldLoc} by ${user}.`
          : `${count} messages were moved here from ${oldLoc} by ${user}.`;
    notices.push({ channelId: move.to.channelId, topic: move.to.topic, content });
  }
  return notices;
}
