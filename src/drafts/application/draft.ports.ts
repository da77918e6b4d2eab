import type { Draft, DraftState } from '@app/domain/drafts';

export abstract class DraftRepository {
  /** Stores new drafts in one statement; ids come back in the order given. */
  abstract insert(realmId: number, drafts: readonly Draft[]): Promise<number[]>;
  /** The owner's draft (null when missing or someone else's), locked for update. */
  abstract findOwned(realmId: number, ownerId: number, draftId: number): Promise<Draft | null>;
  abstract save(realmId: number, draft: Draft): Promise<void>;
  abstract delete(realmId: number, draftId: number): Promise<void>;
}

export interface SavedSnippetRecord {
  id: number;
  title: string;
  content: string;
  dateCreated: Date;
}

/** Saved snippets take the thin path: no aggregate, just rows of their owner. */
export abstract class SavedSnippetRepository {
  abstract insert(s: { realmId: number; userId: number; title: string; content: string; now: Date }): Promise<number>;
  /** Locks the owner's snippet; false when missing or someone else's. */
  abstract lockOwned(realmId: number, userId: number, snippetId: number): Promise<boolean>;
  abstract update(realmId: number, snippetId: number, change: { title?: string; content?: string }): Promise<void>;
  abstract delete(realmId: number, snippetId: number): Promise<void>;
}

export abstract class DraftQueries {
  /** The user's drafts, oldest edit first. */
  abstract drafts(realmId: number, userId: number): Promise<DraftState[]>;
  /** The user's saved snippets by id. */
  abstract savedSnippets(realmId: number, userId: number): Promise<SavedSnippetRecord[]>;
}
