import type { DraftState, ReminderView, ScheduledMessageView } from '@app/domain/drafts';
import type { SavedSnippetRecord } from './draft.ports.js';

/** Zulip's Draft.to_dict: `timestamp` in whole seconds. */
export function presentDraft(d: DraftState) {
  return { id: d.id, type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: Math.trunc(d.timestamp) };
}

export function presentSavedSnippet(s: SavedSnippetRecord) {
  return { id: s.id, title: s.title, content: s.content, date_created: Math.floor(s.dateCreated.getTime() / 1000) };
}

/** Zulip's ScheduledMessage.to_reminder_dict: a direct message to oneself, time in whole seconds. */
export function presentReminder(r: ReminderView) {
  return {
    reminder_id: r.id,
    to: [r.ownerId],
    type: 'private',
    content: r.content,
    rendered_content: r.renderedContent,
    scheduled_delivery_timestamp: Math.floor(r.scheduledAt.getTime() / 1000),
    failed: r.failed,
    reminder_target_message_id: r.targetMessageId,
  };
}

/** Zulip's ScheduledMessage.to_dict: `to` a channel id or user ids, `topic` for channel messages only, time in whole seconds. */
export function presentScheduledMessage(m: ScheduledMessageView) {
  return {
    scheduled_message_id: m.id,
    to: m.to,
    type: m.type,
    content: m.content,
    rendered_content: m.renderedContent,
    ...(m.topic !== undefined ? { topic: m.topic } : {}),
    scheduled_delivery_timestamp: Math.floor(m.scheduledAt.getTime() / 1000),
    failed: m.failed,
  };
}
