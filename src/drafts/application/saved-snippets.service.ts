import { savedSnippetDoesNotExist } from '@app/domain/drafts';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { presentSavedSnippet } from './draft.views.js';
import { DraftQueries, type SavedSnippetRecord } from './draft.ports.js';

/** Saved snippets (spec 13 §2): a user's reusable message texts. Title and content arrive checked. */
@Injectable()
export class SavedSnippetsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: DraftQueries,
    private readonly clock: Clock,
  ) {}

  listSavedSnippets(actor: Actor): Promise<SavedSnippetRecord[]> {
    return this.queries.savedSnippets(actor.realmId, actor.userId);
  }

  createSavedSnippet(actor: Actor, title: string, content: string): Promise<number> {
    const now = this.clock.now();
    return this.uow.run(async (tx) => {
      const id = await tx.savedSnippets.insert({ realmId: actor.realmId, userId: actor.userId, title, content, now });
      const snippet = presentSavedSnippet({ id, title, content, dateCreated: now });
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'saved_snippets', op: 'add', saved_snippet: snippet }, userIds: [actor.userId] }]);
      return id;
    });
  }

  /** Neither field given: nothing to do, not even an existence check (as Zulip). */
  async editSavedSnippet(actor: Actor, snippetId: number, change: { title?: string; content?: string }): Promise<void> {
    if (change.title === undefined && change.content === undefined) return;
    await this.uow.run(async (tx) => {
      if (!(await tx.savedSnippets.lockOwned(actor.realmId, actor.userId, snippetId))) throw savedSnippetDoesNotExist();
      const snippet = presentSavedSnippet(await tx.savedSnippets.update(actor.realmId, snippetId, change));
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'saved_snippets', op: 'update', saved_snippet: snippet }, userIds: [actor.userId] }]);
    });
  }

  async deleteSavedSnippet(actor: Actor, snippetId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      if (!(await tx.savedSnippets.lockOwned(actor.realmId, actor.userId, snippetId))) throw savedSnippetDoesNotExist();
      await tx.savedSnippets.delete(actor.realmId, snippetId);
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'saved_snippets', op: 'remove', saved_snippet_id: snippetId }, userIds: [actor.userId] }]);
    });
  }
}
