import { Agent, request } from 'node:http';
import { inject } from 'vitest';
import { processHoldingConnection, requestOnNewConnection, workerPids } from '../../support/cluster.js';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from '../../support/databases.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';

/**
 * WORKERS=2 (the built server): whichever worker a scrape reaches, GET /metrics answers every
 * worker's metrics, merged by the primary. Which worker serves a connection is read from the
 * kernel (test/support/cluster.ts).
 */
const TOKEN = 'workers-metrics-token-0123456789';
const DB_NAME = `${TEST_DB_PREFIX}_metrics_workers_p${process.pid}`;
let s: ServerProcess;

beforeAll(async () => {
  const databaseUrl = await freshDatabase(inject('adminUrl'), DB_NAME);
  s = await startServer(await freePort(), { WORKERS: '2', DATABASE_URL: databaseUrl, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info', REMINDER_POLL_INTERVAL_MS: '0' });
}, 90_000);
afterAll(async () => {
  if (s && s.proc.exitCode === null) await stopServer(s);
  await dropDatabase(inject('adminUrl'), DB_NAME);
});

/** A scrape on a new connection: the exposition and the worker that served it. */
async function scrape(workers: number[]): Promise<{ text: string; servedBy: number | null }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { text, clientPort, status } = await new Promise<{ text: string; clientPort: number; status: number }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: s.port, path: '/metrics', agent, headers: { Authorization: `Bearer ${TOKEN}` } }, (res) => {
        const clientPort = res.socket.localPort!;
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ text, clientPort, status: res.statusCode! }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status, text).toBe(200);
    return { text, servedBy: await processHoldingConnection(s.port, clientPort, workers) };
  } finally {
    agent.destroy();
  }
}

const sample = (text: string, line: RegExp): number => Number(line.exec(text)?.[1] ?? 'NaN');

it('answers every worker’s requests, counted once, whichever worker the scrape reaches', { timeout: 120_000 }, async () => {
  const workers = await workerPids(s.proc.pid!);
  expect(workers).toHaveLength(2);
  const servedSettings = new Set<number | null>();
  const N = 8;
  for (let i = 0; i < N; i++) {
    const r = await requestOnNewConnection(s.port, '/api/v1/server_settings', workers);
    expect(r.status).toBe(200);
    servedSettings.add(r.servedBy);
  }
  expect(servedSettings).toEqual(new Set(workers)); // both workers answered some

  const scrapedBy = new Set<number | null>();
  const counted = new Set<number>();
  for (let i = 0; i < 6; i++) {
    const { text, servedBy } = await scrape(workers);
    scrapedBy.add(servedBy);
    counted.add(sample(text, /^svc_http_requests_total\{method="GET",route="\/api\/v1\/server_settings",status="200"\} (\S+)$/m));
    // The pools of both workers, summed; the database's counts once.
    expect(text).toMatch(/^svc_db_pool_connections\{state="idle"\} \d+$/m);
    expect(text).toMatch(/^svc_event_queues 0$/m);
    expect(text).toMatch(/^svc_email_outbox\{status="pending"\} 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  }
  expect(scrapedBy).toEqual(new Set(workers));
  expect([...counted]).toEqual([N]);
  expect(await stopServer(s)).toBe(0);
  const problems = s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 40);
  expect(problems).toEqual([]);
});
