import fc from 'fast-check';
import { pino } from 'pino';
import type { Response } from 'supertest';
import { type Account, TestApp } from '../../support/test-app.js';
import { logIn } from '../../support/sessions.js';
import {
  type ActorName,
  type BrowserCookies,
  type BuiltRequest,
  buildRequest,
  changedTables,
  clip,
  discoverRoutes,
  type IdPool,
  type RequestRecipe,
  requestRecipe,
  type Route,
  WriteCounter,
} from '../../support/api-fuzz.js';

/**
 * The API fuzz test (issue 13, "Proof in the suite"): generated requests to every route the
 * running server's router has, as every kind of caller. The property, for every request:
 *   1. never a 5xx (and always an answer);
 *   2. always Zulip's JSON envelope, `{result: 'success' | 'error', msg: string, ...}`, with
 *      `success` exactly on 2xx;
 *   3. after any 4xx, the database is exactly as before (no row inserted, deleted or changed in
 *      any table; counted by triggers, see WriteCounter).
 * All failures are collected (one entry per kind and cause, with the routes it was seen on and
 * its shortest example) and reported at the end, so one bug does not hide the next.
 *
 * FUZZ_SEED sets the seed (default: fixed, so every run sends the same sequence of requests);
 * FUZZ_RUNS and FUZZ_TIME_LIMIT_MS bound the run (the time limit ends it early on a slow
 * machine, so a loaded machine sends a prefix of the same sequence). FUZZ_DEBUG=1 also prints
 * the most frequent answers.
 */
const SEED = process.env.FUZZ_SEED === undefined ? 20260113 : Number(process.env.FUZZ_SEED);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4000);
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_MS ?? 35_000);

/**
 * Routes or parts of the API the fuzzer does not send as-is, each with the reason. Nothing else is
 * skipped: every other route of the router gets generated requests.
 */
const NOT_SENT: Record<string, string> = {};

/**
 * Routes sent with a precaution, each with the reason.
 */
const PRECAUTIONS: Record<string, string> = {
  'GET /api/v1/events':
    'long-polls: the app runs with EVENT_HEARTBEAT_SECONDS=0, so a blocking poll is answered at once with a heartbeat instead of waiting',
  'DELETE /api/v1/users/me, DELETE /api/v1/users/:user_id, PATCH /api/v1/users/:user_id, DELETE/PATCH /api/v1/bots/:bot_id, POST …/api_key/regenerate':
    'may deactivate, demote, re-key or re-own the fuzzing accounts: after every 2xx write, their users rows (active, role, API key, email, bot owner) and their organizations are put back by SQL',
  'HEAD (sent now and then instead of GET)': 'has no body by definition: only the status (< 500) and the database are checked',
  'raw routes (@RawResponse: uploads, emoji images, the email-confirmation, password-reset and sign-up pages, /health, /metrics, the API reference and its page)':
    'write files or HTML pages by design: their 2xx bodies and non-JSON error pages are not checked for the envelope; a JSON body on them still must be one',
  'browser requests (a third of all: API routes under /json, with the actor’s session cookie and a right, missing, wrong or cross-origin CSRF token)':
    'a logout, a password change or a deactivation may end the fuzzing accounts’ sessions: after every 2xx write their session rows are put back by SQL with the users rows',
};

let t: TestApp;
let fp: WriteCounter;
let routes: Route[];
let accounts: Record<Exclude<ActorName, 'anonymous' | 'bad_auth' | 'other_org_here' | 'forged'>, Account>;
/** The session token of every fuzzing account that logs in with a password (bots have none). */
const sessionTokens = new Map<string, string>();
/** The CSRF token every browser request of the run holds as its cookie. */
const CSRF = 'fuzzCsrfToken0123456789abcdefghijklmnopqrstu'.slice(0, 43);
const queueIds: string[] = [];
const serverErrors: string[] = [];

/** The first line of what the server logged since the last call (the cause of a 5xx). */
function takeServerError(): string {
  const lines = serverErrors.splice(0);
  if (lines.length === 0) return 'nothing logged';
  const entry = JSON.parse(lines[0]) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
  const at = entry.err?.stack?.split('\n').find((l) => l.includes('/src/'))?.trim() ?? '';
  return `${entry.err?.type ?? ''}: ${entry.err?.message ?? entry.msg ?? ''} ${at}`.slice(0, 300);
}

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

