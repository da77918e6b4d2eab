// The server against its floor, on this machine: builds, starts the server (on DATABASE_URL,
// else an embedded PostgreSQL in a temporary directory) with rate limits off, and the floor
// (bench/floor: the same stack doing only each endpoint's unavoidable I/O) on the server's
// database; sets up an organization's data, then measures every pair with autocannon over
// loopback, server and floor in turn, alternating which goes first across rounds. Reports req/s,
// the ratio server ÷ floor, p50/p99 latency and SQL statements per request (counted in both
// processes by bench/count-sql.mjs). Bounded: pairs × 2 × BENCH_ROUNDS × BENCH_SECONDS.
//   npm run bench        BENCH_SECONDS=10 BENCH_ROUNDS=3 BENCH_CONNECTIONS=10 npm run bench
//   BENCH_ONLY=regex     measures only the pairs whose name matches (e.g. BENCH_ONLY='100 sub')
//   BENCH_PROFILE_DIR=d  runs the server under node --cpu-prof, writing its profile into d at exit
//   BENCH_WORKERS=n      runs the server with WORKERS=n (n processes sharing the port; default 1)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 9871);
const workers = process.env.BENCH_WORKERS ?? '1';
// The server's statement counters: its process on serverCount, cluster worker i on serverCount + i.
const ports = { server: port, pg: port + 1, floor: port + 2, floorCount: port + 3, serverCount: port + 4 };
let serverCounters = [ports.serverCount];
const password = 'bench-Owner-passphrase-1';
const owner = 'owner@example.com';
const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
await chmod(dataDir, 0o755);
const databaseUrl = process.env.DATABASE_URL || `postgres://postgres:postgres@127.0.0.1:${ports.pg}/svc`;
const preload = ['--import', new URL('../bench/count-sql.mjs', import.meta.url).href];
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const profileDir = process.env.BENCH_PROFILE_DIR;

/** Starts `script` with the statement counter preloaded; resolves once it printed `ready`. */
function start(script, env, ready, flags = []) {
  const child = spawn(process.execPath, [...flags, ...preload, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes(ready)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}): ${out}`)));
  });
}
async function stop(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const children = [];
try {
  const common = { RATE_LIMITING: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  children.push(await start('dist/src/main.js', { ...common, WORKERS: workers, PORT: String(ports.server), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(ports.pg), OWNER_PASSWORD: password, SQL_COUNT_PORT: String(ports.serverCount) }, 'Server listening', profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []));
  children.push(await start('dist/bench/floor/main.js', { ...common, PORT: String(ports.floor), DATABASE_URL: databaseUrl, SQL_COUNT_PORT: String(ports.floorCount) }, 'Floor listening'));

  const workerCount = workers.trim().toLowerCase() === 'auto' ? availableParallelism() : Number(workers);
  serverCounters = Array.from({ length: workerCount > 1 ? workerCount + 1 : 1 }, (_, i) => ports.serverCount + i);
  const setup = await setUp();
  const pairs = scenarios(setup).filter((p) => only === null || only.test(p.name));
  const rows = [];
  const started = Date.now();
  for (const p of pairs) {
    const sides = { server: [], floor: [] };
    const cpu = [];
    const statements = { server: await statementsPerRequest('server', p), floor: await statementsPerRequest('floor', p) };
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? ['server', 'floor'] : ['floor', 'server']) {
        const before = { cpu: cpuSnapshot(), background: side === 'server' ? await count('server', 'background') : 0 };
        const result = await measure(side, p);
        if (side === 'server') {
          const background = (await count('server', 'background')) - before.background;
          cpu.push({ ...cpuUse(before.cpu, cpuSnapshot()), background: background / result.requests.total });
        }
        sides[side].push(result);
      }
    }
    const agg = (side) => ({
      rps: mean(sides[side].map((r) => r.requests.average)),
      p50: mean(sides[side].map((r) => r.latency.p50)),
      p99: mean(sides[side].map((r) => r.latency.p99)),
      errors: sides[side].reduce((n, r) => n + r.non2xx + r.errors, 0),
    });
    const cpuMean = Object.fromEntries(['node', 'pg', 'generator', 'machine', 'background'].map((k) => [k, mean(cpu.map((c) => c[k]))]));
    rows.push({ name: p.name, server: agg('server'), floor: agg('floor'), statements, cpu: cpuMean });
  }
  printTable(rows, Date.now() - started);
} finally {
  for (const c of children.reverse()) await stop(c);
  await rm(dataDir, { recursive: true, force: true });
}

/** The organization's data: 1,000 more users, channels of 1 / 100 / 1,000 subscribers, a topic of 100 messages, 1,000 messages to flag. */
async function setUp() {
  const base = `http://127.0.0.1:${ports.server}/api/v1`;
  const key = await (await fetch(`${base}/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: owner, password }) })).json();
  const auth = `Basic ${Buffer.from(`${owner}:${key.api_key}`).toString('base64')}`;
  const form = { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' };
  const subscribe = JSON.stringify(['fan1', 'fan100', 'fan1000'].map((name) => ({ name })));
  await ok(fetch(`${base}/users/me/subscriptions`, { method: 'POST', headers: form, body: new URLSearchParams({ subscriptions: subscribe }) }));
  await ok(fetch(`${base}/messages`, { method: 'POST', headers: form, body: new URLSearchParams({ type: 'stream', to: 'fan1', topic: 'history', content: 'history 0' }) }));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    const [{ realm_id: realmId, id: ownerId }] = (await db.query(`SELECT realm_id, id FROM users WHERE delivery_email = $1`, [owner])).rows;
    await db.query(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
       SELECT $1, 'bench' || g || '@example.com', 'bench' || g || '@example.com', 'Bench ' || g, md5(random()::text), 400 FROM generate_series(1, 999) g`,
      [realmId],
    );
    // fan100: the owner and 99 others; fan1000: the owner and 999 others.
    await db.query(
      `INSERT INTO subscriptions (realm_id, user_id, channel_id, color)
       SELECT $1, u.id, c.id, '#76ce90' FROM channels c JOIN users u ON u.realm_id = $1 AND u.email LIKE 'bench%'
       WHERE c.realm_id = $1 AND ((c.name = 'fan100' AND split_part(substring(u.email from 6), '@', 1)::int <= 99) OR c.name = 'fan1000')`,
      [realmId],
    );
    // 99 more messages in fan1 > history (100 in all), 1,000 in fan1 > flags, copies of the one sent.
    await db.query(
      `WITH src AS (SELECT * FROM messages WHERE sender_id = $1 AND topic = 'history' LIMIT 1),
            m AS (INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client)
                  SELECT realm_id, sender_id, recipient_id, channel_id, CASE WHEN g < 100 THEN 'history' ELSE 'flags' END,
                         'message ' || g, '<p>message ' || g || '</p>', now(), sending_client FROM src, generate_series(1, 1099) g RETURNING id)
       INSERT INTO user_messages (user_id, message_id, flags) SELECT $1, id, 1 FROM m`,
      [ownerId],
    );
    await db.query('COMMIT');
    const flagIds = (await db.query(`SELECT id FROM messages WHERE sender_id = $1 AND topic = 'flags' ORDER BY id`, [ownerId])).rows.map((r) => r.id);
    return { auth, form, flagIds };
  } finally {
    await db.end();
  }
}

