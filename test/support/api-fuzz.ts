import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import fc from 'fast-check';
import pg from 'pg';
import { type RouterLayer, routeLayers } from '../../src/shared/http/routes.js';

/**
 * The pieces of the API fuzz test (test/e2e/conventions/fuzz.e2e-spec.ts): the routes as the
 * running app has them, generated requests, and a count of the writes to the database.
 */

export interface Route {
  method: string;
  /** The Express path, e.g. `/api/v1/users/:user_id`. */
  path: string;
  /** Path parameter names in order (`:name` and `*name`). */
  pathParams: string[];
  /** The parameters the handler's DTOs declare (with aliases), from the running app's metadata. */
  declared: { name: string; encoding: string; alias: boolean; required: boolean }[];
  /** `@RawResponse()`: the handler writes its own body (files, pages), not the JSON envelope. */
  raw: boolean;
}

const normalize = (...parts: string[]) =>
  `/${parts.join('/')}`
    .replace(/\/+/g, '/')
    .replace(/(.)\/$/, '$1');

/** The DTO parameter specs that `@PlainParam`/`@JsonParam` record on a class (and its superclasses). */
function declaredParamsOf(type: unknown): Route['declared'] {
  const out: Route['declared'] = [];
  for (let c = type as object | null; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const sym of Object.getOwnPropertySymbols(c)) {
      if (sym.description !== 'svc:params') continue;
      const specs = (c as Record<symbol, { property: string; encoding: string; required: boolean; aliases: readonly string[] }[]>)[sym];
      for (const s of specs) {
        out.push({ name: s.property, encoding: s.encoding, alias: false, required: s.required });
        for (const name of s.aliases) out.push({ name, encoding: s.encoding, alias: true, required: false });
      }
    }
  }
  return out;
}

/**
 * Every route of the Express router (what the server actually answers), each joined with the
 * parameters its Nest handler declares, so generated bodies use real parameter names as well as junk.
 */
export function discoverRoutes(app: NestExpressApplication): Route[] {
  const handlers = new Map<string, { declared: Route['declared']; raw: boolean }>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const ctrl = wrapper.metatype as (new (...a: unknown[]) => unknown) | null;
      if (!ctrl) continue;
      const bases = [Reflect.getMetadata('path', ctrl) ?? ''].flat() as string[];
      for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
        const fn = (ctrl.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof fn !== 'function') continue;
        const paths = Reflect.getMetadata('path', fn) as string | string[] | undefined;
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata('method', fn) as number];
        const types = (Reflect.getMetadata('design:paramtypes', ctrl.prototype, name) ?? []) as unknown[];
        const declared = types.flatMap(declaredParamsOf);
        const raw = Reflect.getMetadata('svc:raw-response', fn) === true;
        for (const base of bases) for (const p of [paths].flat()) handlers.set(`${method} ${normalize(base, p)}`, { declared, raw });
      }
    }
  }
  const router = (app.getHttpAdapter().getInstance() as unknown as { router: { stack: RouterLayer[] } }).router;
  const routes: Route[] = [];
  for (const layer of routeLayers(router.stack)) {
    if (!layer.route) continue;
    for (const path of [layer.route.path as string | string[]].flat()) {
      for (const [m, on] of Object.entries(layer.route.methods)) {
        if (!on || m === '_all') continue;
        const method = m.toUpperCase();
        const meta = handlers.get(`${method} ${normalize(path)}`);
        routes.push({
          method,
          path,
          pathParams: [...path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((x) => x[1]),
          declared: meta?.declared ?? [],
          raw: meta?.raw ?? false,
        });
      }
    }
  }
  return routes;
}

// ---------------------------------------------------------------------------------------------
// Generated values. A generated value is a recipe, resolved against the live state (which ids
// exist) only when the request is built, so the generated sequence depends on the seed alone.

/** A value as a form/query/multipart string and as a JSON token for JSON bodies. */
export interface Wire {
  form: string;
  json: string;
}

export type ValueRecipe =
  | { k: 'id'; pick: number; anyTable: boolean; table?: string }
  | { k: 'ids'; picks: number[]; table?: string }
  | { k: 'token'; token: string }
  | { k: 'string'; s: string; quoted: boolean }
  | { k: 'json'; v: unknown }
  | { k: 'deep'; depth: number; open: string; close: string }
  | { k: 'narrow'; terms: { operator: string; operand: ValueRecipe; negated?: boolean }[] }
  | { k: 'huge'; n: number; quoted: boolean }
  | { k: 'known'; pick: number; quoted: boolean }
  | { k: 'tainted'; pick: number; taint: string };

