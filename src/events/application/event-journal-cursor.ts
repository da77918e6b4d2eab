import { type Actor, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { EventQueues, type QueueOptions } from './event-queues.js';
import type { JournalSnapshot } from './journal-snapshot.js';

/** Where the event journal stands, as this process's queues see it. */
export abstract class EventJournalCursor {
  /**
   * The database's current snapshot: the transactions whose events a state read from now on
   * contains. Also starts this process's reading of the journal if it has not started yet.
   */
  abstract snapshot(): Promise<JournalSnapshot>;
}

/** Opens event queues in the order that loses no event between the state and the queue. */
@Injectable()
export class QueueOpener {
  constructor(
    private readonly queues: EventQueues,
    private readonly journal: EventJournalCursor,
  ) {}

  /**
   * Creates the caller's queue, then takes the database's snapshot: events of transactions it
   * sees as committed belong to the state the caller reads next, later ones go into the queue.
   */
  async open(actor: Actor, o: Omit<QueueOptions, 'userId' | 'realmId' | 'readsPublicChannels'>) {
    const queue = this.queues.create({ ...o, userId: actor.userId, realmId: actor.realmId, readsPublicChannels: !isGuest(actor.role) });
    try {
      queue.setSnapshot(await this.journal.snapshot());
    } catch (err) {
      this.queues.delete(queue.id, actor.userId); // a queue without its snapshot would receive events its client may already have
      throw err;
    }
    return queue;
  }
}
