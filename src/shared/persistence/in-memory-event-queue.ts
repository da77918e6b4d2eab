import { Injectable } from '@nestjs/common';
import { type ClientEvent, EventQueue } from '../application/client-event.js';

/**
 * The process-local hand-off point for committed events. Event queues (POST /register,
 * GET /events) subscribe here; with no subscriber an event simply has no audience.
 */
@Injectable()
export class InMemoryEventQueue extends EventQueue {
  private readonly subscribers = new Set<(events: readonly ClientEvent[]) => void>();

  subscribe(fn: (events: readonly ClientEvent[]) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  publish(events: readonly ClientEvent[]): void {
    for (const fn of this.subscribers) fn(events);
  }
}