const NUMBER_TOKENS = [
  '0', '-1', '1', '-0', '2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740991',
  '9007199254740993', '99999999999999999999999999', '-99999999999999999999', '1e999', '-1e999', '1.5',
  '1.0', '1e3', '0.1', '00012', '0x10', ' 5', 'NaN', 'Infinity', 'true', 'false', 'null', '""', '[]', '{}',
];

const NASTY_STRINGS = [
  '\u0000', 'a\u0000b', '\uD800', 'x\uDFFFy', '\uDBFF\uDBFF', '', ' ', '\t\n', '\r\n', '🙂', 'e\u0301',
  '<script>alert(1)</script>', `'"; --`, '%00', '\\u0000', '\\', 'null', '[]', '{}', '\u202E', '\uFFFF',
  '*', '**', '.', '..', '/', 'a/b', '@', 'owner@example.com', 'user3@example.com', 'fuzz', 'Denmark',
  'general', 'stream', 'topic', 'search', 'is:starred', 'example.com', 'https://x.example/{id}', '#(?P<id>[0-9]+)',
];

const NARROW_OPERATORS = [
  'channel', 'stream', 'topic', 'subject', 'dm', 'pm-with', 'sender', 'search', 'is', 'has', 'id', 'near',
  'dm-including', 'group-pm-with', 'channels', 'streams', 'with', 'in', 'bogus', '',
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

const smallValue: fc.Arbitrary<ValueRecipe> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ k: fc.constant('id' as const), pick: fc.nat(), anyTable: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('ids' as const), picks: fc.array(fc.nat(), { maxLength: 4 }) }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('token' as const), token: fc.constantFrom(...NUMBER_TOKENS) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('token' as const), token: fc.integer().map(String) }) },
  { weight: 8, arbitrary: fc.record({ k: fc.constant('string' as const), s: text, quoted: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('known' as const), pick: fc.nat(), quoted: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('json' as const), v: fc.jsonValue({ maxDepth: 2, depthSize: 'small' }) }) },
);

/** Deeply nested JSON and long strings: rare, as they are slow to send and to check. */
const bigValue: fc.Arbitrary<ValueRecipe> = fc.oneof(
  fc.record({
    k: fc.constant('deep' as const),
    depth: fc.constantFrom(50, 1000, 5000),
    open: fc.constantFrom('[', '{"a":', '[{"operator":"is","operand":'),
    close: fc.constantFrom(']', '}', '}]'),
  }),
  fc.record({ k: fc.constant('huge' as const), n: fc.constantFrom(1001, 10_001, 100_001), quoted: fc.boolean() }),
);

/** A plausible value with a NUL, an unpaired surrogate or another odd character put in. */
const taintedValue: fc.Arbitrary<ValueRecipe> = fc.record({
  k: fc.constant('tainted' as const),
  pick: fc.nat(),
  taint: fc.constantFrom('\u0000', 'x\u0000', '\uD800', '\uDC00', '\u202E', ' '),
});

const leafValue: fc.Arbitrary<ValueRecipe> = fc.oneof(
  { weight: 20, arbitrary: smallValue },
  { weight: 12, arbitrary: taintedValue },
  { weight: 1, arbitrary: bigValue },
);

export const valueRecipe: fc.Arbitrary<ValueRecipe> = fc.oneof(
  { weight: 8, arbitrary: leafValue },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('narrow' as const),
      terms: fc.array(
        fc.record(
          { operator: fc.constantFrom(...NARROW_OPERATORS), operand: smallValue, negated: fc.boolean() },
          { requiredKeys: ['operator', 'operand'] },
        ),
        { maxLength: 3 },
      ),
    }),
  },
);

/** What a recipe resolves ids against: ids existing now, by table, and all of them. */
export interface IdPool {
  byTable: Map<string, number[]>;
  all: number[];
  /** Strings that name existing things: queue ids, emails, channel names, emoji names... */
  strings: string[];
}

