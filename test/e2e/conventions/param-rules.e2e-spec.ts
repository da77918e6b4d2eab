import { createChannels } from '../../support/channels.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, expectError, TestApp } from '../../support/test-app.js';

/*
 * Issue 13, finding 12: bad input that used to reach PostgreSQL and come back as a 500.
 *
 * - Text: a NUL (which PostgreSQL cannot store in text) or an unpaired UTF-16 surrogate (which
 *   has no UTF-8 form) anywhere in a parameter is refused at the parameter layer, naming the
 *   parameter, and nothing is written. Parameters for which Zulip has its own answer (message
 *   content, topics, channel and user names) keep it.
 * - Ids: an id beyond PostgreSQL's integer columns names nothing, so every endpoint answers
 *   exactly as it does for an in-range id that names nothing (Zulip's "Invalid channel ID",
 *   "No such user", no match in a narrow...), never a new error and never a 500.
 */

let t: TestApp;
let alice: Account;
let general: number;
let msg: number;
let snippet: number;
let group: number;

/** Above PostgreSQL's integer (2147483647), still a safe JavaScript integer. */
const HUGE = 3_000_000_000;
/** In range, names nothing. */
const GONE = 424_242;

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

/** A fingerprint of every table's content: equal before and after means nothing was written. */
async function snapshot(): Promise<Record<string, string>> {
  const tables: { table_name: string }[] = await sql(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const rows: { name: string; h: string }[] = await sql(
    tables
      .map(({ table_name: n }) => `SELECT '${n}' AS name, md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS h FROM "${n}" x`)
      .join(' UNION ALL '),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.h]));
}

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice Example' });
  general = (await createChannels(t, ['general'])).general;
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [alice.id] } });
  msg = await sendToChannel(t, alice, 'general', 'hello', 'first');
  snippet = (await t.post('saved_snippets', { as: alice, form: { title: 't', content: 'c' } })).body.saved_snippet_id;
  group = (await t.post('user_groups/create', { as: alice, form: { name: 'crew', description: 'd', members: [alice.id] } })).body.group_id;
});
afterAll(() => t.close());

type Method = 'get' | 'post' | 'patch' | 'delete' | 'put';

/** A form (or query) request, as clients send them. */
const call = (method: Method, path: string, params: Record<string, unknown>, as: Account = alice) =>
  t.call(method, path, method === 'get' ? { as, query: params } : { as, form: params });

/** A JSON request body: can carry unpaired surrogates (`"\ud800"`), which a form cannot. */
const json = (method: Method, path: string, body: Record<string, unknown>, as: Account = alice) =>
  t.http[method](`/api/v1/${path}`).auth(as.email, as.apiKey).type('json').send(body);

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

