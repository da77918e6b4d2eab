// A poller thread of `npm run load` (node:worker_threads): registers an event queue for each of
// its users, then keeps one long-poll `GET /events` open per user, polling again at once with the
// last event id. Reports every received `message` event to the main thread as (token, user id,
// time received), in batches, and counts everything else (typing and presence events,
// heartbeats, failed polls by status, queues lost and registered again). Between `start` and
// `stop` each user also reports presence every `presenceSeconds`, the users' first reports spread
// evenly over the first period (by their index among all users), as Zulip's clients do with
// `slim_presence` and the `last_update_id` they hold.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';
import { basic, failureLabel, now, request, TOKEN } from './common.mjs';

const REGISTER = {
  event_types: JSON.stringify(['message', 'typing', 'presence']),
  slim_presence: 'true',
  client_capabilities: JSON.stringify({
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    simplified_presence_events: true,
  }),
};

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
// Presence requests on their own agent, a socket for each one in flight (as every client has its
// own connection), idle sockets closed before the server's keep-alive timeout (5 s).
const presenceAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: 3000 });
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let port = 0;
let closing = false;
let deliveries = [];
let clients = [];
const timers = [];
const presenceLatencies = [];
const counts = { events: {}, pollFailures: {}, registerFailures: {}, presenceFailures: {}, queuesLost: 0, polls: 0, unmatched: 0 };
const bump = (table, key) => (table[key] = (table[key] ?? 0) + 1);

parentPort.on('message', (m) => {
  if (m.type === 'init') void init(m);
  if (m.type === 'start') startPresence(m);
  if (m.type === 'stop') for (const t of timers) clearTimeout(t);
  if (m.type === 'close') close();
});

async function init({ users, concurrency, ...o }) {
  port = o.port;
  clients = users.map((u) => ({ id: u.id, index: u.index, auth: basic(u.email, u.apiKey), queueId: null, lastEventId: -1, presenceLastUpdateId: -1 }));
  const registered = [];
  let next = 0;
  const lane = async () => {
    while (next < clients.length) {
      const c = clients[next++];
      if (await register(c)) {
        registered.push(c.id);
        void pollLoop(c);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  setInterval(flush, 50).unref();
  parentPort.postMessage({ type: 'registered', userIds: registered });
}

/** POST /register, retried (3 tries) so that one failure does not lose a client; failures are counted. */
async function register(c) {
  for (let attempt = 0; attempt < 3 && !closing; attempt++) {
    const r = await request(agent, port, 'POST', '/register', { auth: c.auth, form: REGISTER });
    if (r.status === 200) {
      c.queueId = r.json.queue_id;
      c.lastEventId = r.json.last_event_id;
      c.presenceLastUpdateId = r.json.presence_last_update_id ?? -1;
      return true;
    }
    bump(counts.registerFailures, failureLabel('POST /register', r));
    await sleep(1000);
  }
  return false;
}

async function pollLoop(c) {
  while (!closing) {
    const r = await request(agent, port, 'GET', `/events?queue_id=${encodeURIComponent(c.queueId)}&last_event_id=${c.lastEventId}`, {
      auth: c.auth,
      timeoutMs: 120_000, // heartbeats come after 45-55 s
    });
    if (closing) return;
    counts.polls++;
    if (r.status === 200) {
      for (const e of r.json.events) received(c, e, r.at);
      continue;
    }
    bump(counts.pollFailures, failureLabel('GET /events', r));
    if (r.json?.code === 'BAD_EVENT_QUEUE_ID') {
      counts.queuesLost++;
      if (!(await register(c))) return;
    } else {
      await sleep(1000);
    }
  }
}

function received(c, e, at) {
  if (e.id > c.lastEventId) c.lastEventId = e.id;
  bump(counts.events, e.type === 'typing' ? `typing ${e.op}` : e.type);
  if (e.type !== 'message') return;
  const token = TOKEN.exec(e.message.content);
  if (token === null) counts.unmatched++;
  else deliveries.push(Number(token[1]), c.id, at);
}

/** Presence of every registered user every `presenceSeconds`, the first at t0 + index / users of a period. */
function startPresence({ t0, presenceSeconds, users }) {
  const period = presenceSeconds * 1000;
  for (const c of clients) {
    if (c.queueId === null) continue;
    const tick = () => {
      timers.push(setTimeout(tick, period));
      void reportPresence(c);
    };
    timers.push(setTimeout(tick, Math.max(0, t0 + (c.index / users) * period - now())));
  }
}

async function reportPresence(c) {
  const start = now();
  const form = { status: 'active', slim_presence: 'true', last_update_id: String(c.presenceLastUpdateId) };
  const r = await request(presenceAgent, port, 'POST', '/users/me/presence', { auth: c.auth, form });
  if (r.status !== 200) return bump(counts.presenceFailures, failureLabel('POST /users/me/presence', r));
  presenceLatencies.push(r.at - start);
  c.presenceLastUpdateId = r.json.presence_last_update_id ?? c.presenceLastUpdateId;
}

function flush() {
  if (deliveries.length === 0) return;
  parentPort.postMessage({ type: 'deliveries', batch: deliveries });
  deliveries = [];
}

function stats() {
  return { ...counts, presenceLatencies, loopDelayP99: loopDelay.percentile(99) / 1e6, loopDelayMax: loopDelay.max / 1e6 };
}

function close() {
  closing = true;
  flush();
  parentPort.postMessage({ type: 'closed', stats: stats() });
  for (const t of timers) clearTimeout(t);
  agent.destroy();
  presenceAgent.destroy();
  parentPort.close();
}