/** The table whose ids a parameter name most likely names (a hint for generation only). */
const TABLE_OF: Record<string, string> = {
  stream: 'channels', channel: 'channels', message: 'messages', user: 'users', bot: 'users', muted_user: 'users',
  sender: 'users', user_group: 'user_groups', group: 'user_groups', draft: 'drafts', scheduled_message: 'scheduled_messages',
  reminder: 'reminders', saved_snippet: 'saved_snippets', filter: 'linkifiers', linkifier: 'linkifiers',
  playground: 'code_playgrounds', field: 'custom_profile_fields', invite: 'invitations', attachment: 'attachments',
  channel_folder: 'channel_folders', folder: 'channel_folders', realm: 'realms', emoji: 'realm_emoji',
};

export function tableFor(paramName: string): string | undefined {
  const base = paramName.replace(/(_ids?|s)$/, '').replace(/^(to|new|old|target|anchor)_/, '');
  return TABLE_OF[base] ?? TABLE_OF[paramName];
}

function pickId(pool: IdPool, pick: number, table: string | undefined, anyTable: boolean): number {
  const ids = (!anyTable && table && pool.byTable.get(table)) || pool.all;
  return ids.length === 0 ? pick : ids[pick % ids.length];
}

/** Puts `taint` into a value: inside its first JSON string literal, or at the end of a plain one. */
function taintWire(w: Wire, taint: string): Wire {
  const escaped = JSON.stringify(taint).slice(1, -1);
  const inFirstString = (text: string) => {
    const at = text.indexOf('"');
    return at < 0 ? null : `${text.slice(0, at + 1)}${escaped}${text.slice(at + 1)}`;
  };
  return { form: inFirstString(w.form) ?? `${w.form}${taint}`, json: inFirstString(w.json) ?? w.json };
}