function scenarios({ auth, form, flagIds }) {
  const send = (to) => new URLSearchParams({ type: 'stream', to, topic: 'load', content: 'hello world' }).toString();
  const flags = (op) => new URLSearchParams({ messages: JSON.stringify(flagIds), op, flag: 'starred' }).toString();
  const narrow = JSON.stringify([{ operator: 'channel', operand: 'fan1' }, { operator: 'topic', operand: 'history' }]);
  return [
    { name: 'GET /users/me', path: '/users/me', method: 'GET', headers: { authorization: auth } },
    { name: 'POST /messages, 1 subscriber', path: '/messages', method: 'POST', headers: form, body: send('fan1') },
    { name: 'POST /messages, 100 subscribers', path: '/messages', method: 'POST', headers: form, body: send('fan100') },
    { name: 'POST /messages, 1,000 subscribers', path: '/messages', method: 'POST', headers: form, body: send('fan1000') },
    { name: 'GET /server_settings', path: '/server_settings', method: 'GET' },
    { name: 'GET /messages, topic, 100', path: `/messages?${new URLSearchParams({ anchor: 'newest', num_before: '100', num_after: '0', narrow })}`, method: 'GET', headers: { authorization: auth } },
    // One connection alternating add and remove: every request changes the flag on the 1,000 (several
    // connections on the same rows would measure lock waits, not the request).
    { name: 'POST /messages/flags, 1,000 (1 connection)', path: '/messages/flags', method: 'POST', headers: form, body: flags('add'), alternate: flags('remove'), connections: 1 },
    // Last: every server register opens an event queue that later sends would feed.
    { name: 'POST /register', path: '/register', method: 'POST', headers: form, body: new URLSearchParams({ event_types: '["message"]', fetch_event_types: '["realm_user","subscription"]' }).toString() },
  ];
}

