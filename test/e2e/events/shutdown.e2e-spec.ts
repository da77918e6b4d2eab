import { Agent, request } from 'node:http';
import { inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer } from '../../support/server-process.js';

/**
 * Issue 13 finding 7: SIGTERM / SIGINT with clients long-polling GET /events. Every waiting poll
 * is answered at once with a heartbeat (as Zulip's heartbeat events look), then the HTTP server,
 * the pool and (if any) the embedded PostgreSQL close: the process exits 0 well before the
 * forced-shutdown timer (SHUTDOWN_TIMEOUT_MS, 10 s), which would exit 1 and log an error.
 */
const DB_NAME = `${TEST_DB_PREFIX}_shutdown_p${process.pid}`;
const PASSWORD = 'owner-Secret-Passphrase-42';
const POLLS = 50;
let databaseUrl: string;

type Json = Record<string, unknown>;

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
});
afterAll(async () => {
  await dropDatabase(inject('adminUrl'), DB_NAME);
});

async function startWithOwner(): Promise<{ server: ServerProcess; auth: string }> {
  const server = await startServer(await freePort(), {
    DATABASE_URL: databaseUrl,
    OWNER_PASSWORD: PASSWORD,
    REMINDER_POLL_INTERVAL_MS: '0',
    LOG_LEVEL: 'info',
    MAX_EVENT_QUEUES_PER_USER: String(POLLS),
  });
  const res = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'owner@example.com', password: PASSWORD }),
  });
  const key = (await res.json()) as Json;
  expect(key.result).toBe('success');
  return { server, auth: `Basic ${Buffer.from(`owner@example.com:${key.api_key as string}`).toString('base64')}` };
}

async function registerQueue(server: ServerProcess, auth: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/register`, {
    method: 'POST',
    headers: { Authorization: auth },
    body: new URLSearchParams({ event_types: JSON.stringify(['message']) }),
  });
  const body = (await res.json()) as Json;
  expect(body.result).toBe('success');
  return body.queue_id as string;
}

interface Answer {
  status: number;
  connection?: string;
  body: Json;
}

interface Poll {
  /** The TCP connection is established (the server's kernel queued it). */
  connected: Promise<void>;
  answer: Promise<Answer>;
}

/** GET /events on a keep-alive connection of its own, as a browser or zulip-js holds it. */
function longPoll(agent: Agent, server: ServerProcess, auth: string, queueId: string): Poll {
  let connected!: () => void;
  const isConnected = new Promise<void>((r) => (connected = r));
  const answer = new Promise<Answer>((resolve, reject) => {
    const query = new URLSearchParams({ queue_id: queueId, last_event_id: '-1' });
    const req = request({ host: '127.0.0.1', port: server.port, path: `/api/v1/events?${query}`, agent, headers: { Authorization: auth } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) as Json }));
      res.on('error', reject);
    });
    req.on('socket', (s) => (s.connecting ? s.once('connect', connected) : connected()));
    req.on('error', reject);
    req.end();
  });
  return { connected: isConnected, answer };
}

/** A GET on a connection of its own (fetch would reuse a kept-alive one): the status. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Lines of the server's output at pino level error or fatal, or plain lines that report an error. */
function errorLines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= 50;
      } catch {
        return /error|took too long/i.test(line);
      }
    });
}

async function shutdownWithWaitingPolls(signal: 'SIGTERM' | 'SIGINT', count: number) {
  const { server, auth } = await startWithOwner();
  const agent = new Agent({ keepAlive: true });
  try {
    const queues = await Promise.all(Array.from({ length: count }, () => registerQueue(server, auth)));
    const polls = queues.map((q) => longPoll(agent, server, auth, q));
    await Promise.all(polls.map((p) => p.connected));
    // The server accepts connections in the order they were established: once a request on a
    // newer connection is answered, every poll's connection has been accepted and its request
    // read (else server.close() would drop it as an idle connection). Some polls may still be
    // authenticating rather than waiting: those are answered at once when they get there.
    expect(await getOnNewConnection(`${server.url}/api/v1/server_settings`)).toBe(200);

    const started = performance.now();
    server.proc.kill(signal);
    // A poll whose connection is cut shows as status 0 with the error, so a failure says which.
    const settled = polls.map((p) => p.answer.catch((err: Error) => ({ status: 0, body: { error: err.message } as Json })));
    const [code, answers] = await Promise.all([server.exited, Promise.all(settled)]);
    console.log(`${signal} with ${count} waiting polls: exit ${code} after ${Math.round(performance.now() - started)} ms`);

    expect(errorLines(server.output())).toEqual([]);
    expect(code).toBe(0);
    for (const [i, a] of answers.entries()) {
      // Connection: close, so no keep-alive connection holds the closing server for its keep-alive timeout.
      expect(a).toMatchObject({ status: 200, connection: 'close' });
      expect(a.body).toEqual({ result: 'success', msg: '', events: [{ type: 'heartbeat', id: 0 }], queue_id: queues[i] });
    }
    expect(server.output()).toContain(`"signal":"${signal}"`);
  } finally {
    agent.destroy();
    if (server.proc.exitCode === null) server.proc.kill('SIGKILL');
  }
}

it(`answers ${POLLS} waiting long-polls with a heartbeat on SIGTERM and exits 0 without the forced-shutdown path`, async () => {
  await shutdownWithWaitingPolls('SIGTERM', POLLS);
}, 60_000);

it('does the same on SIGINT (Ctrl-C)', async () => {
  await shutdownWithWaitingPolls('SIGINT', 5);
}, 60_000);