describe('text parameters refuse NUL and unpaired surrogates', () => {
  const newest = (narrow: unknown) => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow });
  /** [label, method, path, params with the bad text, the parameter named in the error] */
  const cases = (bad: string): [string, Method, () => string, () => Record<string, unknown>, string][] => [
    ['snippet title', 'post', () => 'saved_snippets', () => ({ title: bad, content: 'c' }), 'title'],
    ['snippet content', 'post', () => 'saved_snippets', () => ({ title: 't', content: bad }), 'content'],
    ['edited snippet title', 'patch', () => `saved_snippets/${snippet}`, () => ({ title: bad }), 'title'],
    ['status text', 'post', () => 'users/me/status', () => ({ status_text: bad }), 'status_text'],
    ['user_topics topic', 'post', () => 'user_topics', () => ({ stream_id: general, topic: bad, visibility_policy: 1 }), 'topic'],
    ['mark_topic_as_read topic', 'post', () => 'mark_topic_as_read', () => ({ stream_id: general, topic_name: bad }), 'topic_name'],
    ['client name', 'post', () => 'messages', () => ({ type: 'stream', to: 'general', topic: 't', content: 'x', client: bad }), 'client'],
    ['group name', 'post', () => 'user_groups/create', () => ({ name: bad, description: 'd', members: [alice.id] }), 'name'],
    ['group description', 'post', () => 'user_groups/create', () => ({ name: 'g', description: bad, members: [alice.id] }), 'description'],
    ['edited group name', 'patch', () => `user_groups/${group}`, () => ({ name: bad }), 'name'],
    ['edited group description', 'patch', () => `user_groups/${group}`, () => ({ description: bad }), 'description'],
    ['search operand', 'get', () => 'messages', () => newest([['search', bad]]), 'narrow[0][1]'],
    ['topic operand', 'get', () => 'messages', () => newest([{ operator: 'topic', operand: bad }]), 'narrow[0]["operand"]'],
    ['channel description', 'patch', () => `streams/${general}`, () => ({ description: bad }), 'description'],
  ];

  it.each(cases(NUL))('NUL in %s: 400 naming the parameter, nothing written', async (_label, method, path, params, name) => {
    const before = await snapshot();
    expectError(await call(method, path(), params()), 400, `Invalid characters in ${name}`);
    expect(await snapshot()).toEqual(before);
  });

  it.each(cases(LONE))('an unpaired surrogate in %s (JSON body): 400, nothing written', async (_label, method, path, params, name) => {
    const before = await snapshot();
    const p = params();
    // A JSON body carries typed values as JSON text, as a form does.
    const body = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    expectError(await json(method, path(), body), 400, `Invalid characters in ${name}`);
    expect(await snapshot()).toEqual(before);
  });

  it('a NUL in a path segment is refused too', async () => {
    expectError(await t.delete(`realm/emoji/${encodeURIComponent(NUL)}`), 400, 'Invalid characters in emoji_name');
    expectError(await t.get(`users/${encodeURIComponent('a\u0000b@example.com')}`, { as: alice }), 400, 'Invalid characters in user_id');
    expectError(
      await t.get(`users/${encodeURIComponent('a\u0000b@example.com')}/presence`, { as: alice }),
      400,
      'Invalid characters in user_id_or_email',
    );
  });

  it('keys of JSON objects are text too', async () => {
    const bot = await t.createBot(alice, 'keeper');
    const before = await snapshot();
    expectError(await call('put', 'bot_storage', { storage: { [NUL]: 'v' } }, bot), 400, 'Invalid characters in storage');
    expectError(await call('put', 'bot_storage', { storage: { k: NUL } }, bot), 400, 'Invalid characters in storage["k"]');
    expect(await snapshot()).toEqual(before);
  });

  it('parameters with a Zulip answer of their own keep it', async () => {
    const send = (form: Record<string, unknown>) => call('post', 'messages', { type: 'stream', to: 'general', ...form });
    expectError(await send({ topic: 't', content: NUL }), 400, 'Message must not contain null bytes');
    expectError(await send({ topic: NUL, content: 'x' }), 400, 'Invalid character in topic, at position 2!');
    expectError(await call('post', 'users/me/subscriptions', { subscriptions: [{ name: NUL }] }), 400, 'Invalid character in channel name, at position 2.');
    expectError(await call('patch', 'settings', { full_name: NUL }), 400, 'Invalid characters in name!');
    expectError(await call('post', 'drafts', { drafts: [{ type: 'stream', to: [general], topic: 'x', content: NUL }] }), 400, 'Message must not contain null bytes');
  });
});

