import { type Actor, isGuest } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { EventQueues } from './event-queues.js';
import type { QueueOptions } from './queue-record.js';

/** Opens an actor's event queue (POST /register, and GET /events without a queue). */
@Injectable()
export class QueueOpener {
  constructor(private readonly queues: EventQueues) {}

  /**
   * Creates the queue with the database's current snapshot: events of transactions it sees as
   * committed belong to the state the caller reads next, later ones reach the queue.
   */
  open(actor: Actor, o: Omit<QueueOptions, 'readsPublicChannels'>): Promise<{ id: string; timeoutSecs: number }> {
    return this.queues.create(actor.userId, actor.realmId, { ...o, readsPublicChannels: !isGuest(actor.role) });
  }
}
