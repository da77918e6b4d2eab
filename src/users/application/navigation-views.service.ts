import {
  type Actor,
  assertCanAddNavigationView,
  assertCanRenameNavigationView,
  type NavigationView,
  navigationViewChanges,
  navigationViewDoesNotExist,
  navigationViewExists,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';

/** A user's navigation views, in the transaction (every statement names the user). */
export abstract class NavigationViewRepository {
  /** The user's views, in the order they were added. */
  abstract list(userId: number): Promise<NavigationView[]>;
  abstract fragmentTaken(userId: number, fragment: string): Promise<boolean>;
  abstract nameTaken(userId: number, name: string): Promise<boolean>;
  /** The view, its row locked until COMMIT; null when the user has none for this fragment. */
  abstract lock(userId: number, fragment: string): Promise<NavigationView | null>;
  abstract insert(userId: number, view: NavigationView): Promise<void>;
  abstract update(userId: number, fragment: string, changes: { name: string | null; isPinned: boolean | null }): Promise<void>;
  abstract remove(userId: number, fragment: string): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly navigationViews: NavigationViewRepository;
  }
}

/** A navigation view as the API (and its events) show it. */
export const presentNavigationView = (v: NavigationView) => ({ fragment: v.fragment, is_pinned: v.isPinned, name: v.name });

/** Zulip's `navigation_view` events go to the user's own queues only. */
const toOwnQueues = (actor: Actor, event: Record<string, unknown>): ClientEvent => ({
  realmId: actor.realmId,
  event: { type: 'navigation_view', ...event },
  userIds: [actor.userId],
});

/** GET, POST, PATCH and DELETE /navigation_views (Zulip's zerver/views/navigation_views.py). */
@Injectable()
export class NavigationViewsService {
  constructor(private readonly uow: UnitOfWork) {}

  list(actor: Actor): Promise<NavigationView[]> {
    return this.uow.run((tx) => tx.navigationViews.list(actor.userId));
  }

  /** `fragment` and `name` come stripped of surrounding whitespace. */
  async addNavigationView(actor: Actor, view: NavigationView): Promise<void> {
    assertCanAddNavigationView(view.fragment, view.name);
    await this.uow.run(async (tx) => {
      if (await tx.navigationViews.fragmentTaken(actor.userId, view.fragment)) throw navigationViewExists();
      if (view.name !== null && (await tx.navigationViews.nameTaken(actor.userId, view.name))) throw navigationViewExists();
      await tx.navigationViews.insert(actor.userId, view);
      tx.afterCommit([toOwnQueues(actor, { op: 'add', navigation_view: presentNavigationView(view) })]);
    });
  }

  async updateNavigationView(actor: Actor, fragment: string, u: { name: string | null; isPinned: boolean | null }): Promise<void> {
    assertCanRenameNavigationView(fragment, u.name);
    await this.uow.run(async (tx) => {
      if (u.name !== null && (await tx.navigationViews.nameTaken(actor.userId, u.name))) throw navigationViewExists();
      if ((await tx.navigationViews.lock(actor.userId, fragment)) === null) throw navigationViewDoesNotExist();
      await tx.navigationViews.update(actor.userId, fragment, u);
      tx.afterCommit([toOwnQueues(actor, { op: 'update', fragment, data: navigationViewChanges(u) })]);
    });
  }

  async removeNavigationView(actor: Actor, fragment: string): Promise<void> {
    await this.uow.run(async (tx) => {
      if ((await tx.navigationViews.lock(actor.userId, fragment)) === null) throw navigationViewDoesNotExist();
      await tx.navigationViews.remove(actor.userId, fragment);
      tx.afterCommit([toOwnQueues(actor, { op: 'remove', fragment })]);
    });
  }
}
