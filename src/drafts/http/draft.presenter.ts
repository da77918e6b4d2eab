import type { DraftState } from '@app/domain/drafts';
import type { SavedSnippetRecord } from '../application/draft.ports.js';

/** Zulip's Draft.to_dict: `timestamp` in whole seconds. */
export function presentDraft(d: DraftState) {
  return { id: d.id, type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: Math.trunc(d.timestamp) };
}

export function presentSavedSnippet(s: SavedSnippetRecord) {
  return { id: s.id, title: s.title, content: s.content, date_created: Math.floor(s.dateCreated.getTime() / 1000) };
}