export function resolveValue(r: ValueRecipe, pool: IdPool, paramName: string): Wire {
  const table = tableFor(paramName);
  const both = (s: string): Wire => ({ form: s, json: s });
  switch (r.k) {
    case 'id':
      return both(String(pickId(pool, r.pick, r.table ?? table, r.anyTable)));
    case 'ids':
      return both(JSON.stringify(r.picks.map((p) => pickId(pool, p, r.table ?? table, false))));
    case 'token':
      return { form: r.token, json: /^-?\d+(\.\d+)?([eE][+-]?\d+)?$|^(true|false|null|""|\[\]|\{\})$/.test(r.token) ? r.token : JSON.stringify(r.token) };
    case 'string':
      // JSON.stringify escapes unpaired surrogates, so `quoted` delivers them through JSON parameters.
      return r.quoted ? { form: JSON.stringify(r.s), json: JSON.stringify(JSON.stringify(r.s)) } : { form: r.s, json: JSON.stringify(r.s) };
    case 'json':
      return both(JSON.stringify(r.v));
    case 'deep':
      return both(r.open.repeat(r.depth) + '1' + r.close.repeat(r.depth));
    case 'huge': {
      const s = 'x'.repeat(r.n);
      return r.quoted ? both(JSON.stringify(s)) : { form: s, json: JSON.stringify(s) };
    }
    case 'tainted':
      return taintWire(resolveValue(plausibleValue(paramName, r.pick), pool, paramName), r.taint);
    case 'known': {
      const v = pool.strings.length === 0 ? 'x' : pool.strings[r.pick % pool.strings.length];
      return r.quoted ? both(JSON.stringify(v)) : { form: v, json: JSON.stringify(v) };
    }
    case 'narrow':
      return both(
        `[${r.terms
          .map((t) => {
            const operand = resolveValue(t.operand, pool, t.operator === 'id' || t.operator === 'near' ? 'message_id' : t.operator === 'channel' || t.operator === 'stream' ? 'stream_id' : 'user_id');
            return `{"operator":${JSON.stringify(t.operator)},"operand":${operand.json}${t.negated === undefined ? '' : `,"negated":${t.negated}`}}`;
          })
          .join(',')}]`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Plausible values: what a well-behaved client would send for a parameter of that name, so that
// requests get past validation into the handlers, where one bad parameter among good ones finds
// the interesting bugs (a write before a late check). A hint for generation, not a route list.

const id = (table: string, pick: number): ValueRecipe => ({ k: 'id', pick, anyTable: false, table });
const ids = (table: string, pick: number): ValueRecipe => ({ k: 'ids', picks: [pick, pick + 1].slice(0, 1 + (pick % 2)), table });
const str = (s: string): ValueRecipe => ({ k: 'string', s, quoted: false });
const json = (v: unknown): ValueRecipe => ({ k: 'json', v });
const tok = (token: string): ValueRecipe => ({ k: 'token', token });
const FUTURE = 4_102_444_800; // 2100-01-01

const PLAUSIBLE: Record<string, (pick: number) => ValueRecipe[]> = {
  type: () => [str('stream'), str('channel'), str('direct'), str('private')],
  to: (p) => [id('channels', p), ids('users', p), str('fuzz'), json(['fuzz'])],
  content: () => [str('hello **there**'), str('a reply with @**all**'), str('`code`')],
  topic: () => [str('fuzzing'), str('another topic')],
  subject: () => [str('fuzzing')],
  topic_name: () => [str('fuzzing')],
  narrow: (p) => [json([]), tok(`[{"operator":"is","operand":"starred"}]`), { k: 'narrow', terms: [{ operator: 'channel', operand: id('channels', p) }] }],
  anchor: (p) => [str('newest'), str('oldest'), str('first_unread'), id('messages', p)],
  num_before: () => [tok('0'), tok('5')],
  num_after: () => [tok('0'), tok('5')],
  op: () => [str('add'), str('remove')],
  flag: () => [str('read'), str('starred'), str('collapsed')],
  emoji_name: () => [str('smile'), str('octopus'), str('+1')],
  emoji_code: () => [str('1f642'), str('1f419')],
  reaction_type: () => [str('unicode_emoji'), str('realm_emoji')],
  property: () => [str('color'), str('is_muted'), str('pin_to_top'), str('desktop_notifications')],
  value: () => [tok('true'), str('#c2c2c2'), tok('false')],
  propagate_mode: () => [str('change_one'), str('change_later'), str('change_all')],
  queue_id: (p) => [{ k: 'known', pick: p, quoted: false }],
  last_event_id: () => [tok('-1'), tok('0')],
  event_types: () => [json(['message']), json(['message', 'subscription'])],
  fetch_event_types: () => [json(['realm_user', 'message'])],
  email: () => [str('user3@example.com'), str('new.person@example.com')],
  username: () => [str('owner@example.com'), str('user3@example.com')],
  invitee_emails: () => [str('someone@example.com'), str('a@example.com, b@example.com')],
  password: () => [str('Pw-correct-horse-battery-9')],
  new_password: () => [str('Pw-correct-horse-battery-10')],
  old_password: () => [str('Pw-correct-horse-battery-9')],
  domain: () => [str('example.net'), str('example.org')],
  pattern: () => [str('#(?P<id>[0-9]+)'), str('GH-(?P<id>\\d+)')],
  url_template: () => [str('https://tracker.example/{id}'), str('https://play.example/?code={code}')],
  pygments_language: () => [str('python'), str('rust')],
  role: () => [tok('100'), tok('200'), tok('300'), tok('400'), tok('600')],
  invite_as: () => [tok('400'), tok('600')],
  field_type: () => [tok('1'), tok('2'), tok('3')],
  subscriptions: () => [json([{ name: 'fuzz' }]), json([{ name: 'new one', description: 'd' }]), json(['fuzz'])],
  drafts: (p) => [tok(`[{"type":"stream","to":[${(p % 7) + 1}],"topic":"t","content":"c","timestamp":1700000000}]`)],
  draft: () => [tok('{"type":"private","to":[],"topic":"","content":"c","timestamp":1700000000}')],
  data: () => [json([{ id: 1, value: 'x' }])],
  profile_data: () => [json([{ id: 1, value: 'x' }])],
  color: () => [str('#aabbcc')],
  visibility_policy: () => [tok('0'), tok('1'), tok('2'), tok('3')],
  status: () => [str('active'), str('idle')],
  token_kind: () => [str('fcm'), str('apns')],
  appid: () => [str('org.example.app')],
  keys: () => [json(['k'])],
  storage: () => [json({ k: 'v' })],
  alert_words: () => [json(['fuzzword', 'other'])],
  scheduled_delivery_timestamp: () => [tok(String(FUTURE))],
  timestamp: () => [tok('1700000000')],
  emails_restricted_to_domains: () => [tok('false')],
  order: (p) => [ids('channel_folders', p)],
};

const BOOLEAN_NAME = /^(is_|include_|enable_|allow_|send_|apply_|client_|dont_|use_|read_|notify_|announce|invite_only|history_|exclude_|all_|required|deactivated|away|ping_only|slim_|direct_|web_public|translate_|twenty_four|starred_|fluid_|high_|left_|enter_|hide_|presence_enabled|display_|authorization_|receives_|wildcard_)/;

/** A plausible value for a parameter, chosen by `pick` among the candidates. */
export function plausibleValue(name: string, pick: number): ValueRecipe {
  const known = Object.hasOwn(PLAUSIBLE, name) ? PLAUSIBLE[name](pick) : undefined;
  if (known) return known[pick % known.length];
  if (/_group$/.test(name)) return id('user_groups', pick);
  if (/_ids$|^(principals|members|subscribers|add|delete|subgroups|messages|target_users)$/.test(name)) return ids(tableFor(name) ?? 'users', pick);
  if (/_id$/.test(name)) return id(tableFor(name) ?? 'users', pick);
  if (BOOLEAN_NAME.test(name)) return tok(pick % 2 === 0 ? 'true' : 'false');
  if (/seconds|days|minutes|_px|percent|threshold|policy|_period|_count|limit/.test(name)) return tok(String([0, 1, 60, 3600][pick % 4]));
  return str(['fuzz name', 'Denmark', 'x'][pick % 3]);
}

// ---------------------------------------------------------------------------------------------
// Requests.

export const ACTORS = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot', 'anonymous', 'other_org', 'other_org_here', 'bad_auth', 'forged'] as const;
export type ActorName = (typeof ACTORS)[number];

export const ENCODINGS = ['query', 'form', 'multipart', 'json', 'text', 'form_as_json', 'json_scalar', 'broken_multipart', 'xml'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface ParamRecipe {
  /** declared: the route's n-th declared parameter (any route's, for routes that declare none); junk: another name. */
  name: { declared: number } | { junk: string };
  /** Leave the parameter out (of the plausible base). */
  remove: boolean;
  value: ValueRecipe;
  /** A second copy of the parameter (same key twice, or once in the body and once in the query). */
  duplicate?: ValueRecipe;
  inQuery: boolean;
}

export interface RequestRecipe {
  route: number;
  /** Start from plausible values for every declared parameter (optional ones at random), then apply `params`. */
  base: boolean;
  pick: number;
  actor: ActorName;
  pathValues: ({ plausible: number } | { id: ValueRecipe } | { segment: string })[];
  params: ParamRecipe[];
  encoding: Encoding;
  file: boolean;
  contentEncoding: string | null;
  /** The Authorization header of the `forged` actor: a generated user name with the owner's key, or a generated header. */
  forged: { user: string } | { header: string };
  /** Sent with another method: HEAD (on GET routes) or OPTIONS, which Express answers for every route. */
  otherMethod: 'HEAD' | 'OPTIONS' | null;
  /**
   * Sent as the web app would (null: as an API client): an API route under /json, every request
   * with the actor's session cookie (if it has one) and the CSRF cookie, and the X-CSRFToken
   * header right (`csrf`), absent, wrong, or right but from a foreign Origin. Any Authorization
   * header stays: /json must ignore it.
   */
  browser: BrowserMode | null;
}

export const BROWSER_MODES = ['csrf', 'no_csrf', 'bad_csrf', 'foreign_origin'] as const;
export type BrowserMode = (typeof BROWSER_MODES)[number];

/** What the request's actor holds as a browser: its session token (none: not logged in) and the CSRF token. */
export interface BrowserCookies {
  session?: string;
  csrf: string;
}

const PATH_SEGMENTS = [
  '0', '-1', '2147483647', '2147483648', '99999999999999999999', '1.5', '1e3', 'abc', '%00', '%ED%A0%80', '%E0%A4%A',
  '%', '..', 'a%2Fb', '%F0%9F%99%82', 'owner%40example.com', 'user3%40example.com', 'x'.repeat(3000), '%20', 'null',
  'realm', 'me', 'render', 'flags', 'create', 'multiuse', 'example.com',
];

const junkName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a[b]', 'a[]', '', ' ', 'api_key', 'queue_id', 'to', 'type', 'content', 'topic', 'narrow', 'anchor'),
  fc.string({ unit: 'binary-ascii', maxLength: 8 }),
);

export const requestRecipe = (routeCount: number): fc.Arbitrary<RequestRecipe> =>
  fc.record({
    route: fc.nat({ max: routeCount - 1 }),
    base: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    pick: fc.nat(),
    actor: fc.oneof(
      { weight: 3, arbitrary: fc.constant<ActorName>('owner') },
      { weight: 2, arbitrary: fc.constant<ActorName>('admin') },
      { weight: 5, arbitrary: fc.constantFrom<ActorName>('moderator', 'member', 'guest', 'bot', 'other_org') },
      { weight: 1, arbitrary: fc.constantFrom<ActorName>('anonymous', 'other_org_here', 'bad_auth', 'forged') },
    ),
    forged: fc.oneof(
      fc.record({ user: fc.oneof(fc.constantFrom('owner@example.com\u0000', 'OWNER@example.com ', '\uD800@example.com', 'owner@example.com:x', ''), text) }),
      fc.record({ header: fc.oneof(fc.constantFrom('Basic', 'Basic ====', 'Bearer x', 'basic b3duZXI=', 'Digest a=b'), fc.string({ unit: 'binary-ascii', maxLength: 40 })) }),
    ),
    pathValues: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.record({ plausible: fc.nat() }) },
        { weight: 2, arbitrary: fc.record({ id: smallValue }) },
        { weight: 1, arbitrary: fc.record({ segment: fc.constantFrom(...PATH_SEGMENTS) }) },
      ),
      { minLength: 4, maxLength: 4 },
    ),
    params: fc.array(
      fc.record(
        {
          name: fc.oneof({ weight: 5, arbitrary: fc.record({ declared: fc.nat() }) }, { weight: 1, arbitrary: fc.record({ junk: junkName }) }),
          value: valueRecipe,
          duplicate: valueRecipe,
          remove: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          inQuery: fc.boolean(),
        },
        { requiredKeys: ['name', 'value', 'remove', 'inQuery'] },
      ),
      { maxLength: 4 },
    ),
    encoding: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<Encoding>('query', 'form', 'multipart', 'json') },
      { weight: 1, arbitrary: fc.constantFrom<Encoding>('text', 'form_as_json', 'json_scalar', 'broken_multipart', 'xml') },
    ),
    file: fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    contentEncoding: fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'x-bogus', 'identity') }),
    otherMethod: fc.oneof({ weight: 30, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom<'HEAD' | 'OPTIONS'>('HEAD', 'OPTIONS') }),
    browser: fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 3, arbitrary: fc.constant<BrowserMode>('csrf') },
      { weight: 1, arbitrary: fc.constantFrom<BrowserMode>('no_csrf', 'bad_csrf', 'foreign_origin') },
    ),
  });

