import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type Logger, pino } from 'pino';
import pg from 'pg';
import request from 'supertest';
import { inject } from 'vitest';
import { AppModule } from '../../src/app/app.module.js';
import { configureApp } from '../../src/configure-app.js';
import { BootstrapService } from '../../src/users/application/bootstrap.service.js';
import { Clock } from '../../src/shared/application/clock.js';
import { ServerConfig } from '../../src/shared/config/server-config.js';
import { ApiReferenceController } from '../../src/server/http/api-reference.controller.js';
import { SETTINGS_CHANGED_CHANNEL, SettingsInvalidation } from '../../src/shared/application/settings-invalidation.js';
import { dropDatabase, freshDatabase, TEST_DB_PREFIX } from './databases.js';
import { OpenApiChecker } from './openapi-check.js';

export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'owner-Secret-Passphrase-42';

export interface Account {
  id: number;
  email: string;
  apiKey: string;
  /** Host header naming the account's organization (absent: the root organization). */
  host?: string;
}

export type Method = 'get' | 'post' | 'patch' | 'delete' | 'put';
export interface CallOptions {
  as?: Account | null;
  /** Sent form-encoded (the default for non-GET). */
  form?: Record<string, unknown>;
  /** Sent as multipart/form-data, as zulip-js does. */
  multipart?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** Host header (default: the account's organization). */
  host?: string;
  /**
   * Why this answer is not checked against the OpenAPI document (every answer under /api/v1/
   * is, by default).
   */
  notDocumented?: string;
}

/** JSON-encodes non-strings the way clients send typed parameters. */
export const encode = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A settable clock for tests that need time to pass. */
export class TestClock extends Clock {
  constructor(public current = new Date()) {
    super();
  }
  now(): Date {
    return this.current;
  }
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/** The whole server on a fresh database of this test worker, driven over HTTP with supertest. */
export class TestApp {
  owner!: Account;
  private counter = 0;
  /** Barriers waiting for their notification (see settled()), by their negative payload. */
  private readonly barriers = new Map<number, () => void>();
  private barrierCount = 0;

  private constructor(
    readonly app: NestExpressApplication,
    readonly clock: TestClock,
    readonly databaseUrl: string,
    /** The database this app created and drops on close (null: another app's). */
    private readonly databaseName: string | null,
  ) {}

  /**
   * `logger`: where the app logs (default: nowhere), for tests that read the log; `override`:
   * replaces further providers (e.g. the Scheduler) before the module is compiled.
   */
  static async start(
    env: Record<string, string> = {},
    logger: Logger = pino({ level: 'silent' }),
    override: (b: TestingModuleBuilder) => TestingModuleBuilder = (b) => b,
  ): Promise<TestApp> {
    // One database per test file (each file runs in its own process), copied from the template.
    const databaseName = `${TEST_DB_PREFIX}_p${process.pid}`;
    const databaseUrl = await freshDatabase(inject('adminUrl'), databaseName);
    return TestApp.boot(databaseUrl, databaseName, env, logger, override);
  }

  /**
   * A second server on this app's database (as another server process would be: its own
   * pool, caches and event listener), for tests of what servers sharing a database see.
   * Close it before this one.
   */
  async startPeer(env: Record<string, string> = {}): Promise<TestApp> {
    return TestApp.boot(this.databaseUrl, null, env, pino({ level: 'silent' }), (b) => b);
  }

  private static async boot(
    databaseUrl: string,
    databaseName: string | null,
    env: Record<string, string>,
    logger: Logger,
    override: (b: TestingModuleBuilder) => TestingModuleBuilder,
  ): Promise<TestApp> {
    const config = ServerConfig.fromEnv({
      DATABASE_URL: databaseUrl,
      OWNER_EMAIL,
      OWNER_PASSWORD,
      EXTERNAL_URL: 'http://chat.example.com',
      RATE_LIMITING: 'false',
      COUNT_SQL_STATEMENTS: 'true',
      STRICT_POOL_CHECKS: 'true',
      EVENT_HEARTBEAT_SECONDS: '2',
      UPLOADS_DIR: join(tmpdir(), `svc-test-uploads-${process.pid}`),
      // Tests deliver reminders by calling RemindersService.deliverDue (no background timer).
      REMINDER_POLL_INTERVAL_MS: '0',
      // Nor background exports and thumbnails (their own tests turn them on): a timer of theirs
      // would write, or count statements, while another test measures.
      EXPORT_POLL_INTERVAL_MS: '0',
      THUMBNAIL_POLL_INTERVAL_MS: '0',
      PASSWORD_HASH_MEMORY_KIB: process.env.PASSWORD_HASH_MEMORY_KIB ?? '1024',
      ...env,
    });
    const clock = new TestClock();
    const moduleRef = await override(Test.createTestingModule({ imports: [AppModule.register(config, logger)] }).overrideProvider(Clock).useValue(clock)).compile();
    const app = configureApp(moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false }));
    await app.init();
    const t = new TestApp(app, clock, databaseUrl, databaseName);
    t.watchBarriers(app.get(SettingsInvalidation));
    t.owner = await t.login(OWNER_EMAIL, OWNER_PASSWORD);
    return t;
  }