describe('an id beyond the id columns names nothing', () => {
  /** [label, method, path, params naming the id] */
  const cases: [string, Method, string, (id: number) => Record<string, unknown>][] = [
    // The list: message_ids, messages, stream_id and narrow operands.
    ['message_ids', 'get', 'messages', (id) => ({ message_ids: [msg, id] })],
    ['flag update messages', 'post', 'messages/flags', (id) => ({ messages: [msg, id], op: 'add', flag: 'starred' })],
    ['move stream_id', 'patch', 'messages/{msg}', (id) => ({ stream_id: id })],
    ['user_topics stream_id', 'post', 'user_topics', (id) => ({ stream_id: id, topic: 'hello', visibility_policy: 1 })],
    ['default_streams stream_id', 'post', 'default_streams', (id) => ({ stream_id: id })],
    ['default_streams removal stream_id', 'delete', 'default_streams', (id) => ({ stream_id: id })],
    ['subscription property stream_id', 'post', 'users/me/subscriptions/properties', (id) => ({
      subscription_data: [{ stream_id: id, property: 'is_muted', value: true }],
    })],
    ['mark_stream_as_read stream_id', 'post', 'mark_stream_as_read', (id) => ({ stream_id: id })],
    ...(['channel', 'stream', 'id', 'near', 'sender', 'dm', 'dm-including'] as const).map(
      (op): [string, Method, string, (id: number) => Record<string, unknown>] => [
        `narrow ${op} operand`,
        'get',
        'messages',
        (id) => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [[op, op === 'dm' ? [id] : id]] }),
      ],
    ),
    ['narrow operand as a string', 'get', 'messages', (id) => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [['sender', String(id)]] })],
    ['matches_narrow', 'get', 'messages/matches_narrow', (id) => ({ msg_ids: [msg, id], narrow: [['id', id]] })],
    // Other ids that reach the same columns.
    ['direct message recipient', 'post', 'messages', (id) => ({ type: 'direct', to: [id], content: 'x' })],
    ['scheduled direct message recipient', 'post', 'scheduled_messages', (id) => ({
      type: 'direct',
      to: [id],
      content: 'x',
      scheduled_delivery_timestamp: 4_102_444_800,
    })],
    ['group members', 'post', 'user_groups/create', (id) => ({ name: 'g1', description: 'd', members: [id] })],
    ['group subgroups', 'post', 'user_groups/create', (id) => ({ name: 'g2', description: 'd', members: [], subgroups: [id] })],
    ['group setting as a group id', 'post', 'user_groups/create', (id) => ({ name: 'g3', description: 'd', members: [], can_manage_group: id })],
    ['group setting members', 'post', 'user_groups/create', (id) => ({
      name: 'g4',
      description: 'd',
      members: [],
      can_manage_group: { direct_members: [id], direct_subgroups: [] },
    })],
    ['group setting subgroups', 'post', 'user_groups/create', (id) => ({
      name: 'g5',
      description: 'd',
      members: [],
      can_manage_group: { direct_members: [], direct_subgroups: [id] },
    })],
    ['group membership update', 'post', 'user_groups/{group}/members', (id) => ({ add: [id] })],
    ['subscribe principals', 'post', 'users/me/subscriptions', (id) => ({ subscriptions: [{ name: 'n1' }], principals: [id] })],
    ['subscribe folder_id', 'post', 'users/me/subscriptions', (id) => ({ subscriptions: [{ name: 'n2' }], folder_id: id })],
    ['subscribe group setting', 'post', 'users/me/subscriptions', (id) => ({ subscriptions: [{ name: 'n3' }], can_send_message_group: id })],
    ['unsubscribe principals', 'delete', 'users/me/subscriptions', (id) => ({ subscriptions: ['general'], principals: [id] })],
    ['channel create subscribers', 'post', 'channels/create', (id) => ({ name: 'c1', subscribers: [id] })],
    ['channel update folder_id', 'patch', 'streams/{general}', (id) => ({ folder_id: id })],
    ['channel update group setting', 'patch', 'streams/{general}', (id) => ({ can_send_message_group: { new: id } })],
    ['organization group setting', 'patch', 'realm', (id) => ({ can_create_groups: { new: id } })],
  ];

  const resolve = (path: string) => path.replace('{msg}', String(msg)).replace('{general}', String(general)).replace('{group}', String(group));
  /** The answer with the id's digits replaced, to compare answers for two ids. */
  const answer = (res: { status: number; body: unknown }, id: number) => ({
    status: res.status,
    body: JSON.parse(JSON.stringify(res.body).replaceAll(String(id), '<id>')),
  });

  it.each(cases)('%s: answers as for an id that names nothing, writes nothing', async (_label, method, path, params) => {
    // Owners may do all of these, so the answer is about the id, not about permissions.
    const gone = await call(method, resolve(path), params(GONE), t.owner);
    const before = await snapshot();
    const huge = await call(method, resolve(path), params(HUGE), t.owner);
    expect(huge.status, JSON.stringify(huge.body)).toBeLessThan(500);
    expect(answer(huge, HUGE)).toEqual(answer(gone, GONE));
    expect(await snapshot()).toEqual(before);
  });

  it('Zulip answers for the listed parameters', async () => {
    const fetched = await call('get', 'messages', { message_ids: [msg, HUGE] });
    expect(fetched.body.messages.map((m: { id: number }) => m.id)).toEqual([msg]);
    expectError(await call('post', 'messages/flags', { messages: [msg, HUGE], op: 'add', flag: 'starred' }), 400, 'Invalid message(s)');
    expectError(await call('patch', `messages/${msg}`, { stream_id: HUGE }), 400, 'Invalid channel ID');
    expectError(await call('post', 'default_streams', { stream_id: HUGE }, t.owner), 400, 'Invalid channel ID');
    const near = { anchor: 'newest', num_before: 10, num_after: 0 };
    expect((await call('get', 'messages', { ...near, narrow: [['id', HUGE]] })).body.messages).toEqual([]);
    expectError(await call('get', 'messages', { ...near, narrow: [['channel', HUGE]] }), 400, `Invalid narrow operator: unknown channel ${HUGE}`, 'BAD_NARROW', {
      desc: `unknown channel ${HUGE}`,
    });
    expectError(await call('post', 'messages', { type: 'direct', to: [HUGE], content: 'x' }), 400, `Invalid user ID ${HUGE}`);
    expectError(await call('post', 'user_groups/create', { name: 'g', description: 'd', members: [HUGE] }), 400, `Invalid user ID: ${HUGE}`);
    expectError(await call('post', 'users/me/subscriptions', { subscriptions: [{ name: 'n' }], principals: [HUGE] }, t.owner), 400, 'No such user');
  });
});