/** Percent-encodes any JS string, unpaired surrogates included (as their WTF-8 bytes). */
export function percentEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (cp < 0x80 && /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(cp))) {
      out += String.fromCharCode(cp);
      continue;
    }
    const bytes =
      cp < 0x80
        ? [cp]
        : cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** WTF-8 bytes of a JS string (unpaired surrogates kept as 3-byte sequences). */
const wtf8 = (s: string) => Buffer.from(decodeURIComponentBytes(percentEncode(s)));
function decodeURIComponentBytes(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(s.charCodeAt(i));
  }
  return out;
}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** A one-line description to reproduce the request. */
  describe(): string;
}

export function buildRequest(
  route: Route,
  r: RequestRecipe,
  pool: IdPool,
  auth: { authorization?: string; host?: string },
  /** Every route's declared parameters, for routes that declare none. */
  allDeclared: Route['declared'],
  /** The actor's cookies, for a request sent as the web app (`r.browser`). */
  browser?: BrowserCookies,
): BuiltRequest {
  let path = r.browser !== null && browser !== undefined ? jsonPath(route.path) : route.path;
  route.pathParams.forEach((name, i) => {
    const v = r.pathValues[i % r.pathValues.length];
    const seg =
      'segment' in v ? v.segment : percentEncode(resolveValue('id' in v ? v.id : plausibleValue(name, v.plausible), pool, name).form);
    path = path.replace(new RegExp(`[:*]${name}\\b`), seg === '' ? 'x' : seg);
  });
  // The plausible base, then the generated changes (set, duplicate, remove), by name.
  const entries = new Map<string, { value: Wire; dup?: Wire; inQuery: boolean }>();
  if (r.base) {
    route.declared.forEach((d, i) => {
      if (d.alias || (!d.required && ((r.pick >> i % 30) & 3) === 0)) return;
      let v = plausibleValue(d.name, r.pick + i);
      if (d.encoding === 'json' && v.k === 'string') v = { ...v, quoted: true };
      entries.set(d.name, { value: resolveValue(v, pool, d.name), inQuery: false });
    });
  }
  const names = route.declared.length > 0 ? route.declared : allDeclared;
  for (const p of r.params) {
    const name = 'junk' in p.name ? p.name.junk : names[p.name.declared % names.length].name;
    if (p.remove) entries.delete(name);
    else {
      const dup = p.duplicate === undefined ? undefined : resolveValue(p.duplicate, pool, name);
      entries.set(name, { value: resolveValue(p.value, pool, name), dup, inQuery: p.inQuery });
    }
  }
  const query: [string, string][] = [];
  const body: [string, Wire][] = [];
  for (const [name, { value, dup, inQuery }] of entries) {
    // Long values go in the body when there is one (Node refuses request heads over 16 KB).
    const long = value.form.length > 4096 || (dup !== undefined && dup.form.length > 4096);
    const toQuery = r.encoding === 'query' || (inQuery && !long);
    if (toQuery) query.push([name, value.form]);
    else body.push([name, value]);
    // A duplicate goes to the same place, or to the other one for a body parameter.
    if (dup) {
      if (toQuery) query.push([name, dup.form]);
      else if (inQuery && !long) query.push([name, dup.form]);
      else body.push([name, dup]);
    }
  }
  const headers: Record<string, string> = {};
  if (auth.authorization) headers.authorization = auth.authorization;
  if (auth.host) headers.host = auth.host;
  if (r.browser !== null && browser !== undefined) {
    // The page's own origin: the Host named explicitly (the root organization's by default).
    headers.host = auth.host ?? 'chat.example.com';
    Object.assign(headers, browserHeaders(r.browser, browser, headers.host));
  }
  let payload: Buffer | undefined;
  const formText = () => body.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v.form)}`).join('&');
  switch (r.encoding) {
    case 'query':
      break;
    case 'form':
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = Buffer.from(formText());
      break;
    case 'json':
      headers['content-type'] = 'application/json';
      // Built by hand: duplicate keys stay duplicates, numbers keep their exact tokens.
      payload = wtf8(`{${body.map(([k, v]) => `${JSON.stringify(k)}:${v.json}`).join(',')}}`);
      break;
    case 'multipart': {
      const boundary = '----fuzzBoundary7MA4YWxk';
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      const parts: Buffer[] = body.map(([k, v]) =>
        Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"\r\n\r\n`), wtf8(v.form), Buffer.from('\r\n')]),
      );
      if (r.file) {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fuzz.png"\r\nContent-Type: image/png\r\n\r\n<svg onload=alert(1)>\r\n`));
      }
      payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
      break;
    }
    case 'text':
      headers['content-type'] = 'text/plain';
      payload = Buffer.from(formText());
      break;
    case 'form_as_json':
      headers['content-type'] = 'application/json';
      payload = Buffer.from(formText() || 'x=1');
      break;
    case 'json_scalar':
      headers['content-type'] = 'application/json';
      payload = Buffer.from(body.length > 0 ? `[${body.map(([, v]) => v.json).join(',')}]` : '"just a string"');
      break;
    case 'broken_multipart':
      headers['content-type'] = r.file ? 'multipart/form-data' : 'multipart/form-data; boundary=nope';
      payload = Buffer.from(`--nope\r\nContent-Disposition: form-data; name="a"\r\n\r\n${formText()}`);
      break;
    case 'xml':
      headers['content-type'] = 'application/xml';
      payload = Buffer.from(`<a>${formText()}</a>`);
      break;
  }
  if (payload !== undefined && r.contentEncoding !== null) headers['content-encoding'] = r.contentEncoding;
  const qs = query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  const url = qs === '' ? path : `${path}?${qs}`;
  const method = r.otherMethod === 'OPTIONS' || (r.otherMethod === 'HEAD' && route.method === 'GET') ? r.otherMethod : route.method;
  return {
    method,
    url,
    headers,
    body: payload,
    describe() {
      const shortBody = payload === undefined ? '' : ` body(${headers['content-type']}${headers['content-encoding'] ? `, ${headers['content-encoding']}` : ''})=${clip(payload.toString('utf8'))}`;
      return `${method} ${clip(url)} as ${r.actor}${r.browser !== null && browser !== undefined ? ` (browser, ${r.browser})` : ''}${shortBody}`;
    },
  };
}

