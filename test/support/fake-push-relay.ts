import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelayRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the fake answers: a status and a JSON body, or no answer at all (`hang`). */
export type RelayReply = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'hang';

type RelayEndpoint = 'register' | 'notify' | 'test_notification';
const pathOf = (endpoint: RelayEndpoint): string =>
  endpoint === 'test_notification' ? '/api/v1/remotes/push/test_notification' : `/api/v1/remotes/push/e2ee/${endpoint}`;

export const SUCCESS: RelayReply = { status: 200, body: { result: 'success', msg: '' } };

/**
 * A push relay on 127.0.0.1 (random port) that records every request and answers as told.
 * `stop()` leaves its port without a listener (connection refused); `start()` listens again on
 * the same port.
 */
export class FakePushRelay {
  readonly requests: RelayRequest[] = [];
  /** Per endpoint path (e.g. `/api/v1/remotes/push/e2ee/notify`); unknown paths get 404. */
  readonly replies = new Map<string, RelayReply>();
  private server: Server | null = null;
  private held: ServerResponse[] = [];
  port = 0;

  static async create(): Promise<FakePushRelay> {
    const relay = new FakePushRelay();
    relay.reset();
    await relay.start();
    return relay;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Default answers: success everywhere, no device expired. */
  reset(): void {
    for (const res of this.held.splice(0)) res.destroy();
    this.requests.length = 0;
    this.replies.clear();
    this.replies.set('/api/v1/remotes/push/e2ee/register', SUCCESS);
    this.replies.set('/api/v1/remotes/push/test_notification', SUCCESS);
    this.replies.set('/api/v1/remotes/push/e2ee/notify', {
      status: 200,
      body: { result: 'success', msg: '', android_successfully_sent_count: 0, apple_successfully_sent_count: 0, delete_device_ids: [] },
    });
  }

  /** `register` and `notify` are the E2EE endpoints; `test_notification` the legacy tokens' one. */
  answer(endpoint: RelayEndpoint, reply: RelayReply): void {
    this.replies.set(pathOf(endpoint), reply);
  }

  requestsTo(endpoint: RelayEndpoint): RelayRequest[] {
    return this.requests.filter((r) => r.path === pathOf(endpoint));
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        this.requests.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const reply = this.replies.get(path) ?? { status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } };
        if (reply === 'hang') {
          this.held.push(res);
          return;
        }
        const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
        res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
        res.end(text);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const res of this.held.splice(0)) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
