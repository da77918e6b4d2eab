import { createContext, useContext } from 'react';

/** The compose box's state, kept by the main screen (shortcuts, replies and buttons open it). */
export interface ComposeState {
  open: boolean;
  kind: 'stream' | 'dm';
  streamId: number | null;
  topic: string;
  to: number[];
  content: string;
  /** The field to focus when it opens (a new token each time). */
  focus: { field: 'to' | 'topic' | 'content'; token: number } | null;
}

export const CLOSED_COMPOSE: ComposeState = { open: false, kind: 'stream', streamId: null, topic: '', to: [], content: '', focus: null };

export interface ComposeApi {
  compose: ComposeState;
  update: (f: (c: ComposeState) => ComposeState) => void;
  openStream: (streamId: number | null, topic: string, field?: 'topic' | 'content') => void;
  openDm: (to: number[], field?: 'to' | 'content') => void;
  close: () => void;
  /** Opens compose for the open narrow: its conversation, or its channel and topic. */
  openHere: () => void;
  /** Files dropped or pasted anywhere: uploaded into the compose box. */
  upload: (files: File[]) => void;
  registerUploader: (f: ((files: File[]) => void) | null) => void;
}

export const ComposeContext = createContext<ComposeApi | null>(null);

export function useCompose(): ComposeApi {
  const c = useContext(ComposeContext);
  if (!c) throw new Error('useCompose outside the main screen');
  return c;
}

/** Markdown link text with its brackets escaped. */
export function linkText(name: string): string {
  return name.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

/** The completion a caret position asks for: `@` people or `:` emoji, with the query and where it starts. */
export function completionAt(text: string, caret: number): { kind: 'mention' | 'emoji'; query: string; start: number } | null {
  const before = text.slice(0, caret);
  const mention = /(^|[\s(])@(\*\*)?([^\s@*][^@*\n]{0,30})?$/.exec(before);
  if (mention) {
    const query = mention[3] ?? '';
    return { kind: 'mention', query, start: before.length - query.length - (mention[2] ? 3 : 1) };
  }
  const emoji = /(^|[\s(]):([a-z0-9_+-]{2,})$/i.exec(before);
  if (emoji) return { kind: 'emoji', query: emoji[2], start: before.length - emoji[2].length - 1 };
  return null;
}