/** An API route as the web app calls it: `/api/v1/x` → `/json/x` (other routes as they are). */
function jsonPath(path: string): string {
  return path.startsWith('/api/v1/') ? `/json/${path.slice('/api/v1/'.length)}` : path;
}

/** The cookies and CSRF header of a browser request in this mode. */
function browserHeaders(mode: BrowserMode, b: BrowserCookies, host: string): Record<string, string> {
  const headers: Record<string, string> = { cookie: [b.session === undefined ? null : `sessionid=${b.session}`, `csrftoken=${b.csrf}`].filter((c) => c !== null).join('; ') };
  if (mode === 'csrf' || mode === 'foreign_origin') headers['x-csrftoken'] = b.csrf;
  if (mode === 'bad_csrf') headers['x-csrftoken'] = `${b.csrf.slice(1)}x`;
  headers.origin = mode === 'foreign_origin' ? 'https://evil.example' : `http://${host}`;
  return headers;
}

export const clip = (s: string, n = 300) => {
  const printable = JSON.stringify(s).slice(1, -1);
  return printable.length <= n ? printable : `${printable.slice(0, n)}…(${s.length} chars)`;
};

// ---------------------------------------------------------------------------------------------
// Writes to the database, counted per table by row triggers installed in the test's own database:
// an INSERT or DELETE counts, an UPDATE only when the row's content changes, and a rolled-back
// transaction takes its counts with it. Comparing the counters before and after a request tells
// whether it changed any row, in one small query (a content hash of every table costs ~25 ms).