describe('JSON nesting and numbers kept in integer columns', () => {
  it('a narrow nested deeper than Zulip parses is not valid JSON (not a 500)', async () => {
    const deep = `${'['.repeat(50_000)}1${']'.repeat(50_000)}`;
    const before = await snapshot();
    for (const narrow of [`[["channel", ${deep}]]`, `[{"operator": "dm", "operand": ${deep}}]`]) {
      const res = await call('post', 'messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'read', narrow });
      expectError(res, 400, 'narrow is not valid JSON');
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['patch', 'realm', { waiting_period_threshold: HUGE }, 'waiting_period_threshold is too large'],
    ['patch', 'realm', { message_content_edit_limit_seconds: HUGE }, 'message_content_edit_limit_seconds is too large'],
    ['patch', 'realm', { message_content_delete_limit_seconds: HUGE }, 'message_content_delete_limit_seconds is too large'],
    ['patch', 'realm', { move_messages_within_stream_limit_seconds: HUGE }, 'move_messages_within_stream_limit_seconds is too large'],
    ['patch', 'realm', { move_messages_between_streams_limit_seconds: HUGE }, 'move_messages_between_streams_limit_seconds is too large'],
    ['patch', 'realm', { message_retention_days: HUGE }, 'message_retention_days is too large'],
    ['post', 'users/me/subscriptions', { subscriptions: [{ name: 'kept' }], message_retention_days: HUGE }, 'message_retention_days is too large'],
    ['patch', 'streams/{general}', { message_retention_days: HUGE }, 'message_retention_days is too large'],
  ] as [Method, string, Record<string, unknown>, string][])('%s %s %j: %s, nothing written', async (method, path, params, msg) => {
    const before = await snapshot();
    expectError(await call(method, path.replace('{general}', String(general)), params, t.owner), 400, msg);
    expect(await snapshot()).toEqual(before);
  });
});