/** The session cookie a browser request of this actor carries (none: not logged in). */
function sessionOf(actor: ActorName, forged: RequestRecipe['forged']): BrowserCookies {
  switch (actor) {
    case 'forged': // a generated cookie value (printable, as HTTP allows)
      return { session: ('user' in forged ? forged.user : forged.header).replace(/[^\x20-\x7e]/g, ''), csrf: CSRF };
    case 'bad_auth':
      return { session: 'A'.repeat(43), csrf: CSRF };
    case 'other_org_here': // another organization's session, on this organization's host
      return { session: sessionTokens.get('other_org'), csrf: CSRF };
    default:
      return { session: sessionTokens.get(actor), csrf: CSRF };
  }
}

function authOf(actor: ActorName, forged: RequestRecipe['forged']): { authorization?: string; host?: string } {
  switch (actor) {
    case 'forged': // a generated user name with a real key, or a generated header (printable, as HTTP allows)
      return { authorization: 'user' in forged ? basic(forged.user, accounts.owner.apiKey) : forged.header.replace(/[^\x20-\x7e]/g, '') };
    case 'anonymous':
      return {};
    case 'bad_auth':
      return { authorization: basic(accounts.owner.email, 'x'.repeat(32)) };
    case 'other_org_here': // another organization's account, on this organization's host
      return { authorization: basic(accounts.other_org.email, accounts.other_org.apiKey) };
    default: {
      const a = accounts[actor];
      return { authorization: basic(a.email, a.apiKey), host: a.host };
    }
  }
}

