// Load test with live users, on this machine, over loopback only: builds (npm run load), starts
// the server (on DATABASE_URL, else an embedded PostgreSQL in a temporary directory) with rate
// limits off, adds LOAD_USERS users (SQL, as POST /users would store them: the user row with
// an API key, system-group memberships, default-channel subscriptions) and channels of 10 / 100
// / LOAD_USERS subscribers (POST /users/me/subscriptions with principals). Poller threads
// (scripts/load/pollers.mjs) register one event queue per user and keep a long-poll open for
// each; each user reports presence every 60 s (spread out). Then for LOAD_SECONDS this thread
// sends LOAD_RATE messages/s (open loop) from random users into the channels and direct
// messages, and typing notifications at LOAD_TYPING_RATE. Measures send round trips, delivery
// latency (send request start → the recipient's poll answered with the message) for every
// (message, recipient) pair, losses, duplicates, HTTP errors, server RSS and CPU, PostgreSQL's
// and the generator's CPU. Bounded: LOAD_RATE × LOAD_SECONDS messages, then LOAD_GRACE_SECONDS
// for stragglers. Exits 0 whatever the figures (a measurement); non-zero only if the run broke.
//   npm run load         LOAD_USERS=200 LOAD_SECONDS=30 npm run load
//   LOAD_PROFILE_DIR=d   runs the server under node --cpu-prof, writing its profile into d at exit
//   WORKERS=2            runs the server as two processes sharing the port (node:cluster); its RSS
//                        and CPU are then those of all its processes
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { basic, failureLabel, now, request } from './load/common.mjs';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const settings = {
  users: env('LOAD_USERS', 1000),
  seconds: env('LOAD_SECONDS', 300),
  rate: env('LOAD_RATE', 20),
  typingRate: env('LOAD_TYPING_RATE', 5),
  presenceSeconds: env('LOAD_PRESENCE_SECONDS', 60),
  graceSeconds: env('LOAD_GRACE_SECONDS', 5),
  workers: env('LOAD_WORKERS', 2),
  port: env('LOAD_PORT', 9881),
  maxInFlight: env('LOAD_MAX_IN_FLIGHT', 200),
  // Typing notifications in flight at once, the rest skipped; 0 = no cap. (A cap of 4 hid a
  // deadlock this script found, fixed since: POST /typing asked the pool for a second connection
  // inside its transaction, and DB_POOL_SIZE of them at once wedged the server.)
  typingMaxInFlight: env('LOAD_TYPING_MAX_IN_FLIGHT', 0),
};
/** Where messages go: share of sends per target (channels by subscriber count, direct messages by recipient count). */
const MIX = [
  { target: 'channel', size: 1000, share: 0.06 },
  { target: 'channel', size: 100, share: 0.24 },
  { target: 'channel', size: 10, share: 0.3 },
  { target: 'direct', size: 1, share: 0.2 },
  { target: 'direct', size: 2, share: 0.2 },
];
const TARGETS = { sendP99: 100, deliveryP99: 200, rssMiB: 1024 };
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const runId = Date.now().toString(36);
const setupAgent = new http.Agent({ keepAlive: true, maxSockets: 8, timeout: 3000 });

printSettings();
const dataDir = await mkdtemp(join(tmpdir(), 'svc-load-'));
await chmod(dataDir, 0o755);
const databaseUrl = process.env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${settings.port + 1}/svc`;
let server = null;
const workers = [];
let exitCode = 0;
// Whatever happens to this process, the server it started does not outlive it.
process.on('exit', () => server?.exitCode === null && server.kill('SIGKILL'));
const abort = (why, code) => {
  console.error(`load run stopped: ${why}`);
  void stopServer(server)
    .then(() => rm(dataDir, { recursive: true, force: true }))
    .finally(() => process.exit(code));
};
process.on('uncaughtException', (err) => abort(err.stack, 1));
process.on('SIGINT', () => abort('SIGINT', 130));
process.on('SIGTERM', () => abort('SIGTERM', 143));
try {
  server = await startServer();
  console.log(`server pid ${server.pid} on 127.0.0.1:${settings.port}`);
  const org = await setUp();
  const report = await run(org);
  printReport(report);
} catch (err) {
  console.error('load run failed:', err);
  exitCode = 1;
} finally {
  await Promise.all(workers.map((w) => w.terminate()));
  await stopServer(server);
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

function printSettings() {
  const mix = MIX.map((m) => `${Math.round(m.share * 100)}% ${m.target === 'channel' ? `channel of ${Math.min(m.size, settings.users)}` : `DM to ${m.size}`}`).join(', ');
  console.log('load test settings');
  for (const [k, v] of Object.entries(settings)) console.log(`  ${k.padEnd(16)} ${v}`);
  console.log(`  ${'mix'.padEnd(16)} ${mix}`);
  console.log(`  ${'server workers'.padEnd(16)} ${process.env.WORKERS ?? '1'} (WORKERS)`);
  console.log(`  ${'database'.padEnd(16)} ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL in a temporary directory'}`);
  console.log(`  machine          ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; server, PostgreSQL and this generator share them\n`);
}

