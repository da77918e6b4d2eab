import { ApiError, type ApiClient, type Params } from './client';
import type { RegisterResponse, ServerEvent } from './types';

/** What register asks for: everything, rendered HTML, avatar URLs from the server. */
export const REGISTER_PARAMS: Params = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    simplified_presence_events: true,
  },
};

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting';

export interface EventLoopHandlers {
  /** A queue was registered: the whole state (again after BAD_EVENT_QUEUE_ID: reload everything). */
  onRegistered(state: RegisterResponse, again: boolean): void;
  onEvents(events: ServerEvent[]): void;
  onStatus?(status: ConnectionStatus): void;
}

export interface EventLoopOptions {
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Longest wait between attempts. */
  maxDelayMs?: number;
  /** A poll held longer than this is abandoned and started again. */
  pollTimeoutMs?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential back-off with jitter: 1 s, 2 s, 4 s, … up to `max`, each 75–100 % of that. */
export function backoffDelay(failures: number, random: () => number = Math.random, max = 10_000): number {
  const base = Math.min(max, 1000 * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.75 + 0.25 * random()));
}

/**
 * `POST /json/register`, then long-polls `GET /json/events`: events in order; network and server
 * errors retried with back-off; `BAD_EVENT_QUEUE_ID` (the queue expired or the server lost it)
 * registers again, and the app reloads its state from the new answer.
 */
export class EventLoop {
  private queueId: string | null = null;
  private lastEventId = -1;
  private stopped = false;
  private registered = false;
  private controller: AbortController | null = null;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly maxDelay: number;
  private readonly pollTimeout: number;

  constructor(
    private readonly client: ApiClient,
    private readonly handlers: EventLoopHandlers,
    options: EventLoopOptions = {},
  ) {
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.maxDelay = options.maxDelayMs ?? 10_000;
    this.pollTimeout = options.pollTimeoutMs ?? 90_000;
  }

  get queue(): string | null {
    return this.queueId;
  }

  /** Runs until stop(); resolves then. */
  async run(): Promise<void> {
    let failures = 0;
    this.status(this.registered ? 'reconnecting' : 'connecting');
    while (!this.stopped) {
      try {
        if (this.queueId === null) await this.register();
        else await this.poll();
        if (failures > 0) this.status('connected');
        failures = 0;
      } catch (e) {
        if (this.stopped) return;
        if (e instanceof ApiError && e.code === 'BAD_EVENT_QUEUE_ID') {
          this.queueId = null;
          continue;
        }
        if (e instanceof ApiError && e.status === 401) {
          this.stop();
          return;
        }
        if (e instanceof DOMException && e.name === 'AbortError') continue;
        failures += 1;
        this.status('reconnecting');
        const wait = e instanceof ApiError && e.retryAfter !== undefined ? e.retryAfter * 1000 : backoffDelay(failures, this.random, this.maxDelay);
        await this.sleep(wait);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }

  private status(s: ConnectionStatus): void {
    this.handlers.onStatus?.(s);
  }

  private async register(): Promise<void> {
    const state = await this.client.post<RegisterResponse>('register', REGISTER_PARAMS);
    if (this.stopped) return;
    this.queueId = state.queue_id;
    this.lastEventId = state.last_event_id;
    const again = this.registered;
    this.registered = true;
    this.handlers.onRegistered(state, again);
    this.status('connected');
  }

  private async poll(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const timer = setTimeout(() => controller.abort(), this.pollTimeout);
    let events: ServerEvent[];
    try {
      const res = await this.client.get<{ events: ServerEvent[] }>(
        'events',
        { queue_id: this.queueId!, last_event_id: this.lastEventId },
        { signal: controller.signal },
      );
      events = res.events;
    } finally {
      clearTimeout(timer);
      this.controller = null;
    }
    if (this.stopped) return;
    for (const e of events) if (e.id > this.lastEventId) this.lastEventId = e.id;
    const real = events.filter((e) => e.type !== 'heartbeat');
    if (real.length > 0) this.handlers.onEvents(real);
  }
}
