import { Writable } from 'node:stream';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { ServerMetrics } from '../../../src/app/metrics/server-metrics.js';
import { createLogger } from '../../../src/shared/logging/logger.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, TestApp } from '../../support/test-app.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** Every line the app logs. */
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

let t: TestApp;
let member: Account;

async function scrape(app: TestApp = t): Promise<ReturnType<typeof parse> & { text: string }> {
  const res = await app.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(res.status, res.text).toBe(200);
  return { ...parse(res.text), text: res.text };
}

/** The value of one sample (0 when absent), its labels matching `labels`. */
function value(s: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = s.filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return found.reduce((sum, x) => sum + x.value, 0);
}

/** Other server processes on the same database (closing one breaks `t`'s pool: they are closed last, before it). */
const peers: TestApp[] = [];
async function peer(env: Record<string, string>): Promise<TestApp> {
  const p = await t.startPeer(env);
  peers.push(p);
  return p;
}

beforeAll(async () => {
  t = await TestApp.start({ METRICS_TOKEN: TOKEN }, createLogger('info', sink));
  member = await t.createUser();
});
afterAll(async () => {
  for (const p of peers) await p.close();
  await t.close();
});

describe('GET /metrics protection', () => {
  it('answers 401 without a Bearer token (Zulip credentials are not one), 403 with a wrong one, 200 with the right one', async () => {
    const none = await t.http.get('/metrics');
    expectError(none, 401, 'Metrics token required: Authorization: Bearer <METRICS_TOKEN>', 'METRICS_TOKEN_REQUIRED');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    const basic = await t.http.get('/metrics').auth(t.owner.email, t.owner.apiKey);
    expectError(basic, 401, 'Metrics token required: Authorization: Bearer <METRICS_TOKEN>', 'METRICS_TOKEN_REQUIRED');
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(1), 'x']) {
      expectError(await t.http.get('/metrics').set('Authorization', `Bearer ${wrong}`), 403, 'Invalid metrics token', 'INVALID_METRICS_TOKEN');
    }
    const ok = await t.http.get('/metrics').set('Authorization', `bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('answers 404, as an unknown route, when METRICS_TOKEN is not set', async () => {
    const untokened = await peer({});
    const res: Response = await untokened.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expectError(res, 404, 'Not Found', 'NOT_FOUND');
    expect(res.body).toEqual((await untokened.http.get('/no-such-route')).body);
  });
});

describe('metric families', () => {
  it('counts requests and their latency by method, route pattern and status, never by URL', async () => {
    const channel = (await createChannels(t, ['metrics'], { form: { principals: [member.id] } })).metrics;
    const id = await sendToChannel(t, member, channel, 'm', 'hello');
    const before = (await scrape()).samples;
    for (let i = 0; i < 3; i++) expect((await t.get(`messages/${id}`, { as: member })).status).toBe(200);
    expect((await t.get('messages/999999', { as: member })).status).toBe(400);
    expect((await t.http.get('/no/such/path-secret-xyz?api_key=abc')).status).toBe(404);
    const { samples, types, text } = await scrape();
    const route = { method: 'GET', route: '/api/v1/messages/:message_id' };
    expect(value(samples, 'svc_http_requests_total', { ...route, status: '200' }) - value(before, 'svc_http_requests_total', { ...route, status: '200' })).toBe(3);
    expect(value(samples, 'svc_http_requests_total', { ...route, status: '400' }) - value(before, 'svc_http_requests_total', { ...route, status: '400' })).toBe(1);
    expect(value(samples, 'svc_http_request_duration_seconds_count', { ...route, status: '200' })).toBe(value(samples, 'svc_http_requests_total', { ...route, status: '200' }));
    expect(value(samples, 'svc_http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' })).toBe(value(samples, 'svc_http_requests_total', { ...route, status: '200' }));
    expect(value(samples, 'svc_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).toBeGreaterThanOrEqual(1);
    // Bounded cardinality: no raw URL, id or query string in any label.
    expect(text).not.toContain(`/messages/${id}`);
    expect(text).not.toContain('path-secret-xyz');
    expect(text).not.toContain('api_key=');
    for (const s of samples.filter((x) => x.name.startsWith('svc_http_'))) expect(Object.keys(s.labels).filter((k) => k !== 'le').sort()).toEqual(['method', 'route', 'status']);
    expect(types.get('svc_http_requests_total')).toBe('counter');
    expect(types.get('svc_http_request_duration_seconds')).toBe('histogram');
    // The default process metrics.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(types.has(name), name).toBe(true);
    }
  });

  it('counts messages sent (each once, after COMMIT; refused sends not at all)', async () => {
    const before = value((await scrape()).samples, 'svc_messages_sent_total');
    await sendDirect(t, member, [t.owner.id], 'one');
    await sendDirect(t, t.owner, [member.id], 'two');
    expect((await t.post('messages', { as: member, form: { type: 'stream', to: 'nowhere', topic: 'x', content: 'no' } })).status).toBe(400);
    expect(value((await scrape()).samples, 'svc_messages_sent_total') - before).toBe(2);
  });

  it('counts the events delivered by GET /events, and reports open queues and waiting polls', async () => {
    const reg = await t.post('register', { as: member, form: { event_types: ['message'] } });
    const queueId = reg.body.queue_id as string;
    const s1 = (await scrape()).samples;
    const [{ n }] = await t.sql(`SELECT count(*)::int AS n FROM event_queues`);
    expect(value(s1, 'svc_event_queues')).toBe(n);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(value(s1, 'svc_event_polls_waiting')).toBe(0);

    // A blocking poll waits here until a message arrives.
    const poll = t.get('events', { as: member, query: { queue_id: queueId, last_event_id: -1 } }).then((r) => r);
    let waiting = 0;
    for (let i = 0; i < 200 && waiting === 0; i++) waiting = value((await scrape()).samples, 'svc_event_polls_waiting');
    expect(waiting).toBe(1);
    const before = (await scrape()).samples;
    const delivered = value(before, 'svc_events_delivered_total');
    lines.length = 0;
    await sendDirect(t, t.owner, [member.id], 'wake up');
    const res = await poll;
    expect(res.status).toBe(200);
    const events = res.body.events as unknown[];
    expect(events.length).toBeGreaterThanOrEqual(1);
    const s2 = (await scrape()).samples;
    expect(value(s2, 'svc_events_delivered_total') - delivered).toBe(events.length);
    expect(value(s2, 'svc_event_polls_waiting')).toBe(0);
    // Answered before Express (event-poll-route.ts), and yet counted, timed and logged once under
    // its route pattern, with the headers every answer carries.
    const route = { method: 'GET', route: '/api/v1/events', status: '200' };
    expect(value(s2, 'svc_http_requests_total', route) - value(before, 'svc_http_requests_total', route)).toBe(1);
    expect(value(s2, 'svc_http_request_duration_seconds_count', route) - value(before, 'svc_http_request_duration_seconds_count', route)).toBe(1);
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.route === '/api/v1/events');
    expect(logged).toEqual([expect.objectContaining({ method: 'GET', status: 200, userId: member.id })]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // A poll the route answers (an unknown parameter) after this path handed it to Express: counted once too.
    const handed = await t.get('events', { as: member, query: { queue_id: queueId, last_event_id: -1, dont_block: true, colour: 'red' } });
    expect(handed.body.ignored_parameters_unsupported).toEqual(['colour']);
    const badKey = await t.get('events', { as: { ...member, apiKey: 'x'.repeat(32) }, query: { queue_id: queueId, last_event_id: -1, dont_block: true } });
    expect(badKey.status).toBe(401);
    const s3 = (await scrape()).samples;
    expect(value(s3, 'svc_http_requests_total', route) - value(s2, 'svc_http_requests_total', route)).toBe(1);
    expect(value(s3, 'svc_http_requests_total', { ...route, status: '401' }) - value(s2, 'svc_http_requests_total', { ...route, status: '401' })).toBe(1);
  });

  it('reports the email outbox by status, as counted in the database', async () => {
    expect((await t.post('invites', { form: { invitee_emails: 'metrics-invitee@example.com', stream_ids: [] } })).status).toBe(200);
    const rows = await t.sql(`SELECT status, count(*)::int AS n FROM email_outbox GROUP BY status`);
    const { samples } = await scrape();
    for (const status of ['pending', 'sending', 'sent', 'failed']) {
      expect(value(samples, 'svc_email_outbox', { status }), status).toBe(rows.find((r) => r.status === status)?.n ?? 0);
    }
    expect(value(samples, 'svc_email_outbox', { status: 'pending' })).toBeGreaterThanOrEqual(1);
  });

  it('reports the pool: connections in use and idle, and requests waiting for one', async () => {
    const small = await peer({}); // a server nobody sends requests to
    const pool = (small.app.get(DataSource).driver as unknown as { master: { connect(): Promise<{ release(): void }> } }).master;
    const read = async () => parse(await small.app.get(ServerMetrics).registry.getSingleMetricAsString('svc_db_pool_connections')).samples.concat(
      parse(await small.app.get(ServerMetrics).registry.getSingleMetricAsString('svc_db_pool_waiting')).samples,
    );
    const max = (pool as unknown as { options: { max: number } }).options.max;
    const held: { release(): void }[] = [];
    try {
      for (let i = 0; i < max; i++) held.push(await pool.connect());
      const extra = pool.connect().then((c) => held.push(c));
      const s = await read();
      expect(value(s, 'svc_db_pool_connections', { state: 'in_use' })).toBe(max);
      expect(value(s, 'svc_db_pool_connections', { state: 'idle' })).toBe(0);
      expect(value(s, 'svc_db_pool_waiting')).toBe(1);
      held.shift()!.release();
      await extra;
    } finally {
      for (const c of held.splice(0)) c.release();
    }
    const after = await read();
    expect(value(after, 'svc_db_pool_connections', { state: 'in_use' })).toBe(0);
    expect(value(after, 'svc_db_pool_connections', { state: 'idle' })).toBe(max);
    expect(value(after, 'svc_db_pool_waiting')).toBe(0);
  });
});

describe('the request log line', () => {
  it('logs method, route pattern, status, duration and user id at info; never the URL, query, body or credentials', async () => {
    lines.length = 0;
    const secretQuery = 'query-secret-4711';
    const res = await t.http.get(`/api/v1/users/me?api_key=${secretQuery}&password=${secretQuery}`).auth(member.email, member.apiKey);
    expect(res.status).toBe(200);
    const bad = await t.http.post('/api/v1/fetch_api_key').type('form').send({ username: member.email, password: 'wrong-Passphrase-0815' });
    expect(bad.status).toBe(401);
    const entries = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    const me = entries.find((e) => e.route === '/api/v1/users/me');
    expect(me).toMatchObject({ level: 30, method: 'GET', status: 200, userId: member.id });
    expect(typeof me.ms).toBe('number');
    expect(Object.keys(me).sort(), JSON.stringify(me)).toEqual(['level', 'method', 'ms', 'msg', 'route', 'service', 'status', 'time', 'userId']);
    const login = entries.find((e) => e.route === '/api/v1/fetch_api_key');
    expect(login).toMatchObject({ method: 'POST', status: 401 });
    expect(login).not.toHaveProperty('userId');
    const log = lines.join('\n');
    for (const s of [secretQuery, member.apiKey, 'wrong-Passphrase-0815', Buffer.from(`${member.email}:${member.apiKey}`).toString('base64')]) expect(log).not.toContain(s);
  });
});
