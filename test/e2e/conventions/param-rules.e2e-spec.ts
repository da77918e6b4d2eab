import { createChannels } from '../../support/channels.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, expectError, TestApp } from '../../support/test-app.js';

/*
 * Issue 13, finding 12: text and id parameters are checked once, at the parameter layer. NUL
 * bytes and unpaired surrogates in text, and ids outside the int4 id columns, are a 400 with
 * the parameter's name (never a 500), and nothing is written.
 */

let t: TestApp;
let alice: Account;
let general: number;
let msg: number;
const HUGE = 3_000_000_000;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice Example' });
  general = (await createChannels(t, ['general'])).general;
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [alice.id] } });
  msg = await sendToChannel(t, alice, 'general', 'hello', 'first');
});
afterAll(() => t.close());

/** A JSON request body: carries unpaired surrogates as `\udXXX` escapes, which a form cannot. */
const json = (method: 'post' | 'patch' | 'get', path: string, body: Record<string, unknown>) =>
  t.http[method](`/api/v1/${path}`).auth(alice.email, alice.apiKey).type('json').send(body);

/** What the endpoints could have written, read back through the API. */
const snapshot = async () => ({
  snippets: (await t.get('saved_snippets', { as: alice })).body.saved_snippets,
  status: (await t.get(`users/${alice.id}/status`, { as: alice })).body.status,
  groups: (await t.get('user_groups', { as: alice })).body.user_groups?.length,
  messages: (await t.get('messages', { as: alice, query: { anchor: 'newest', num_before: 100, num_after: 0 } })).body.messages?.map(
    (m: { id: number; flags: string[] }) => [m.id, m.flags],
  ),
  topics: (await t.get(`users/me/${general}/topics`, { as: alice })).body.topics?.length,
});

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

describe('text parameters refuse NUL and unpaired surrogates', () => {
  const cases: [string, 'post' | 'patch' | 'get', string, () => Record<string, unknown>, string][] = [];
  for (const [label, bad] of [['NUL', NUL], ['unpaired surrogate', LONE]] as const) {
    cases.push(
      [`${label} in snippet title`, 'post', 'saved_snippets', () => ({ title: bad, content: 'c' }), 'title'],
      [`${label} in snippet content`, 'post', 'saved_snippets', () => ({ title: 't', content: bad }), 'content'],
      [`${label} in status text`, 'post', 'users/me/status', () => ({ status_text: bad }), 'status_text'],
      [`${label} in user_topics topic`, 'post', 'user_topics', () => ({ stream_id: general, topic: bad, visibility_policy: 1 }), 'topic'],
      [`${label} in client name`, 'post', 'messages', () => ({ type: 'stream', to: 'general', topic: 't', content: 'x', client: bad }), 'client'],
      [`${label} in group name`, 'post', 'user_groups/create', () => ({ name: bad, description: 'd', members: JSON.stringify([alice.id]) }), 'name'],
      [`${label} in group description`, 'post', 'user_groups/create', () => ({ name: 'g', description: bad, members: JSON.stringify([alice.id]) }), 'description'],
    );
  }
  it.each(cases)('%s', async (_label, method, path, body, param) => {
    const before = await snapshot();
    expectError(await json(method, path, body()), 400, `Invalid characters in ${param}`);
    expect(await snapshot()).toEqual(before);
  });

  it('a NUL sent in a form body is refused as well', async () => {
    const before = await snapshot();
    expectError(await t.post('saved_snippets', { as: alice, form: { title: NUL, content: 'c' } }), 400, 'Invalid characters in title');
    expect(await snapshot()).toEqual(before);
  });

  it('a search operand with NUL or an unpaired surrogate is refused', async () => {
    for (const bad of [NUL, LONE]) {
      const res = await t.get('messages', {
        as: alice,
        query: { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['search', bad]]) },
      });
      expectError(res, 400, 'Invalid characters in narrow[0][1]');
    }
  });

  it('message content keeps its own Zulip text for NUL', async () => {
    const res = await t.post('messages', { as: alice, form: { type: 'stream', to: 'general', topic: 't', content: NUL } });
    expectError(res, 400, 'Message must not contain null bytes');
  });
});

describe('id parameters stay within the id columns', () => {
  it('message_ids above int4', async () => {
    const res = await t.get('messages', { as: alice, query: { message_ids: JSON.stringify([msg, HUGE]) } });
    expectError(res, 400, 'message_ids[1] is too large');
  });

  it('messages of a flag update above int4, and nothing is flagged', async () => {
    const before = await snapshot();
    const res = await t.post('messages/flags', { as: alice, form: { messages: JSON.stringify([msg, HUGE]), op: 'add', flag: 'starred' } });
    expectError(res, 400, 'messages[1] is too large');
    expect(await snapshot()).toEqual(before);
  });

  it('stream_id above int4, and nothing is written', async () => {
    const before = await snapshot();
    const res = await t.post('user_topics', { as: alice, form: { stream_id: HUGE, topic: 'hello', visibility_policy: 1 } });
    // POST /user_topics keeps its own answer for an id that names no channel.
    expectError(res, 400, 'Invalid channel ID');
    const move = await t.patch(`messages/${msg}`, { as: alice, form: { stream_id: HUGE } });
    expectError(move, 400, 'stream_id is too large');
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    [[['channel', HUGE]], 'narrow[0][1] is too large'],
    [[['id', HUGE]], 'narrow[0][1] is too large'],
    [[['sender', HUGE]], 'narrow[0][1] is too large'],
    [[['dm', [1, HUGE]]], 'narrow[0][1][1] is too large'],
    [[{ operator: 'near', operand: HUGE }], 'narrow[0]["operand"] is too large'],
  ])('narrow %j', async (narrow, error) => {
    const res = await t.get('messages', { as: alice, query: { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify(narrow) } });
    expectError(res, 400, error);
  });

  it('an id written as a string in a narrow gets the narrow\'s own answer, not a 500', async () => {
    for (const narrow of [[['id', String(HUGE)]], [['channel', String(HUGE)]], [['sender', String(HUGE)]]]) {
      const res = await t.get('messages', { as: alice, query: { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify(narrow) } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    }
  });
});
