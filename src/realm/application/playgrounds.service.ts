import { checkPlayground, normalisePlayground, playgroundNotFound } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { playgroundsEvent } from './realm.events.js';
import { toEveryone } from '../../shared/application/client-event.js';
import { type PlaygroundRecord, RealmQueries } from './realm.ports.js';

/** Zulip's notify_realm_playgrounds: the complete list, to all active users. */
async function notifyPlaygrounds(tx: Tx, realmId: number): Promise<void> {
  const event = playgroundsEvent(await tx.playgrounds.list(realmId));
  tx.afterCommit(toEveryone(realmId, [event]));
}

/** Code playgrounds (spec 22 §2). */
@Injectable()
export class PlaygroundsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: RealmQueries,
  ) {}

  listPlaygrounds(actor: Actor): Promise<PlaygroundRecord[]> {
    return this.queries.playgrounds(actor.realmId);
  }

  /** POST /realm/playgrounds (the language was checked with the parameters). */
  async addPlayground(actor: Actor, raw: { name: string; pygmentsLanguage: string; urlTemplate: string }): Promise<number> {
    const playground = normalisePlayground(raw);
    return this.uow.run(async (tx) => {
      const taken =
        playground.name !== '' &&
        playground.pygmentsLanguage !== '' &&
        (await tx.playgrounds.taken(actor.realmId, playground.pygmentsLanguage, playground.name));
      checkPlayground(playground, taken);
      const id = await tx.playgrounds.insert(actor.realmId, playground);
      await notifyPlaygrounds(tx, actor.realmId);
      return id;
    });
  }

  /** DELETE /realm/playgrounds/{id}. */
  async removePlayground(actor: Actor, playgroundId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      if ((await tx.playgrounds.find(actor.realmId, playgroundId)) === null) throw playgroundNotFound();
      await tx.playgrounds.remove(actor.realmId, playgroundId);
      await notifyPlaygrounds(tx, actor.realmId);
    });
  }
}