  get http() {
    return request(this.app.getHttpServer());
  }

  /** The rows of one statement on the test database, on a connection of its own (outside the app's pool). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of arbitrary SQL
  async sql(text: string, params: unknown[] = []): Promise<any[]> {
    const rows = await this.rawSql(text, params);
    await this.settled();
    return rows;
  }

  /**
   * Waits until this server has taken in every settings notification (`svc_settings`) that
   * writes committed so far sent: PostgreSQL delivers notifications in commit order, so a
   * notification of our own, sent now, arrives after them. A test that changes the database
   * behind the server's back (as another process or an operator would) calls this before its
   * next request; `sql()` does it itself. Between real processes the wait is the notification's
   * latency, which the scale-out tests bound.
   */
  async settled(): Promise<void> {
    const id = -++this.barrierCount;
    const arrived = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('settings notification barrier: no notification within 5 s')), 5_000);
      this.barriers.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.rawSql(`SELECT pg_notify($1, $2)`, [SETTINGS_CHANGED_CHANNEL, String(id)]);
    try {
      await arrived;
    } finally {
      this.barriers.delete(id);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of arbitrary SQL
  private async rawSql(text: string, params: unknown[]): Promise<any[]> {
    const c = new pg.Client({ connectionString: this.databaseUrl });
    await c.connect();
    try {
      return (await c.query(text, params)).rows;
    } finally {
      await c.end();
    }
  }

  /** Barrier notifications (negative organization ids) stop here and release their waiter. */
  private watchBarriers(invalidation: SettingsInvalidation): void {
    const changed = invalidation.changed.bind(invalidation);
    invalidation.changed = (realmId: number) => {
      if (realmId >= 0) return changed(realmId);
      this.barriers.get(realmId)?.();
    };
  }

  async close(): Promise<void> {
    await this.app.close();
    if (this.databaseName !== null) await dropDatabase(inject('adminUrl'), this.databaseName);
  }

  call(method: Method, path: string, o: CallOptions = {}): request.Test {
    const url = path.startsWith('/') ? path : `/api/v1/${path}`;
    let req = this.http[method](url);
    const as = o.as === undefined ? this.owner : o.as;
    if (as) req = req.auth(as.email, as.apiKey);
    const host = o.host ?? as?.host;
    if (host) req = req.set('Host', host);
    req = withParameters(req, o);
    return o.notDocumented === undefined ? this.checkedAgainstDocument(method, req) : req;
  }

  private checker: OpenApiChecker | null = null;

  /**
   * The answer to a request under /api/v1/ is checked against the server's OpenAPI document when
   * it arrives: an undocumented route or status, or a body that does not match its schema, fails
   * the awaiting test. Tests that build their requests on `t.http` pass them through this too.
   */
  checkedAgainstDocument(method: Method, req: request.Test): request.Test {
    const url = new URL(req.url);
    // The web app's /json/<path> serves the operation of /api/v1/<path>: held to the same document.
    if (url.pathname.startsWith('/json/')) url.pathname = `/api/v1/${url.pathname.slice('/json/'.length)}`;
    else if (!url.pathname.startsWith('/api/v1/')) return req;
    const then = req.then.bind(req);
    req.then = ((onFulfilled, onRejected) =>
      then((res) => {
        this.checker ??= new OpenApiChecker(this.app.get(ApiReferenceController).openApi());
        const problem = this.checker.check({ method, url: url.toString(), status: res.status, contentType: res.headers['content-type'], body: res.body });
        if (problem !== null) throw new Error(`OpenAPI: ${problem}`);
        return res;
      }).then(onFulfilled, onRejected)) as request.Test['then'];
    return req;
  }

  get(path: string, o?: CallOptions) {
    return this.call('get', path, o);
  }
  post(path: string, o?: CallOptions) {
    return this.call('post', path, o);
  }
  patch(path: string, o?: CallOptions) {
    return this.call('patch', path, o);
  }
  delete(path: string, o?: CallOptions) {
    return this.call('delete', path, o);
  }

  async login(email: string, password: string, host?: string): Promise<Account> {
    const res = await this.post('fetch_api_key', { as: null, host, form: { username: email, password } });
    if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    this.passwords.set(`${host ?? ''} ${res.body.email}`, password);
    return { id: res.body.user_id, email: res.body.email, apiKey: res.body.api_key, host };
  }

  /** Passwords of the accounts that logged in through `login` (browser sessions need them). */
  private readonly passwords = new Map<string, string>();

  /** The password an account logged in with (undefined: a bot, or an account made another way). */
  passwordOf(account: Account): string | undefined {
    return this.passwords.get(`${account.host ?? ''} ${account.email}`);
  }

  /** A second organization at `<stringId>.chat.example.com`; returns its owner. */
  async createOrganization(stringId: string, ownerEmail = OWNER_EMAIL): Promise<Account> {
    await this.app.get(BootstrapService).createOrganization({
      stringId,
      name: `Org ${stringId}`,
      ownerEmail,
      ownerPassword: OWNER_PASSWORD,
    });
    return this.login(ownerEmail, OWNER_PASSWORD, `${stringId}.chat.example.com`);
  }

  /** Creates a user through the API (owner as admin) with the given role, and logs in. */
  async createUser(o: { role?: number; fullName?: string; email?: string } = {}): Promise<Account> {
    this.counter += 1;
    const email = o.email ?? `user${this.counter}@example.com`;
    const password = `Pw-${this.counter}-correct-horse-battery`;
    const res = await this.post('users', { form: { email, password, full_name: o.fullName ?? `User ${this.counter}` } });
    if (res.status !== 200) throw new Error(`createUser failed: ${JSON.stringify(res.body)}`);
    if (o.role !== undefined && o.role !== 400) {
      const r = await this.patch(`users/${res.body.user_id}`, { form: { role: o.role } });
      if (r.status !== 200) throw new Error(`role change failed: ${JSON.stringify(r.body)}`);
    }
    return this.login(email, password);
  }

  /** One account per role below the owner, a member's bot, and the owner of a second organization ('other'). */
  async createRoleAccounts() {
    const admin = await this.createUser({ role: 200 });
    const moderator = await this.createUser({ role: 300 });
    const member = await this.createUser();
    const guest = await this.createUser({ role: 600 });
    const bot = await this.createBot(member, 'helper');
    const otherOwner = await this.createOrganization('other');
    return { admin, moderator, member, guest, bot, otherOwner };
  }

  async createBot(owner: Account, shortName: string, botType = 1): Promise<Account & { ownerId: number }> {
    const res = await this.post('bots', { as: owner, form: { full_name: `${shortName} bot`, short_name: shortName, bot_type: botType } });
    if (res.status !== 200) throw new Error(`createBot failed: ${JSON.stringify(res.body)}`);
    return { id: res.body.user_id, email: `${shortName}-bot@chat.example.com`, apiKey: res.body.api_key, ownerId: owner.id };
  }
}

/** Asserts a Zulip error envelope. */
export function expectError(
  res: request.Response,
  status: number,
  msg: string,
  code = 'BAD_REQUEST',
  extra: Record<string, unknown> = {},
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { result: 'error', msg, code, ...extra },
  });
}

export function expectSuccess(res: request.Response, fields: Record<string, unknown> = {}): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ result: 'success', msg: '', ...fields });
}

/** A request's parameters as clients send them: query string, multipart fields or a form body (JSON-encoded non-strings). */
export function withParameters(req: request.Test, o: Pick<CallOptions, 'query' | 'form' | 'multipart'>): request.Test {
  if (o.query) req = req.query(Object.fromEntries(Object.entries(o.query).map(([k, v]) => [k, encode(v)])));
  if (o.multipart) {
    for (const [k, v] of Object.entries(o.multipart)) req = req.field(k, encode(v));
  } else if (o.form) {
    req = req.type('form').send(Object.fromEntries(Object.entries(o.form).map(([k, v]) => [k, encode(v)])));
  }
  return req;
}
