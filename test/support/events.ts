import { expect } from 'vitest';
import { type Account, expectSuccess, type TestApp } from './test-app.js';

type Event = Record<string, unknown> & { id: number; type: string };

/** A registered event queue of one account, read with dont_block (the events are journaled at COMMIT and fanned out right after). */
export class EventClient {
  lastEventId = -1;
  readonly state: Record<string, unknown>;

  private constructor(
    private readonly t: TestApp,
    readonly as: Account,
    readonly queueId: string,
    state: Record<string, unknown>,
  ) {
    this.state = state;
  }

  static async register(t: TestApp, as: Account, params: Record<string, unknown> = {}): Promise<EventClient> {
    const res = await t.post('register', { as, form: params });
    expectSuccess(res);
    return new EventClient(t, as, res.body.queue_id, res.body);
  }

  /** Waits (bounded) until the queue holds at least one event past the last one read, and acknowledges them. */
  async next(): Promise<Event[]> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const res = await this.t.get('events', { as: this.as, query: { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: true } });
      expectSuccess(res);
      const events = (res.body.events as Event[]).filter((e) => e.type !== 'heartbeat');
      if (events.length > 0) {
        this.lastEventId = events[events.length - 1].id;
        return events;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return [];
  }

  /** Events of these types (others are read and dropped), waiting for at least `count`. */
  async ofType(type: string, count = 1): Promise<Event[]> {
    const found: Event[] = [];
    for (let attempt = 0; attempt < 20 && found.length < count; attempt++) {
      found.push(...(await this.next()).filter((e) => e.type === type));
    }
    return found;
  }

  /** Everything queued right now, without waiting (to assert that nothing arrived). */
  async drain(): Promise<Event[]> {
    const res = await this.t.get('events', { as: this.as, query: { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: true } });
    expectSuccess(res);
    const events = res.body.events as Event[];
    if (events.length > 0) this.lastEventId = events[events.length - 1].id;
    return events.filter((e) => e.type !== 'heartbeat');
  }
}

/** Registers one queue per account (same parameters). */
export async function registerAll(t: TestApp, accounts: Account[], params: Record<string, unknown> = {}): Promise<EventClient[]> {
  const out: EventClient[] = [];
  for (const a of accounts) out.push(await EventClient.register(t, a, params));
  return out;
}

/** Every client got exactly these events (ids aside), in order. */
export async function expectAllGot(cs: EventClient[], expected: Record<string, unknown>[]): Promise<void> {
  for (const c of cs) {
    const got: Record<string, unknown>[] = [];
    while (got.length < expected.length) {
      const batch = await c.next();
      if (batch.length === 0) break;
      got.push(...batch);
    }
    expect(got.map(({ id: _id, ...e }) => e)).toEqual(expected);
  }
}
