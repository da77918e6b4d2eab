import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from './databases.js';
import { freePort, type ServerProcess, startServer, stopServer } from './server-process.js';

/**
 * The web app's tests: the built server (`node dist/src/main.js`, what `npm start` runs) on a
 * fresh database, and Debian's Chromium driven by playwright-core (Playwright's own browser
 * download cannot reach its host here; .ci/run installs the `chromium` package).
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const OWNER = { email: 'owner@example.com', password: 'owner-Secret-Passphrase-42', name: 'Desdemona Owner' };

/** Flags for a headless Chromium on a machine without a network or a desktop session (run as root). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface Person {
  email: string;
  password: string;
  name: string;
  userId: number;
  apiKey: string;
}

let serial = 0;

/** The server as a process on a database of its own; `restart()` stops and starts it on the same port and database. */
export class WebServer {
  private constructor(
    public proc: ServerProcess,
    readonly port: number,
    readonly databaseUrl: string,
    private readonly databaseName: string,
    private readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(env: Record<string, string> = {}): Promise<WebServer> {
    serial += 1;
    const databaseName = `${TEST_DB_PREFIX}_web_${process.pid}_${serial}`;
    const databaseUrl = await freshDatabase(inject('adminUrl'), databaseName);
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-web-'));
    const port = await freePort();
    const fullEnv = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      OWNER_EMAIL: OWNER.email,
      OWNER_PASSWORD: OWNER.password,
      PASSWORD_HASH_MEMORY_KIB: '1024',
      REMINDER_POLL_INTERVAL_MS: '0',
      ...env,
    };
    const proc = await startServer(port, fullEnv);
    return new WebServer(proc, port, databaseUrl, databaseName, dataDir, fullEnv);
  }

  async restart(): Promise<void> {
    await stopServer(this.proc);
    this.proc = await startServer(this.port, this.env);
  }

  async stop(): Promise<void> {
    await stopServer(this.proc);
    await dropDatabase(inject('adminUrl'), this.databaseName);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** An API call with HTTP Basic as `who` (form-encoded; JSON-encoded non-strings), answering the parsed body. */
  async api(who: { email: string; apiKey: string }, method: string, path: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const query = method === 'GET' ? `?${form}` : '';
    const res = await fetch(`${this.url}/api/v1${path}${query}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${who.email}:${who.apiKey}`).toString('base64')}` },
      body: method === 'GET' ? undefined : form,
    });
    return (await res.json()) as Record<string, unknown>;
  }

  async apiKey(email: string, password: string): Promise<string> {
    const res = await fetch(`${this.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password }) });
    const body = (await res.json()) as { api_key?: string; msg?: string };
    if (!body.api_key) throw new Error(`fetch_api_key for ${email}: ${body.msg}`);
    return body.api_key;
  }

  /** The owner made at first start, with a name of our own. */
  async owner(): Promise<Person> {
    const apiKey = await this.apiKey(OWNER.email, OWNER.password);
    const me = await this.api({ email: OWNER.email, apiKey }, 'GET', '/users/me');
    await this.api({ email: OWNER.email, apiKey }, 'PATCH', '/settings', { full_name: OWNER.name });
    return { ...OWNER, userId: me.user_id as number, apiKey };
  }

  /** A new member created by the owner (subscribed to the default channels). */
  async person(owner: Person, name: string): Promise<Person> {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`;
    const password = `${name}-Long-Passphrase-97`;
    const made = await this.api(owner, 'POST', '/users', { email, password, full_name: name });
    if (made.result !== 'success') throw new Error(`POST /users ${email}: ${made.msg}`);
    return { email, password, name, userId: made.user_id as number, apiKey: await this.apiKey(email, password) };
  }
}

/** A fresh browser profile (cookies, storage) for one person; desktop size unless given. */
export async function newContext(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, colorScheme: 'light' });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Opens the app and logs in through its form, as a person would. */
export async function logIn(context: BrowserContext, server: WebServer, who: { email: string; password: string }): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByRole('textbox', { name: 'Email' }).fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('feed', { name: 'Messages' }).waitFor();
  return page;
}

const axeSource = (): string => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core run in the page: the serious and critical violations (CSP allows no inline script, so it goes in by CDP). */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
