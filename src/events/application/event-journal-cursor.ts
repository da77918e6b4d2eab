import { type Actor, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { EventQueues, type QueueOptions } from './event-queues.js';

/** Where the organization's event journal stands, as this process's queues see it. */
export abstract class EventJournalCursor {
  /** The organization's newest event number (and the start of this process's cursor). */
  abstract snapshotSeq(realmId: number): Promise<number>;
}

/** Opens event queues in the order that loses no event between the state and the queue. */
@Injectable()
export class QueueOpener {
  constructor(
    private readonly queues: EventQueues,
    private readonly journal: EventJournalCursor,
  ) {}

  /**
   * Creates the caller's queue, then reads the organization's newest event number: events up
   * to it belong to the state the caller reads next, later ones go into the queue.
   */
  async open(actor: Actor, o: Omit<QueueOptions, 'userId' | 'realmId' | 'readsPublicChannels'>) {
    const queue = this.queues.create({ ...o, userId: actor.userId, realmId: actor.realmId, readsPublicChannels: !isGuest(actor.role) });
    queue.setSnapshot(await this.journal.snapshotSeq(actor.realmId));
    return queue;
  }
}