async function ok(res: Promise<Response>, what: string): Promise<Response> {
  const r = await res;
  if (r.status !== 200) throw new Error(`seeding ${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/** Something of every kind for valid ids to point at. */
async function seedContent() {
  const { owner, member, admin, other_org: other } = accounts;
  const now = Math.floor(t.clock.now().getTime() / 1000);
  await ok(t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'fuzz' }, { name: 'general' }], principals: [owner.id, admin.id, member.id, accounts.guest.id, accounts.bot.id] } }), 'channels');
  await ok(t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'elsewhere' }] } }), 'other channel');
  const streamId = (await ok(t.get('get_stream_id', { query: { stream: 'fuzz' } }), 'stream id')).body.stream_id;
  const msg = (await ok(t.post('messages', { as: member, form: { type: 'stream', to: 'fuzz', topic: 'fuzzing', content: 'hello **world**' } }), 'message')).body.id;
  await ok(t.post('messages', { as: other, form: { type: 'stream', to: 'elsewhere', topic: 'theirs', content: 'foreign' } }), 'foreign message');
  await ok(t.post('messages', { as: member, form: { type: 'direct', to: [owner.id, admin.id], content: 'a dm' } }), 'dm');
  await ok(t.post(`messages/${msg}/reactions`, { as: admin, form: { emoji_name: 'smile' } }), 'reaction');
  await ok(t.post('user_groups/create', { form: { name: 'fuzzers', description: 'd', members: [member.id, admin.id] } }), 'group');
  await ok(t.post('user_groups/create', { as: other, form: { name: 'theirs', description: '', members: [] } }), 'foreign group');
  await ok(t.post('drafts', { as: member, form: { drafts: [{ type: 'stream', to: [streamId], topic: 't', content: 'draft', timestamp: now }] } }), 'draft');
  await ok(t.post('saved_snippets', { as: member, form: { title: 'snip', content: 'pet' } }), 'snippet');
  await ok(t.post('scheduled_messages', { as: member, form: { type: 'stream', to: streamId, topic: 'later', content: 'scheduled', scheduled_delivery_timestamp: now + 86_400 } }), 'scheduled');
  await ok(t.post('reminders', { as: member, form: { message_id: msg, scheduled_delivery_timestamp: now + 86_400 } }), 'reminder');
  await ok(t.post('realm/filters', { form: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' } }), 'linkifier');
  await ok(t.post('realm/playgrounds', { form: { name: 'py', pygments_language: 'python', url_template: 'https://play.example/?code={code}' } }), 'playground');
  await ok(t.post('realm/profile_fields', { form: { name: 'Phone', field_type: 1 } }), 'profile field');
  await ok(t.post('realm/domains', { form: { domain: 'example.org', allow_subdomains: false } }), 'realm domain');
  await ok(t.post('channel_folders/create', { form: { name: 'Folder', description: 'f' } }), 'channel folder');
  await ok(t.post('users/me/alert_words', { as: member, form: { alert_words: ['fuzzword'] } }), 'alert word');
  await ok(t.post('users/me/status', { as: member, form: { status_text: 'fuzzing', away: false } }), 'status');
  await ok(t.post('invites', { form: { invitee_emails: 'invited@example.com', stream_ids: [] } }), 'invite');
  await ok(t.post('invites/multiuse', { form: { stream_ids: [] } }), 'multiuse invite');
  await ok(t.http.post('/api/v1/user_uploads').auth(member.email, member.apiKey).attach('file', Buffer.from('plain text'), 'notes.txt'), 'upload');
  for (const name of ['owner', 'admin', 'member', 'guest', 'bot', 'other_org'] as const) {
    const a = accounts[name];
    const res = await ok(t.post('register', { as: a, form: { event_types: ['message', 'heartbeat'] } }), 'queue');
    queueIds.push(res.body.queue_id);
  }
}

/** The fuzzing accounts' users rows and organizations, as they must stay. */
let actorRows: unknown[] = [];
async function snapshotActors() {
  const ids = Object.values(accounts).map((a) => a.id);
  const { rows } = await fp.query(
    `SELECT id, is_active, role, api_key, email, delivery_email, bot_owner_id, password_hash FROM users WHERE id = ANY($1::int[])`,
    [ids],
  );
  actorRows = rows;
  sessionRows = (await fp.query(`SELECT * FROM sessions WHERE user_id = ANY($1::int[])`, [ids])).rows;
}
let sessionRows: unknown[] = [];

/** Puts the fuzzing accounts back (a request may have deactivated, demoted or re-keyed one). */
async function healActors() {
  await fp.query(
    `UPDATE users u SET is_active = s.is_active, role = s.role, api_key = s.api_key, email = s.email,
            delivery_email = s.delivery_email, bot_owner_id = s.bot_owner_id, password_hash = s.password_hash
       FROM jsonb_to_recordset($1::jsonb) AS s(id int, is_active boolean, role smallint, api_key text, email text, delivery_email text, bot_owner_id int, password_hash text)
      WHERE u.id = s.id
        AND (u.is_active, u.role, u.api_key, u.email, u.delivery_email, u.bot_owner_id, u.password_hash)
            IS DISTINCT FROM (s.is_active, s.role, s.api_key, s.email, s.delivery_email, s.bot_owner_id, s.password_hash)`,
    [JSON.stringify(actorRows)],
  );
  // Their browser sessions, as logged in (a logout, password change or deactivation ends them).
  await fp.query(
    `INSERT INTO sessions SELECT * FROM jsonb_populate_recordset(NULL::sessions, $1::jsonb)
     ON CONFLICT (token_sha256) DO UPDATE SET password_stamp = EXCLUDED.password_stamp WHERE sessions.password_stamp <> EXCLUDED.password_stamp`,
    [JSON.stringify(sessionRows)],
  );
  await fp.query(`UPDATE realms SET deactivated = false WHERE deactivated`);
  await t.settled(); // the server's caches have heard of the repairs
}

async function knownStrings(): Promise<string[]> {
  const { rows } = await fp.query(
    `SELECT v FROM (SELECT name AS v FROM channels UNION ALL SELECT email FROM users UNION ALL SELECT name FROM user_groups
                    UNION ALL SELECT domain FROM realm_domains) s LIMIT 40`,
  );
  return [...rows.map((r: { v: string | null }) => r.v).filter((v): v is string => typeof v === 'string'), ...queueIds];
}

beforeAll(async () => {
  // The server's error log, read after each 5xx to name its cause.
  const log = pino({ level: 'error' }, { write: (line: string) => void serverErrors.push(line) });
  // METRICS_TOKEN set: GET /metrics answers its refusals (no generated request carries the token) instead of 404.
  t = await TestApp.start({ EVENT_HEARTBEAT_SECONDS: '0', METRICS_TOKEN: 'fuzz-metrics-token-0123456789' }, log);
  const roles = await t.createRoleAccounts();
  accounts = {
    owner: t.owner,
    admin: roles.admin,
    moderator: roles.moderator,
    member: roles.member,
    guest: roles.guest,
    bot: roles.bot,
    other_org: roles.otherOwner,
  };
  for (const [name, a] of Object.entries(accounts)) {
    const password = t.passwordOf(a);
    if (password !== undefined) sessionTokens.set(name, (await logIn(t, a.email, password, a.host)).sessionid);
  }
  fp = await WriteCounter.install(t.databaseUrl);
  await seedContent();
  // The write detector sees the seeding's writes (or it would see nothing at all).
  expect(Number((await fp.take()).get('messages'))).toBeGreaterThanOrEqual(4);
  await snapshotActors();
  await fp.query('TRUNCATE fuzz_writes');
  routes = discoverRoutes(t.app);
}, 120_000);

afterAll(async () => {
  await fp?.close();
  await t?.close();
});

interface Failure {
  kind: '5xx' | 'no answer' | 'not an envelope' | 'wrote on 4xx';
  route: string;
  status: number;
  detail: string;
  example: string;
}

const isJson = (res: Response) => /^application\/json\b/.test(String(res.headers['content-type'] ?? ''));

/** The property's checks on one answer; returns what is wrong with it. */
function envelopeProblem(route: Route, res: Response, raw: string): string | null {
  let body: unknown;
  try {
    body = isJson(res) ? JSON.parse(raw) : undefined;
  } catch {
    return `invalid JSON: ${clip(raw, 120)}`;
  }
  // Raw routes (files, pages): only a JSON error answer must be an envelope.
  if (route.raw && (body === undefined || res.status < 400)) return null;
  if (body === undefined) return `${res.headers['content-type'] ?? 'no content type'}: ${clip(raw, 120)}`;
  const b = body as { result?: unknown; msg?: unknown };
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return `not an object: ${clip(raw, 120)}`;
  const expected = res.status < 300 ? 'success' : 'error';
  if (b.result !== expected || typeof b.msg !== 'string') return `result=${JSON.stringify(b.result)} msg=${typeof b.msg} on ${res.status}: ${clip(raw, 120)}`;
  return null;
}

async function send(req: BuiltRequest): Promise<{ res: Response; raw: string }> {
  const method = req.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put' | 'head' | 'options';
  let r = t.http[method](req.url)
    .timeout({ response: 10_000, deadline: 20_000 })
    .buffer(true)
    .parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
      stream.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
  for (const [k, v] of Object.entries(req.headers)) r = r.set(k, v);
  if (req.body !== undefined) r = r.send(req.body);
  const res = await r;
  return { res, raw: typeof res.body === 'string' ? res.body : '' };
}

describe('fuzzing every route', () => {
  it('never answers 5xx or a non-envelope, and writes nothing on a 4xx', async () => {
    console.log(`[fuzz] seed=${SEED} (set FUZZ_SEED to change), up to ${RUNS} requests or ${TIME_LIMIT_MS} ms`);
    console.log(`[fuzz] ${routes.length} routes from the router; not sent: ${JSON.stringify(NOT_SENT)}`);
    console.log(`[fuzz] precautions: ${JSON.stringify(PRECAUTIONS)}`);
    expect(routes.length).toBeGreaterThan(100);
    const allDeclared = [...new Map(routes.flatMap((r) => r.declared).map((d) => [d.name, d])).values()];
    const failures = new Map<string, Failure & { routes: Set<string> }>();
    const statuses = new Map<number, number>();
    const succeededRoutes = new Set<string>();
    const sentRoutes = new Set<string>();
    let requests = 0;
    const debugMsgs = new Map<string, number>();
    const spent = { sending: 0, writeChecks: 0, other: 0 };
    const timed = async <T>(what: keyof typeof spent, f: () => Promise<T>): Promise<T> => {
      const at = performance.now();
      try {
        return await f();
      } finally {
        spent[what] += performance.now() - at;
      }
    };
    let pool: IdPool = { byTable: new Map(), all: [], strings: [] };
    let lastCounts: Map<string, string> | null = null;
    const started = Date.now();

    /** One entry per distinct problem (kind, status, cause), with its routes and shortest example. */
    const record = (f: Failure) => {
      const key = `${f.kind} ${f.status} ${f.detail.replace(/\d+/g, 'N').replace(/\/work\/[^ ]*\//g, '').slice(0, 100)}`;
      const seen = failures.get(key);
      if (!seen) failures.set(key, { ...f, routes: new Set([f.route]) });
      else {
        seen.routes.add(f.route);
        if (f.example.length < seen.example.length) Object.assign(seen, { example: f.example, route: f.route });
      }
    };

    // Routes that take parameters or write come up twice as often as parameterless reads.
    const weighted = routes.flatMap((r) => (r.declared.length > 0 || r.method !== 'GET' ? [r, r] : [r]));
    const property = fc.asyncProperty(requestRecipe(weighted.length), async (recipe: RequestRecipe) => {
      // The first requests go to every route in turn, so each is sent even on a slow machine.
      const route = requests < routes.length ? routes[requests] : weighted[recipe.route];
      if (requests % 50 === 0) pool = await timed('other', async () => ({ ...(await fp.ids()), strings: await knownStrings() }));
      const req = buildRequest(route, recipe, pool, authOf(recipe.actor, recipe.forged), allDeclared, sessionOf(recipe.actor, recipe.forged));
      const name = `${route.method} ${route.path}`;
      sentRoutes.add(name);
      const before = lastCounts ?? (await timed('writeChecks', () => fp.take()));
      requests += 1;
      let answer: { res: Response; raw: string };
      try {
        answer = await timed('sending', () => send(req));
      } catch (e) {
        record({ kind: 'no answer', route: name, status: 0, detail: String(e), example: req.describe() });
        lastCounts = null;
        return;
      }
      const { res, raw } = answer;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (process.env.FUZZ_DEBUG) {
        const m = `${res.status} ${(/"msg":"([^"]*)"/.exec(raw)?.[1] ?? '').replace(/\d+/g, 'N').slice(0, 60)}`;
        debugMsgs.set(m, (debugMsgs.get(m) ?? 0) + 1);
      }
      if (res.status >= 500) record({ kind: '5xx', route: name, status: res.status, detail: takeServerError(), example: req.describe() });
      serverErrors.length = 0;
      const problem = req.method === 'HEAD' ? null : envelopeProblem(route, res, raw);
      if (problem !== null) record({ kind: 'not an envelope', route: name, status: res.status, detail: problem, example: req.describe() });
      if (res.status >= 400 && res.status < 500) {
        const after = await timed('writeChecks', () => fp.take());
        const changed = changedTables(before, after);
        if (changed.length > 0) {
          const msg = (() => {
            try {
              return String(JSON.parse(raw).msg);
            } catch {
              return clip(raw, 80);
            }
          })();
          record({ kind: 'wrote on 4xx', route: name, status: res.status, detail: `${changed.join(', ')} changed; msg: ${msg}`, example: req.describe() });
        }
        lastCounts = after;
      } else {
        lastCounts = null;
        if (res.status < 300) succeededRoutes.add(name);
        if (res.status < 300 && route.method !== 'GET') await timed('other', () => healActors());
      }
    });
    await fc.assert(property, { seed: SEED, numRuns: RUNS, endOnFailure: true, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)] });

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const byStatus = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(`[fuzz] ${requests} requests in ${seconds} s (seed ${SEED}); statuses ${byStatus}; ${succeededRoutes.size}/${routes.length} routes answered 2xx at least once; ms spent ${JSON.stringify(spent, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`);
    if (process.env.FUZZ_DEBUG) console.log([...debugMsgs.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([m, n]) => `${n} ${m}`).join('\n'));
    const report = [...failures.values()].map(
      (f) => `${f.kind} · ${f.status} · ${f.detail}\n    on ${[...f.routes].slice(0, 6).join(', ')}${f.routes.size > 6 ? ` and ${f.routes.size - 6} more` : ''}\n    e.g. ${f.example}`,
    );
    if (report.length > 0) console.log(`[fuzz] ${report.length} distinct failures:\n${report.join('\n')}`);
    expect(sentRoutes.size, 'every route was sent').toBe(new Set(routes.map((r) => `${r.method} ${r.path}`)).size);
    expect(report.length, `${report.length} distinct failures (listed above)`).toBe(0);
  }, TIME_LIMIT_MS + 60_000);
});
