// The web app's budgets, measured in Debian's Chromium (playwright-core) against the built server
// (DATABASE_URL, else an embedded PostgreSQL in a temporary directory), rate limits off:
//   1. first load: bytes of JavaScript and CSS transferred (compressed, as sent) for the login page
//      and for the app after logging in;                                  budget ≤ 300 KB
//   2. a channel of 1,500 messages opened from the left side: time until its newest message is
//      shown, and the message elements in the page then;                   budget ≤ 1.5 s, ≤ 600
//   3. a message sent by another person (API): time from the send until it is in the page, over
//      WEB_BUDGET_SENDS sends (median, p95, max);                          budget ≤ 1 s
//   npm run bench:web        CHROMIUM_PATH=/usr/bin/chromium WEB_BUDGET_SENDS=20 npm run bench:web
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const port = Number(process.env.WEB_BUDGET_PORT ?? 9881);
const url = `http://127.0.0.1:${port}`;
const sends = Number(process.env.WEB_BUDGET_SENDS ?? 20);
const owner = { email: 'owner@example.com', password: 'budget-Owner-passphrase-1' };
const reader = { email: 'reader@example.com', password: 'budget-Reader-passphrase-1', full_name: 'Rea Der' };
const dataDir = await mkdtemp(join(tmpdir(), 'svc-web-budgets-'));
await chmod(dataDir, 0o755);
const BUDGET = { firstLoadBytes: 300 * 1024, openMs: 1500, elements: 600, deliveryMs: 1000 };

function startServer() {
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port + 1), OWNER_PASSWORD: owner.password, RATE_LIMITING: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  const child = spawn(process.execPath, ['dist/src/main.js'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Server listening')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

async function api(who, method, path, params = {}) {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const res = await fetch(`${url}/api/v1${path}${method === 'GET' ? `?${form}` : ''}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${who.email}:${who.apiKey}`).toString('base64')}` },
    body: method === 'GET' ? undefined : form,
  });
  const body = await res.json();
  if (body.result !== 'success') throw new Error(`${method} ${path}: ${body.msg}`);
  return body;
}

async function apiKey(who) {
  const res = await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: who.email, password: who.password }) });
  return (await res.json()).api_key;
}

/** Bytes of scripts and styles received (as encoded on the wire) while `action` runs. */
async function transferred(page, action) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map();
  let bytes = 0;
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    if (['Script', 'Stylesheet'].includes(types.get(e.requestId))) bytes += e.encodedDataLength;
  });
  await action();
  await cdp.detach();
  return bytes;
}

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const row = (name, value, budget, ok) => console.log(`${name.padEnd(52)} ${String(value).padStart(10)}   budget ${budget}   ${ok ? 'ok' : 'OVER'}`);

let server;
let browser;
let failed;
try {
  server = await startServer();
  owner.apiKey = await apiKey(owner);
  await api(owner, 'POST', '/users', reader);
  reader.apiKey = await apiKey(reader);
  await api(owner, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'big' }], principals: [owner.email, reader.email] });
  for (let i = 1; i <= 1500; i++) await api(owner, 'POST', '/messages', { type: 'stream', to: 'big', topic: `topic ${i % 15}`, content: `Message number ${i} of the big channel` });
  await api(reader, 'POST', '/mark_all_as_read');

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const loginBytes = await transferred(page, async () => {
    await page.goto(url + '/');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
  });
  const appBytes = await transferred(page, async () => {
    await page.getByRole('textbox', { name: 'Email' }).fill(reader.email);
    await page.getByLabel('Password').fill(reader.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('feed', { name: 'Messages' }).waitFor();
    await page.waitForLoadState('networkidle').catch(() => undefined);
  });
  const firstLoad = loginBytes + appBytes;
  row('first load: JS + CSS transferred (bytes)', firstLoad, `≤ ${BUDGET.firstLoadBytes}`, firstLoad <= BUDGET.firstLoadBytes);

  const started = performance.now();
  await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /^big\b/ }).click();
  await page.getByRole('feed', { name: 'Messages' }).getByRole('article').filter({ hasText: 'Message number 1500 of the big channel' }).waitFor({ state: 'visible' });
  const openMs = Math.round(performance.now() - started);
  const elements = await page.getByRole('feed', { name: 'Messages' }).getByRole('article').count();
  row('1,500-message channel: newest message shown (ms)', openMs, `≤ ${BUDGET.openMs}`, openMs <= BUDGET.openMs);
  row('1,500-message channel: message elements in the page', elements, `≤ ${BUDGET.elements}`, elements <= BUDGET.elements);

  const times = [];
  for (let i = 0; i < sends; i++) {
    const text = `Live delivery probe ${i} ${Date.now()}`;
    const t0 = performance.now();
    await api(owner, 'POST', '/messages', { type: 'stream', to: 'big', topic: 'live', content: text });
    await page.getByRole('feed', { name: 'Messages' }).getByRole('article').filter({ hasText: text }).waitFor({ state: 'attached', timeout: 10_000 });
    times.push(performance.now() - t0);
  }
  const [median, p95, max] = [percentile(times, 50), percentile(times, 95), Math.max(...times)].map(Math.round);
  row(`send → shown on the other side, median of ${sends} (ms)`, median, `≤ ${BUDGET.deliveryMs}`, median <= BUDGET.deliveryMs);
  row(`send → shown on the other side, p95 / max (ms)`, `${p95} / ${max}`, `≤ ${BUDGET.deliveryMs}`, max <= BUDGET.deliveryMs);
  failed = firstLoad > BUDGET.firstLoadBytes || openMs > BUDGET.openMs || elements > BUDGET.elements || max > BUDGET.deliveryMs;
} finally {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.on('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
