import {
  checkLinkifier,
  checkLinkifierOrder,
  type LinkifierDefinition,
  linkifierNotFound,
  normaliseLinkifier,
} from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { linkifiersEvent } from './realm.events.js';
import { toEveryone } from '../../shared/application/client-event.js';
import { type LinkifierRecord, PatternEngine, RealmQueries } from './realm.ports.js';

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
  /** Absent: unset on creation, unchanged on update. */
  exampleInput?: string;
  reverseTemplate?: string;
  alternativeUrlTemplates?: string[];
}

/**
 * Zulip's notify_linkifiers: the complete list after every change, to all active users (the
 * queues drop it for clients without the linkifier_url_template capability).
 */
async function notifyLinkifiers(tx: Tx, realmId: number): Promise<void> {
  const event = linkifiersEvent(await tx.linkifiers.list(realmId));
  tx.afterCommit(toEveryone(realmId, [event]));
}

/** Linkifiers (spec 22 §1): administrators define them, everyone reads them. */
@Injectable()
export class LinkifiersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: RealmQueries,
    private readonly engine: PatternEngine,
  ) {}

  listLinkifiers(actor: Actor): Promise<LinkifierRecord[]> {
    return this.queries.linkifiers(actor.realmId);
  }

  /** POST /realm/filters. */
  async addLinkifier(actor: Actor, input: LinkifierInput): Promise<number> {
    const linkifier = normaliseLinkifier({
      pattern: input.pattern,
      urlTemplate: input.urlTemplate,
      exampleInput: input.exampleInput ?? null,
      reverseTemplate: input.reverseTemplate ?? null,
      alternativeUrlTemplates: input.alternativeUrlTemplates ?? [],
    });
    return this.uow.run(async (tx) => {
      // Appending reads the last order: serialise with other writers of the list.
      await tx.linkifiers.lockIds(actor.realmId);
      const taken = linkifier.pattern !== '' && (await tx.linkifiers.patternTaken(actor.realmId, linkifier.pattern));
      checkLinkifier(linkifier, this.engine.compile, taken);
      const id = await tx.linkifiers.insert(actor.realmId, linkifier);
      await notifyLinkifiers(tx, actor.realmId);
      return id;
    });
  }

  /** PATCH /realm/filters/{id}: pattern and URL template again; omitted optional fields keep their value. */
  async updateLinkifier(actor: Actor, linkifierId: number, input: LinkifierInput): Promise<void> {
    await this.uow.run(async (tx) => {
      const current = await tx.linkifiers.find(actor.realmId, linkifierId);
      if (current === null) throw linkifierNotFound();
      const linkifier: LinkifierDefinition = normaliseLinkifier({
        pattern: input.pattern,
        urlTemplate: input.urlTemplate,
        exampleInput: input.exampleInput ?? current.exampleInput,
        reverseTemplate: input.reverseTemplate ?? current.reverseTemplate,
        alternativeUrlTemplates: input.alternativeUrlTemplates ?? current.alternativeUrlTemplates,
      });
      const taken =
        linkifier.pattern !== '' && (await tx.linkifiers.patternTaken(actor.realmId, linkifier.pattern, linkifierId));
      checkLinkifier(linkifier, this.engine.compile, taken);
      await tx.linkifiers.update(actor.realmId, linkifierId, linkifier);
      await notifyLinkifiers(tx, actor.realmId);
    });
  }

  /** DELETE /realm/filters/{id}. */
  async removeLinkifier(actor: Actor, linkifierId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      if ((await tx.linkifiers.find(actor.realmId, linkifierId)) === null) throw linkifierNotFound();
      await tx.linkifiers.remove(actor.realmId, linkifierId);
      await notifyLinkifiers(tx, actor.realmId);
    });
  }

  /** PATCH /realm/linkifiers. */
  async reorderLinkifiers(actor: Actor, orderedIds: number[]): Promise<void> {
    await this.uow.run(async (tx) => {
      const existing = await tx.linkifiers.lockIds(actor.realmId);
      checkLinkifierOrder(orderedIds, existing);
      // No linkifiers: nothing to reorder and no event (Zulip returns early).
      if (existing.length > 0) {
        await tx.linkifiers.setOrder(actor.realmId, orderedIds);
        await notifyLinkifiers(tx, actor.realmId);
      }
    });
  }
}
