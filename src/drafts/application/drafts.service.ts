import { pairKey } from '@app/domain/channels';
import type { Viewer } from '@app/domain/channels';
import {
  assertDraftChannelAccessible,
  checkDraft,
  directDraftRecipients,
  Draft,
  draftDoesNotExist,
  type DraftInput,
  type DraftState,
  type ResolvedDraft,
  resolvedDraft,
  ScheduledMessage,
  type ScheduledMessageView,
} from '@app/domain/drafts';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { presentDraft } from './draft.views.js';
import { DraftQueries, type UserListParts, type UserLists } from './draft.ports.js';

/** Resolves drafts' targets for one actor within a transaction (the viewer is loaded once). */
class DraftTargets {
  private viewer: Viewer | null = null;

  constructor(
    private readonly tx: Tx,
    private readonly actor: Actor,
  ) {}

  private async asViewer(): Promise<Viewer> {
    this.viewer ??= { userId: this.actor.userId, role: this.actor.role, groupIds: await this.tx.groups.groupIdsOfUser(this.actor.userId) };
    return this.viewer;
  }

  /** Zulip's further_validated_draft_dict: the pure checks, then channel access or the direct recipients. */
  async resolve(input: DraftInput, nowSeconds: number): Promise<ResolvedDraft> {
    const checked = checkDraft(input, nowSeconds);
    const { realmId, userId } = this.actor;
    switch (checked.target.kind) {
      case 'channel': {
        const channelId = checked.target.channelId;
        const channel = await this.tx.channels.findById(realmId, channelId);
        const rows = channel ? await this.tx.subscriptions.records([userId], [channelId]) : new Map();
        assertDraftChannelAccessible(channel, await this.asViewer(), rows.get(pairKey(userId, channelId))?.active === true);
        return resolvedDraft(checked);
      }
      case 'direct': {
        const found = await this.tx.users.findManyByIds(realmId, checked.target.userIds);
        const facts = new Map([...found].map(([id, u]) => [id, { email: u.email, isActive: u.isActive }]));
        return resolvedDraft(checked, directDraftRecipients(userId, checked.target.userIds, facts));
      }
      case 'none':
        return resolvedDraft(checked);
    }
  }
}

/** Drafts synchronised between a user's clients (spec 13 §1). */
@Injectable()
export class DraftsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: DraftQueries,
    private readonly clock: Clock,
  ) {}

  private nowSeconds(): number {
    return this.clock.now().getTime() / 1000;
  }

  listDrafts(actor: Actor): Promise<DraftState[]> {
    return this.queries.drafts(actor.realmId, actor.userId);
  }

  /**
   * POST /register's drafts, saved snippets, reminders and scheduled messages (those asked
   * for; the others empty) in one read, as listDrafts, SavedSnippetsService.listSavedSnippets,
   * RemindersService.listReminders and ScheduledMessagesService.listScheduledMessages answer them.
   */
  async userLists(actor: Actor, parts: UserListParts): Promise<Omit<UserLists, 'scheduledMessages'> & { scheduledMessages: ScheduledMessageView[] }> {
    const lists = await this.queries.userLists(actor.realmId, actor.userId, parts);
    return { ...lists, scheduledMessages: lists.scheduledMessages.map((s) => ScheduledMessage.restore(s).view()) };
  }

  /** POST /drafts: all or nothing, ids in submission order. */
  async createDrafts(actor: Actor, inputs: readonly DraftInput[]): Promise<number[]> {
    return this.uow.run(async (tx) => {
      const targets = new DraftTargets(tx, actor);
      const now = this.nowSeconds();
      const drafts: Draft[] = [];
      for (const input of inputs) drafts.push(Draft.create(actor.userId, await targets.resolve(input, now)));
      const ids = await tx.drafts.insert(actor.realmId, drafts);
      if (ids.length > 0) {
        const added = drafts.map((d, i) => presentDraft(d.withId(ids[i]).snapshot()));
        tx.afterCommit([{ realmId: actor.realmId, event: { type: 'drafts', op: 'add', drafts: added }, userIds: [actor.userId] }]);
      }
      return ids;
    });
  }

  /** PATCH /drafts/{id}: replaces every field of one of the actor's drafts. */
  async editDraft(actor: Actor, draftId: number, input: DraftInput): Promise<void> {
    await this.uow.run(async (tx) => {
      const draft = await tx.drafts.findOwned(actor.realmId, actor.userId, draftId);
      if (draft === null) throw draftDoesNotExist();
      draft.replaceWith(await new DraftTargets(tx, actor).resolve(input, this.nowSeconds()));
      await tx.drafts.save(actor.realmId, draft);
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'drafts', op: 'update', draft: presentDraft(draft.snapshot()) }, userIds: [actor.userId] }]);
    });
  }

  /** DELETE /drafts/{id}. */
  async deleteDraft(actor: Actor, draftId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const draft = await tx.drafts.findOwned(actor.realmId, actor.userId, draftId);
      if (draft === null) throw draftDoesNotExist();
      await tx.drafts.delete(actor.realmId, draft.id);
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'drafts', op: 'remove', draft_id: draft.id }, userIds: [actor.userId] }]);
    });
  }
}