export class WriteCounter {
  private constructor(
    private readonly client: pg.Client,
    private readonly idStatement: string,
  ) {}

  static async install(databaseUrl: string): Promise<WriteCounter> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY 1`,
    );
    await client.query(`
      CREATE TABLE fuzz_writes (tbl text PRIMARY KEY, n bigint NOT NULL);
      CREATE FUNCTION fuzz_count_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO fuzz_writes VALUES (TG_TABLE_NAME, 1) ON CONFLICT (tbl) DO UPDATE SET n = fuzz_writes.n + 1;
        RETURN NULL;
      END $$;
      ${rows
        .map(
          ({ table_name: t }) => `
        CREATE TRIGGER fuzz_insert_delete AFTER INSERT OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION fuzz_count_write();
        CREATE TRIGGER fuzz_update AFTER UPDATE ON "${t}" FOR EACH ROW
          WHEN (OLD::text IS DISTINCT FROM NEW::text) EXECUTE FUNCTION fuzz_count_write();`,
        )
        .join('')}`);
    const { rows: idTables } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'id' AND data_type IN ('integer', 'bigint') AND table_name <> 'migrations' ORDER BY 1`,
    );
    const idStatement = idTables
      .map((r) => `SELECT '${r.table_name}' AS t, coalesce((SELECT array_agg(id::int ORDER BY id) FROM (SELECT id FROM "${r.table_name}" ORDER BY id DESC LIMIT 6) s), '{}') AS ids`)
      .join(' UNION ALL ');
    return new WriteCounter(client, idStatement);
  }

  /** Rows changed so far, per table. */
  async take(): Promise<Map<string, string>> {
    const { rows } = await this.client.query<{ tbl: string; n: string }>('SELECT tbl, n FROM fuzz_writes');
    return new Map(rows.map((r) => [r.tbl, r.n]));
  }

  async ids(): Promise<IdPool> {
    const { rows } = await this.client.query<{ t: string; ids: number[] }>(this.idStatement);
    const byTable = new Map(rows.map((r) => [r.t, r.ids]));
    return { byTable, all: [...new Set(rows.flatMap((r) => r.ids))].sort((a, b) => a - b), strings: [] };
  }

  query(text: string, params: unknown[] = []) {
    return this.client.query(text, params);
  }

  close() {
    return this.client.end();
  }
}

/** The tables whose counters differ. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((t) => before.get(t) !== after.get(t));
}
