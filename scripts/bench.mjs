// Throughput of a few endpoints on this machine: builds, starts the server (on DATABASE_URL,
// else an embedded PostgreSQL in a temporary directory) with rate limits off, and runs
// autocannon against loopback. Bounded: BENCH_SECONDS (default 10) per scenario.
//   npm run bench            BENCH_CONNECTIONS=50 npm run bench
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 9871);
const password = 'bench-Owner-passphrase-1';
const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
await chmod(dataDir, 0o755);

const server = spawn(process.execPath, ['dist/src/main.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(port + 1),
    RATE_LIMITING: 'false',
    OWNER_PASSWORD: password,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (c) => {
    out += c;
    if (out.includes('Server listening')) resolve();
  });
  server.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
});

const base = `http://127.0.0.1:${port}/api/v1`;
try {
  const key = await (
    await fetch(`${base}/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password }) })
  ).json();
  const auth = `Basic ${Buffer.from(`owner@example.com:${key.api_key}`).toString('base64')}`;
  const form = { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' };
  await fetch(`${base}/users/me/subscriptions`, { method: 'POST', headers: form, body: 'subscriptions=%5B%7B%22name%22%3A%22bench%22%7D%5D' });
  // Five listening clients: every message is journaled, fanned out and queued five times.
  for (let i = 0; i < 5; i++) {
    await fetch(`${base}/register`, { method: 'POST', headers: form, body: 'event_types=%5B%22message%22%5D' });
  }
  const scenarios = [
    { name: 'GET /server_settings (no auth)', path: '/server_settings', method: 'GET' },
    { name: 'GET /users/me', path: '/users/me', method: 'GET', headers: { authorization: auth } },
    {
      name: 'POST /register (realm_user)',
      path: '/register',
      method: 'POST',
      headers: form,
      body: 'fetch_event_types=%5B%22realm_user%22%5D',
    },
    {
      name: 'POST /messages (channel, 5 event queues)',
      path: '/messages',
      method: 'POST',
      headers: form,
      body: 'type=stream&to=bench&topic=load&content=hello%20world',
    },
  ];
  console.log(`| scenario | req/s | p50 ms | p99 ms | non-2xx |  (${connections} connections, ${seconds} s each)`);
  console.log('|---|---|---|---|---|');
  for (const s of scenarios) {
    const r = await autocannon({ url: base + s.path, method: s.method, headers: s.headers, body: s.body, connections, duration: seconds });
    console.log(`| ${s.name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  await rm(dataDir, { recursive: true, force: true });
}
