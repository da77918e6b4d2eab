/** An event for clients' queues: the payload and the users whose queues receive it. */
export interface ClientEvent {
  readonly event: Record<string, unknown> & { type: string };
  readonly userIds: readonly number[];
}

/** Receives events after their transaction committed (the register/events queues). */
export abstract class EventQueue {
  abstract publish(events: readonly ClientEvent[]): void;
}