function url(side, path) {
  return `http://127.0.0.1:${side === 'server' ? ports.server : ports.floor}/api/v1${path}`;
}
function measure(side, p) {
  const requests = p.alternate ? [p.body, p.alternate].map((body) => ({ method: p.method, path: `/api/v1${p.path}`, headers: p.headers, body })) : undefined;
  return autocannon({ url: url(side, p.path), method: p.method, headers: p.headers, body: p.body, requests, connections: p.connections ?? connections, duration: seconds });
}
async function count(side, what = '') {
  const counters = side === 'server' ? serverCounters : [ports.floorCount];
  const counts = await Promise.all(counters.map(async (p) => Number(await (await fetch(`http://127.0.0.1:${p}/${what}`)).text())));
  return counts.reduce((a, b) => a + b, 0);
}
function mean(xs) {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * Statements per request, counted over a few requests sent one at a time (also checks they
 * succeed), from a quiet process to a quiet process: work a request leaves to run after its
 * answer (deliveries, notifications) is counted too.
 */
async function statementsPerRequest(side, p) {
  const n = 8;
  const before = await settledCount(side);
  for (let i = 0; i < n; i++) {
    const body = p.alternate && i % 2 === 1 ? p.alternate : p.body;
    await ok(fetch(url(side, p.path), { method: p.method, headers: p.headers, body }), `${side} ${p.name}`);
  }
  return ((await settledCount(side)) - before) / n;
}

/** The statement count once it stopped moving for 300 ms (at most 10 s). */
async function settledCount(side) {
  let last = await count(side);
  for (let i = 0; i < 33; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await count(side);
    if (now === last) return now;
    last = now;
  }
  return last;
}

async function ok(response, what = 'setup') {
  const r = await response;
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
  return r;
}

/**
 * CPU time so far (clock ticks, with that of exited children a process has reaped: a pool's
 * backend that ended meanwhile is counted in the postmaster) of the server's Node processes (the process started and its
 * cluster workers), of the PostgreSQL processes under it (the embedded postmaster and every
 * backend, the floor's included: it is idle while the server is measured), of this process (the
 * load generator), and of the whole machine (busy, total), from /proc.
 */
function cpuSnapshot() {
  const procs = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // gone meanwhile
    }
  }
  const under = (root) => {
    const found = new Set([root]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, p] of procs) if (!found.has(pid) && found.has(p.ppid)) grew = found.add(pid);
    }
    return [...found].map((pid) => procs.get(pid)).filter(Boolean);
  };
  const tree = under(children[0].pid);
  const sum = (ps) => ps.reduce((n, p) => n + p.ticks, 0);
  const machine = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return {
    at: process.hrtime.bigint(),
    node: sum(tree.filter((p) => p.comm === 'node')),
    pg: sum(tree.filter((p) => p.comm.startsWith('postgres'))),
    generator: procs.get(process.pid)?.ticks ?? 0,
    machineBusy: machine.reduce((a, b) => a + b, 0) - machine[3] - machine[4],
    machineTotal: machine.reduce((a, b) => a + b, 0),
  };
}
/** % of one core each used between two snapshots; `machine`: % of all cores busy × cores (200 % = both of 2). */
function cpuUse(a, b) {
  const seconds = Number(b.at - a.at) / 1e9;
  const pct = (ticks) => (ticks / 100 / seconds) * 100; // USER_HZ is 100 on Linux
  const cores = availableParallelism();
  return { node: pct(b.node - a.node), pg: pct(b.pg - a.pg), generator: pct(b.generator - a.generator), machine: ((b.machineBusy - a.machineBusy) / (b.machineTotal - a.machineTotal)) * 100 * cores };
}

function printTable(rows, ms) {
  const f = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
  console.log(`\n${connections} connections, ${seconds} s per measurement, ${rounds} rounds alternating order, server WORKERS=${workers} (${Math.round(ms / 1000)} s)\n`);
  console.log('| endpoint | server req/s | floor req/s | server ÷ floor | server p50 / p99 ms | floor p50 / p99 ms | SQL/req server | SQL/req floor | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${Math.round(r.server.rps)} | ${Math.round(r.floor.rps)} | ${(r.server.rps / r.floor.rps).toFixed(2)}× | ` +
        `${f(r.server.p50)} / ${f(r.server.p99)} | ${f(r.floor.p50)} / ${f(r.floor.p99)} | ${f(r.statements.server)} | ${f(r.statements.floor)} | ${r.server.errors + r.floor.errors} |`,
    );
  }
  console.log(`\nCPU while the server was measured (% of one core; the machine has ${availableParallelism()} cores):\n`);
  console.log('| endpoint | server Node processes | PostgreSQL | load generator | whole machine busy | CPU ms per request: Node / PostgreSQL | background SQL per request |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ms = (pct) => ((pct * 10) / r.server.rps).toFixed(1); // % of a core = 10 ms of CPU per second
    console.log(`| ${r.name} | ${Math.round(r.cpu.node)} % | ${Math.round(r.cpu.pg)} % | ${Math.round(r.cpu.generator)} % | ${Math.round(r.cpu.machine)} % | ${ms(r.cpu.node)} / ${ms(r.cpu.pg)} | ${r.cpu.background.toFixed(2)} |`);
  }
  const ratios = rows.map((r) => r.server.rps / r.floor.rps);
  const geo = Math.exp(mean(ratios.map(Math.log)));
  const worst = rows[ratios.indexOf(Math.min(...ratios))];
  console.log(`\nsummary: server at ${geo.toFixed(2)}× of the floor (geometric mean over ${rows.length} pairs); worst ${worst.name} at ${Math.min(...ratios).toFixed(2)}×`);
}