// ---------------------------------------------------------------------------------------------
// Server process

function startServer() {
  // LOAD_PROFILE_DIR: the server runs under node --cpu-prof and writes its profile there at exit
  // (summarize it with `node bench/profile-summary.mjs <file>`).
  const profile = process.env.LOAD_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.LOAD_PROFILE_DIR] : [];
  const child = spawn(process.execPath, [...profile, 'dist/src/main.js'], {
    env: {
      ...process.env,
      RATE_LIMITING: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PORT: String(settings.port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(settings.port + 1),
      OWNER_PASSWORD: 'load-Owner-passphrase-1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Server listening')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

async function stopServer(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

// ---------------------------------------------------------------------------------------------
// The organization's data

/** Users in SQL (as POST /users stores them), channels through the API. */
async function setUp() {
  const started = now();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let users;
  let owner;
  try {
    [owner] = (await db.query(`SELECT id, realm_id, email, api_key FROM users WHERE role = 100 AND NOT is_bot AND is_active ORDER BY id LIMIT 1`)).rows;
    users = await insertUsers(db, owner.realm_id, owner.id);
  } finally {
    await db.end();
  }
  const ownerAuth = basic(owner.email, owner.api_key);
  const ids = users.map((u) => u.id);
  const order = shuffled(ids, 1);
  const channels = [];
  for (const size of [...new Set(MIX.filter((m) => m.target === 'channel').map((m) => m.size))]) {
    const members = size >= ids.length ? ids : order.slice(0, size).sort((a, b) => a - b);
    const name = `load-${runId}-${size}`; // named by the target size; fewer members when LOAD_USERS is smaller
    const r = await request(setupAgent, settings.port, 'POST', '/users/me/subscriptions', {
      auth: ownerAuth,
      form: { subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify(members) },
    });
    if (r.status !== 200) throw new Error(`creating ${name}: ${r.status} ${JSON.stringify(r.json)}`);
    const id = (await request(setupAgent, settings.port, 'GET', `/get_stream_id?stream=${encodeURIComponent(name)}`, { auth: ownerAuth })).json.stream_id;
    channels.push({ size, id, name, members, set: new Set(members) });
    // Reshuffle so that the channels' members differ (not nested).
    order.splice(0, order.length, ...shuffled(order, size + 2));
  }
  console.log(`setup: ${users.length} users (SQL), channels ${channels.map((c) => `${c.name} (${c.members.length})`).join(', ')} in ${Math.round(now() - started)} ms`);
  return { users, channels };
}

/**
 * LOAD_USERS members in one transaction, stored as POST /users stores them (NewAccounts.insert
 * and the default channels): the row with a 32-character API key, the system groups of a member
 * (role:members, and role:fullmembers when the waiting period is 0), a subscription to every
 * default channel in the colours a new user gets (those of the owner, who joined them new).
 */
async function insertUsers(db, realmId, ownerId) {
  const emails = Array.from({ length: settings.users }, (_, i) => `load-${runId}-${i}@example.com`);
  const keys = emails.map(() => apiKey());
  await db.query('BEGIN');
  const rows = (
    await db.query(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role, date_joined, default_language)
       SELECT $1, e, e, 'Load ' || n, k, 400, now(), r.default_language
       FROM realms r, unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(e, k, n) WHERE r.id = $1
       RETURNING id, email, api_key`,
      [realmId, emails, keys],
    )
  ).rows;
  const ids = rows.map((r) => r.id);
  await db.query(
    `INSERT INTO user_group_members (group_id, user_id, realm_id)
     SELECT g.id, u, $1 FROM user_groups g JOIN realms r ON r.id = g.realm_id, unnest($2::int[]) u
     WHERE g.realm_id = $1 AND g.is_system_group
       AND (g.name = 'role:members' OR (g.name = 'role:fullmembers' AND r.waiting_period_threshold = 0))`,
    [realmId, ids],
  );
  await db.query(
    `INSERT INTO subscriptions (realm_id, user_id, channel_id, color)
     SELECT $1, u, d.channel_id, coalesce(s.color, '#76ce90')
     FROM default_channels d LEFT JOIN subscriptions s ON s.channel_id = d.channel_id AND s.user_id = $3, unnest($2::int[]) u
     WHERE d.realm_id = $1`,
    [realmId, ids, ownerId],
  );
  await db.query('COMMIT');
  return rows.map((r) => ({ id: r.id, email: r.email, apiKey: r.api_key }));
}

/** An API key as the server makes them: 32 characters of [A-Za-z0-9]. */
function apiKey() {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let key = '';
  for (const b of globalThis.crypto.getRandomValues(new Uint8Array(64))) {
    if (b < 248) key += alphabet[b % 62];
    if (key.length === 32) return key;
  }
  return apiKey();
}

/** A reproducible shuffle (mulberry32 seeded with `seed`). */
function shuffled(xs, seed) {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The run

async function run({ users, channels }) {
  const sendAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: 3000 });
  const byId = new Map(users.map((u, i) => [u.id, { ...u, index: i, auth: basic(u.email, u.apiKey) }]));
  const registered = await startPollers(users);
  const live = new Set(registered);
  console.log(`${live.size} of ${users.length} users hold an event queue with a long-poll open`);

  const state = {
    messages: [null], // by token (1…): { t0, expected: Set of user ids, received: Set, ok: null while unanswered, true, false, or 'unknown' (timed out) }
    sendLatencies: [],
    deliveryLatencies: [],
    /** Send and delivery latencies by destination (MIX). */
    byKind: {},
    httpFailures: {},
    requests: { send: 0, typing: 0 },
    skipped: 0,
    typingInFlight: 0,
    typingSkipped: 0,
    inFlight: 0,
    duplicates: 0,
    unexpected: 0,
    afterTimeout: 0,
  };
  for (const w of workers) w.on('message', (m) => m.type === 'deliveries' && delivered(state, m.batch));

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const rss = rssSampler();
  const cpuStart = await cpuSnapshot();
  const t0 = now();
  for (const w of workers) w.postMessage({ type: 'start', t0, presenceSeconds: settings.presenceSeconds, users: users.length });
  const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
  const fail = (endpoint, r) => (state.httpFailures[failureLabel(endpoint, r)] = (state.httpFailures[failureLabel(endpoint, r)] ?? 0) + 1);

  const send = async () => {
    if (state.inFlight >= settings.maxInFlight) return void state.skipped++;
    const m = MIX[pickShare(MIX)];
    let form;
    let expected;
    let sender;
    if (m.target === 'channel') {
      const c = channels.find((x) => x.size === m.size);
      sender = byId.get(pick(c.members));
      expected = c.set;
      form = { type: 'stream', to: String(c.id), topic: `topic ${Math.floor(Math.random() * 10)}` };
    } else {
      sender = byId.get(pick(users).id);
      const to = new Set();
      while (to.size < Math.min(m.size, users.length - 1)) {
        const u = pick(users).id;
        if (u !== sender.id) to.add(u);
      }
      expected = new Set([sender.id, ...to]);
      form = { type: 'direct', to: JSON.stringify([...to]) };
    }
    const token = state.messages.length;
    const start = now();
    const msg = { t0: start, expected, received: new Set(), ok: null, kind: mixLabel(m) };
    state.messages.push(msg);
    state.inFlight++;
    state.requests.send++;
    const r = await request(sendAgent, settings.port, 'POST', '/messages', { auth: sender.auth, form: { ...form, content: `load ${token}` } });
    state.inFlight--;
    // A send that timed out may still have been stored and delivered: its deliveries are counted apart.
    msg.ok = r.status === 200 ? true : r.error === 'TIMEOUT' ? 'unknown' : false;
    if (msg.ok === true) {
      state.sendLatencies.push(r.at - start);
      byKind(state, msg.kind).send.push(r.at - start);
    }
    else fail('POST /messages', r);
  };

  const typing = async () => {
    if (settings.typingMaxInFlight > 0 && state.typingInFlight >= settings.typingMaxInFlight) return void state.typingSkipped++;
    // Typing into the channels small enough to get typing events (≤ 100 subscribers) and into DMs.
    const c = pick([null, ...channels.filter((x) => x.members.length <= 100)]);
    const sender = byId.get(c ? pick(c.members) : pick(users).id);
    let form;
    if (c) form = { type: 'stream', stream_id: String(c.id), topic: `topic ${Math.floor(Math.random() * 10)}` };
    else {
      let to = pick(users).id;
      while (to === sender.id) to = pick(users).id;
      form = { type: 'direct', to: JSON.stringify([to]) };
    }
    for (const op of ['start', 'stop']) {
      if (op === 'stop') await sleep(3000);
      state.requests.typing++;
      state.typingInFlight++;
      const r = await request(sendAgent, settings.port, 'POST', '/typing', { auth: sender.auth, form: { ...form, op } });
      state.typingInFlight--;
      if (r.status !== 200) fail('POST /typing', r);
    }
  };

  const pending = [];
  const sends = openLoop(settings.rate, settings.seconds, t0, () => pending.push(send()));
  const typings = settings.typingRate > 0 ? openLoop(settings.typingRate, settings.seconds, t0, () => pending.push(typing())) : Promise.resolve();
  const progress = setInterval(() => {
    const s = Math.round((now() - t0) / 1000);
    console.log(`  ${s} s: ${state.requests.send} sent, ${state.deliveryLatencies.length} deliveries, server RSS ${mib(rss.last)} MiB`);
  }, 30_000);
  await Promise.all([sends, typings]);
  const windowEnd = now();
  const cpuEnd = await cpuSnapshot();
  const rssAtEnd = rss.last;
  for (const w of workers) w.postMessage({ type: 'stop' });
  await Promise.all(pending);
  clearInterval(progress);

  // Stragglers: wait until every expected delivery arrived, at most LOAD_GRACE_SECONDS.
  const graceEnd = now() + settings.graceSeconds * 1000;
  while (now() < graceEnd && missing(state, live) > 0) await sleep(100);
  rss.stop();
  const workerStats = await closePollers();
  loopDelay.disable();
  return {
    state,
    live,
    windowMs: windowEnd - t0,
    rss: { peak: rss.peak, end: rssAtEnd },
    cpu: cpuDelta(cpuStart, cpuEnd),
    workerStats,
    loopDelay: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
  };
}

/** Calls `fire` `rate` times a second for `seconds`, on schedule whatever the answers take (open loop). */
async function openLoop(rate, seconds, t0, fire) {
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
    fire();
  }
  const end = t0 + seconds * 1000 - now();
  if (end > 0) await sleep(end);
}

/** A destination of the mix, as the report names it. */
function mixLabel(m) {
  return m.target === 'channel' ? `channel of ${m.size}` : `direct message to ${m.size}`;
}

/** The latencies of one destination of the mix. */
function byKind(state, kind) {
  return (state.byKind[kind] ??= { send: [], delivery: [] });
}

function pickShare(mix) {
  let x = Math.random();
  for (let i = 0; i < mix.length; i++) {
    x -= mix[i].share;
    if (x < 0) return i;
  }
  return mix.length - 1;
}

function delivered(state, batch) {
  for (let i = 0; i < batch.length; i += 3) {
    const [token, userId, at] = [batch[i], batch[i + 1], batch[i + 2]];
    const m = state.messages[token];
    if (m?.ok === 'unknown') {
      state.afterTimeout++;
    } else if (m === undefined || m.ok === false || !m.expected.has(userId)) {
      state.unexpected++;
    } else if (m.received.has(userId)) {
      state.duplicates++;
    } else {
      m.received.add(userId);
      state.deliveryLatencies.push(at - m.t0);
      byKind(state, m.kind).delivery.push(at - m.t0);
    }
  }
}

/** Deliveries still missing: recipients holding a queue that have not received a sent message. */
function missing(state, live) {
  let n = 0;
  for (const m of state.messages) {
    if (m === null || m.ok !== true) continue;
    if (m.received.size === m.expected.size) continue;
    for (const u of m.expected) if (live.has(u) && !m.received.has(u)) n++;
  }
  return n;
}

function expectedDeliveries(state, live) {
  let n = 0;
  for (const m of state.messages) {
    if (m === null || m.ok !== true) continue;
    for (const u of m.expected) if (live.has(u)) n++;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Poller threads

async function startPollers(users) {
  const n = Math.max(1, Math.min(settings.workers, users.length));
  const started = now();
  const indexed = users.map((u, index) => ({ ...u, index }));
  const slices = Array.from({ length: n }, (_, i) => indexed.filter((_u, j) => j % n === i));
  const answers = slices.map((slice) => {
    const w = new Worker(new URL('./load/pollers.mjs', import.meta.url));
    workers.push(w);
    w.on('error', (err) => {
      console.error('poller thread failed:', err);
      process.exitCode = 1;
    });
    const ready = new Promise((resolve) => w.on('message', (m) => m.type === 'registered' && resolve(m.userIds)));
    w.postMessage({ type: 'init', port: settings.port, users: slice, concurrency: 4 });
    return ready;
  });
  const ids = (await Promise.all(answers)).flat();
  console.log(`${n} poller threads registered ${ids.length} queues in ${Math.round(now() - started)} ms`);
  return ids;
}

async function closePollers() {
  const answers = workers.map((w) => new Promise((resolve) => w.on('message', (m) => m.type === 'closed' && resolve(m.stats))));
  for (const w of workers) w.postMessage({ type: 'close' });
  return Promise.all(answers);
}

// ---------------------------------------------------------------------------------------------
// Resources: /proc

/** The server's processes: the one started, and with WORKERS its cluster workers (its Node.js children; not an embedded PostgreSQL). */
async function serverPids() {
  const pids = [server.pid];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await procTimes(Number(entry))).ppid !== server.pid) continue;
    const comm = (await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '')).trim();
    if (comm !== 'postgres') pids.push(Number(entry));
  }
  return pids;
}

/** The server's VmRSS (all its processes), sampled every second: the peak and the last sample (bytes). */
function rssSampler() {
  const out = { peak: 0, last: 0, stop: () => clearInterval(timer) };
  const sample = async () => {
    let kb = 0;
    for (const pid of await serverPids()) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    }
    out.last = kb * 1024;
    out.peak = Math.max(out.peak, out.last);
  };
  const timer = setInterval(() => void sample(), 1000);
  void sample();
  return out;
}

/** utime+stime (and, for PostgreSQL, of its exited children) in seconds, from /proc/<pid>/stat fields 14-17. */
async function procTimes(pid, withChildren = false) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return { cpu: 0, ppid: -1 };
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
  return { cpu: ticks / CLK_TCK, ppid: Number(f[1]) };
}

/** The embedded PostgreSQL's CPU: its postmaster (with reaped children) and every live backend. */
async function postgresCpu() {
  if (process.env.DATABASE_URL) return null;
  const pidFile = await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => null);
  if (pidFile === null) return null;
  const postmaster = Number(pidFile.split('\n')[0]);
  let total = (await procTimes(postmaster, true)).cpu;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const t = await procTimes(Number(entry));
    if (t.ppid === postmaster) total += t.cpu;
  }
  return total;
}

/** Busy and total seconds of the whole machine (all cores), from /proc/stat. */
async function machineCpu() {
  const [line] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = v[3] + v[4];
  return { busy: (total - idle) / CLK_TCK, total: total / CLK_TCK };
}

/** Seconds the server's main thread (its event loop) ran, and waited runnable for a CPU (/proc/<pid>/schedstat). */
async function schedstat(pid) {
  const [run, wait] = (await readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => '0 0')).split(' ').map(Number);
  return { run: run / 1e9, wait: wait / 1e9 };
}

async function cpuSnapshot() {
  const u = process.cpuUsage();
  const pids = await serverPids();
  const sched = await Promise.all(pids.map(schedstat));
  return {
    at: now(),
    server: (await Promise.all(pids.map((pid) => procTimes(pid)))).reduce((n, t) => n + t.cpu, 0),
    serverSched: { run: sched.reduce((n, x) => n + x.run, 0), wait: sched.reduce((n, x) => n + x.wait, 0) },
    postgres: await postgresCpu(),
    generator: (u.user + u.system) / 1e6,
    machine: await machineCpu(),
  };
}

/** CPU over the window, as % of one core. */
function cpuDelta(a, b) {
  const seconds = (b.at - a.at) / 1000;
  const pct = (x, y) => (x === null || y === null ? null : ((y - x) / seconds) * 100);
  const machine = ((b.machine.busy - a.machine.busy) / seconds) * 100;
  const server = pct(a.server, b.server);
  const postgres = pct(a.postgres, b.postgres);
  const generator = pct(a.generator, b.generator);
  const others = machine - server - (postgres ?? 0) - generator;
  const serverMainRun = ((b.serverSched.run - a.serverSched.run) / seconds) * 100;
  const serverMainWait = ((b.serverSched.wait - a.serverSched.wait) / seconds) * 100;
  return { server, serverMainRun, serverMainWait, postgres, generator, machine, others, cores: cpus().length };
}

// ---------------------------------------------------------------------------------------------
// Report

function mib(bytes) {
  return Math.round(bytes / 1048576);
}

function quantiles(xs) {
  if (xs.length === 0) return { p50: NaN, p99: NaN, max: NaN, n: 0 };
  const s = Float64Array.from(xs).sort();
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { p50: q(0.5), p99: q(0.99), max: s[s.length - 1], n: s.length };
}

function printReport(r) {
  const { state, live, cpu } = r;
  const send = quantiles(state.sendLatencies);
  const delivery = quantiles(state.deliveryLatencies);
  const presence = quantiles(r.workerStats.flatMap((w) => w.presenceLatencies));
  const sum = (key) => r.workerStats.reduce((n, w) => n + w[key], 0);
  const merge = (key) => {
    const out = {};
    for (const w of r.workerStats) for (const [k, v] of Object.entries(w[key])) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const expected = expectedDeliveries(state, live);
  const lost = missing(state, live);
  const pollFailures = merge('pollFailures');
  const registerFailures = merge('registerFailures');
  const presenceFailures = merge('presenceFailures');
  const errors = { ...state.httpFailures };
  for (const t of [pollFailures, registerFailures, presenceFailures]) for (const [k, v] of Object.entries(t)) errors[k] = (errors[k] ?? 0) + v;
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const ms = (x) => (Number.isNaN(x) ? '–' : x < 10 ? x.toFixed(1) : String(Math.round(x)));
  const pct = (x) => (x === null ? '–' : `${Math.round(x)} %`);
  const fmt = (o) => (Object.keys(o).length === 0 ? 'none' : Object.entries(o).map(([k, v]) => `${k}: ${v}`).join(', '));
  const sentOk = state.messages.filter((m) => m?.ok === true).length;

  console.log(`\n${live.size} live users, ${settings.rate} messages/s for ${Math.round(r.windowMs / 1000)} s, typing ${settings.typingRate}/s, presence every ${settings.presenceSeconds} s per user\n`);
  console.log('| latency | p50 ms | p99 ms | max ms | samples |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| send (POST /messages round trip) | ${ms(send.p50)} | ${ms(send.p99)} | ${ms(send.max)} | ${send.n} |`);
  console.log(`| delivery (send start → recipient's poll answered) | ${ms(delivery.p50)} | ${ms(delivery.p99)} | ${ms(delivery.max)} | ${delivery.n} |`);
  console.log(`| presence (POST /users/me/presence round trip) | ${ms(presence.p50)} | ${ms(presence.p99)} | ${ms(presence.max)} | ${presence.n} |`);
  console.log('\n| by destination | sends | send p50 / p99 ms | deliveries | delivery p50 / p99 ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const m of MIX) {
    const k = state.byKind[mixLabel(m)];
    if (k === undefined) continue;
    const [sq, dq] = [quantiles(k.send), quantiles(k.delivery)];
    console.log(`| ${mixLabel(m)} | ${sq.n} | ${ms(sq.p50)} / ${ms(sq.p99)} | ${dq.n} | ${ms(dq.p50)} / ${ms(dq.p99)} |`);
  }
  console.log('\n| count | value |');
  console.log('|---|---:|');
  console.log(`| messages sent (answered 200) / attempted / skipped (over ${settings.maxInFlight} in flight) | ${sentOk} / ${state.requests.send} / ${state.skipped} |`);
  console.log(`| deliveries expected / received / missing | ${expected} / ${delivery.n} / ${lost} |`);
  console.log(`| duplicate / unexpected deliveries / deliveries of sends that timed out | ${state.duplicates} / ${state.unexpected} / ${state.afterTimeout} |`);
  console.log(`| typing requests / skipped (over ${settings.typingMaxInFlight || '∞'} in flight) / typing events received (start, stop) | ${state.requests.typing} / ${state.typingSkipped} / ${merge('events')['typing start'] ?? 0}, ${merge('events')['typing stop'] ?? 0} |`);
  console.log(`| presence requests / presence events received | ${presence.n + Object.values(presenceFailures).reduce((a, b) => a + b, 0)} / ${merge('events').presence ?? 0} |`);
  console.log(`| polls answered / heartbeats / queues lost | ${sum('polls')} / ${merge('events').heartbeat ?? 0} / ${sum('queuesLost')} |`);
  console.log(`| HTTP errors by request and status | ${fmt(errors)} |`);
  console.log(`| server RSS peak / end of run | ${mib(r.rss.peak)} / ${mib(r.rss.end)} MiB |`);
  console.log(`| server CPU (% of one core) | ${pct(cpu.server)} |`);
  console.log(`| server main thread (event loop): running / runnable, waiting for a CPU (% of the run) | ${pct(cpu.serverMainRun)} / ${pct(cpu.serverMainWait)} |`);
  console.log(`| PostgreSQL CPU (all its processes) | ${pct(cpu.postgres)} |`);
  console.log(`| load generator CPU (all its threads; it shares the ${cpu.cores} cores) | ${pct(cpu.generator)} |`);
  console.log(`| machine busy / of which other processes | ${pct(cpu.machine)} of ${cpu.cores * 100} % / ${pct(cpu.others)} |`);
  const pollerDelay = r.workerStats.map((w) => `${ms(w.loopDelayP99)} / ${ms(w.loopDelayMax)}`).join('; ');
  console.log(`| generator event-loop delay p99 / max ms: main; pollers | ${ms(r.loopDelay.p99)} / ${ms(r.loopDelay.max)}; ${pollerDelay} |`);

  const checks = [
    [`send p99 ${ms(send.p99)} ms < ${TARGETS.sendP99}`, send.p99 < TARGETS.sendP99],
    [`delivery p99 ${ms(delivery.p99)} ms < ${TARGETS.deliveryP99}`, delivery.p99 < TARGETS.deliveryP99],
    [`errors ${errorCount} = 0`, errorCount === 0],
    [`lost ${lost}, duplicates ${state.duplicates} = 0`, lost === 0 && state.duplicates === 0],
    [`sends skipped ${state.skipped} = 0 (the offered rate was kept)`, state.skipped === 0],
    [`RSS peak ${mib(r.rss.peak)} MiB < ${TARGETS.rssMiB}`, mib(r.rss.peak) < TARGETS.rssMiB],
  ];
  const pass = checks.every(([, ok]) => ok);
  console.log(`\nsummary: ${pass ? 'PASS' : 'FAIL'}: ${checks.map(([text, ok]) => `${text} ${ok ? 'ok' : 'FAILED'}`).join('; ')}`);
}
