import { EditHistoryVisibility } from '../realm/realm-settings.js';
import type { EditHistoryEntry, MessageState } from './message.js';
import { displayTopic } from './topic.js';

/** One snapshot of GET /messages/{id}/history: the message right after an edit (or as sent). */
export interface EditSnapshot {
  content: string;
  rendered_content: string;
  timestamp: number;
  topic: string;
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

/** An HTML diff of two renderings (Zulip's highlight_html_differences). */
export type HtmlDiff = (before: string, after: string) => string;

type HistoryMessage = Pick<MessageState, 'content' | 'renderedContent' | 'topic' | 'channelId' | 'senderId' | 'dateSent' | 'editHistory'>;

/**
 * Zulip's fill_edit_history_entries: walking the stored edits newest first, each snapshot holds
 * the state after that edit plus what it changed; the original message comes last. Topics are
 * shown as `displayTopic` says (a direct message's topic is always "").
 */
export function editSnapshots(m: HistoryMessage, allowEmptyTopicName: boolean, diff: HtmlDiff): EditSnapshot[] {
  const isChannel = m.channelId !== null;
  const shown = (t: string) => (isChannel ? displayTopic(t, allowEmptyTopicName) : '');
  let content = m.content;
  let rendered = m.renderedContent;
  let topic = shown(m.topic);
  const out: EditSnapshot[] = [];
  for (const e of m.editHistory as readonly EditHistoryEntry[]) {
    const s: EditSnapshot = { content, rendered_content: rendered, timestamp: e.timestamp, topic, user_id: e.user_id };
    if (e.prev_topic !== undefined) {
      topic = shown(e.prev_topic);
      s.prev_topic = topic;
    }
    if (e.prev_content !== undefined) {
      s.prev_content = e.prev_content;
      content = e.prev_content;
      s.prev_rendered_content = e.prev_rendered_content ?? '';
      rendered = s.prev_rendered_content;
      s.content_html_diff = diff(rendered, s.rendered_content);
    }
    if (e.prev_stream !== undefined) Object.assign(s, { prev_stream: e.prev_stream, stream: e.stream });
    out.push(s);
  }
  out.push({ content, rendered_content: rendered, timestamp: Math.floor(m.dateSent.getTime() / 1000), topic, user_id: m.senderId });
  return out;
}

/**
 * Zulip's visible_edit_history_for_message: under the "moves" policy a content edit is shown
 * only when it also changed the topic, and then without its content fields; the rest stays.
 */
export function visibleSnapshots(policy: number, snapshots: readonly EditSnapshot[]): EditSnapshot[] {
  if (policy === EditHistoryVisibility.all) return [...snapshots];
  const visible: EditSnapshot[] = [];
  for (const s of snapshots) {
    if (s.prev_content !== undefined) {
      if (s.prev_topic === undefined) continue;
      const { prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...rest } = s;
      visible.push(rest);
      continue;
    }
    visible.push(s);
  }
  return visible;
}

/** The `message_history` of GET /messages/{id}/history: visible snapshots, oldest first. */
export function messageHistory(m: HistoryMessage, policy: number, allowEmptyTopicName: boolean, diff: HtmlDiff): EditSnapshot[] {
  return visibleSnapshots(policy, editSnapshots(m, allowEmptyTopicName, diff)).reverse();
}
