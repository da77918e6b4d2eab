import { type Actor, assertCanMute, assertCanUnmute, assertNotMutingSelf, type MutedUserEntry, userAlreadyMuted, userNotMuted } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { mutedUsersEvent } from './muted-users.events.js';
import { MutedSenderMessages, MutedUserQueries } from './muted-users.ports.js';

/** Muted users (Zulip's zerver/views/muted_users.py and zerver/actions/muted_users.py). */
@Injectable()
export class MutedUsersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: MutedUserQueries,
    private readonly mutedSenderMessages: MutedSenderMessages,
    private readonly clock: Clock,
  ) {}

  /** Register's `muted_users`. */
  listMutedUsers(actor: Actor): Promise<MutedUserEntry[]> {
    return this.queries.list(actor.realmId, actor.userId);
  }

  /**
   * POST /users/me/muted_users/{id}: mutes, marks the muted user's messages to the caller read
   * (with its `update_message_flags` event), then tells the caller's queues the whole list.
   */
  async muteUser(actor: Actor, mutedUserId: number): Promise<void> {
    assertNotMutingSelf(actor, mutedUserId);
    await this.uow.run(async (tx) => {
      const target = assertCanMute(actor, await tx.users.findById(actor.realmId, mutedUserId));
      if (!(await tx.mutedUsers.add(actor.realmId, actor.userId, target.id, this.clock.now()))) throw userAlreadyMuted();
      await this.mutedSenderMessages.markRead(tx, actor.realmId, actor.userId, target.id);
      await this.announce(tx, actor);
    });
  }

  /** DELETE /users/me/muted_users/{id}. Messages marked read by the mute stay read. */
  async unmuteUser(actor: Actor, mutedUserId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const target = assertCanUnmute(actor, await tx.users.findById(actor.realmId, mutedUserId));
      if (!(await tx.mutedUsers.remove(actor.realmId, actor.userId, target.id))) throw userNotMuted();
      await this.announce(tx, actor);
    });
  }

  private async announce(tx: Tx, actor: Actor): Promise<void> {
    tx.afterCommit([mutedUsersEvent(actor.realmId, actor.userId, await tx.mutedUsers.list(actor.realmId, actor.userId))]);
  }
}
