import { alertWordText, containsAlertWord } from '@app/domain/users';
import { DataSource } from 'typeorm';
import zulip from 'zulip-js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { fetchNarrow, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let member: Account;
let other: Account;
let bot: Account;
let otherOwner: Account;

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  bot = await t.createBot(member, 'words');
  otherOwner = await t.createOrganization('other');
  await createChannels(t, ['denmark']);
  expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'denmark' }], principals: [member.id, other.id] } }));
});
afterAll(() => t.close());

const words = async (as: Account) => {
  const res = await t.get('users/me/alert_words', { as });
  expectSuccess(res);
  return res.body.alert_words as string[];
};
const add = (as: Account, alert_words: unknown) => t.post('users/me/alert_words', { as, form: { alert_words } });
const remove = (as: Account, alert_words: unknown) => t.delete('users/me/alert_words', { as, form: { alert_words } });
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
const clear = async (as: Account) => {
  expectSuccess(await remove(as, await words(as)));
};

describe('GET, POST and DELETE /users/me/alert_words', () => {
  afterEach(async () => {
    await clear(member);
  });

  it('starts empty', async () => {
    const res = await t.get('users/me/alert_words', { as: member });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', alert_words: [] });
  });

  it('adds stripped words without blank ones, answers the whole list and tells the user’s queues only', async () => {
    const [mine, mine2, others] = [await EventClient.register(t, member), await EventClient.register(t, member), await EventClient.register(t, other)];
    const res = await add(member, ['milk', 'cookies']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', alert_words: ['milk', 'cookies'] });
    const res2 = await add(member, ['one ', '\n two', 'three', '   ', '']);
    expect(res2.body).toEqual({ result: 'success', msg: '', alert_words: ['milk', 'cookies', 'one', 'two', 'three'] });
    expect(await words(member)).toEqual(['milk', 'cookies', 'one', 'two', 'three']);
    expect(strip(await mine.next())).toEqual([
      { type: 'alert_words', alert_words: ['milk', 'cookies'] },
      { type: 'alert_words', alert_words: ['milk', 'cookies', 'one', 'two', 'three'] },
    ]);
    expect(strip(await mine2.next())).toHaveLength(2);
    expect(await others.drain()).toEqual([]);
    expect(await words(other)).toEqual([]);
  });

  it('ignores words the user has in another case, keeps the spelling last sent, and still sends the event', async () => {
    expectSuccess(await add(member, ['alert', 'multi-word word', '☃']));
    const q = await EventClient.register(t, member);
    const res = await add(member, ['ALert', 'ALERT', 'Fresh', 'FRESH']);
    expect(res.body.alert_words).toEqual(['alert', 'multi-word word', '☃', 'FRESH']);
    expectSuccess(await add(member, []));
    expect(strip(await q.next())).toEqual([
      { type: 'alert_words', alert_words: ['alert', 'multi-word word', '☃', 'FRESH'] },
      { type: 'alert_words', alert_words: ['alert', 'multi-word word', '☃', 'FRESH'] },
    ]);
  });

  it('removes case-insensitively, words as sent (not stripped), unknown ones ignored', async () => {
    expectSuccess(await add(member, ['one', 'two', 'three', '☃']));
    const q = await EventClient.register(t, member);
    const res = await remove(member, ['ONE', ' two', 'nope', '☃']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', alert_words: ['two', 'three'] });
    expect(strip(await q.next())).toEqual([{ type: 'alert_words', alert_words: ['two', 'three'] }]);
  });

  it('allows 100 characters per word as sent, and bots have alert words too', async () => {
    expectSuccess(await add(member, ['x'.repeat(100)]));
    expect(await words(member)).toEqual(['x'.repeat(100)]);
    expectSuccess(await add(bot, ['beep']));
    expect(await words(bot)).toEqual(['beep']);
    expect(await words(member)).toEqual(['x'.repeat(100)]);
  });

  it('keeps each user’s and each organization’s words apart', async () => {
    expectSuccess(await add(member, ['mine']));
    expectSuccess(await add(otherOwner, ['theirs']));
    expect(await words(otherOwner)).toEqual(['theirs']);
    expect(await words(member)).toEqual(['mine']);
    expectSuccess(await remove(otherOwner, ['mine']));
    expect(await words(member)).toEqual(['mine']);
  });

  it.each<[string, Record<string, unknown>, string, string?, Record<string, unknown>?]>([
    ['post', {}, "Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'alert_words' }],
    ['post', { alert_words: 'milk' }, 'alert_words is not valid JSON'],
    ['post', { alert_words: '{"a": 1}' }, 'alert_words is not a list'],
    ['post', { alert_words: ['fine', 5] }, 'alert_words[1] is not a string'],
    ['post', { alert_words: ['fine', null] }, 'alert_words[1] is not a string'],
    ['post', { alert_words: ['x'.repeat(101)] }, 'alert_words[0] is too long (limit: 100 characters)'],
    ['post', { alert_words: ['ok', ` ${'x'.repeat(100)}`] }, 'alert_words[1] is too long (limit: 100 characters)'],
    ['delete', {}, "Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'alert_words' }],
    ['delete', { alert_words: 'keep' }, 'alert_words is not valid JSON'],
    ['delete', { alert_words: [['keep']] }, 'alert_words[0] is not a string'],
  ])('%s %j: Zulip’s error, nothing changed, no event', async (method, form, msg, code = 'BAD_REQUEST', extra = {}) => {
    expectSuccess(await add(member, ['keep']));
    const q = await EventClient.register(t, member);
    expectError(await t.call(method as 'post' | 'delete', 'users/me/alert_words', { as: member, form }), 400, msg, code, extra);
    expect(await words(member)).toEqual(['keep']);
    expect(await q.drain()).toEqual([]);
  });

  it('reports parameters it does not know, and takes multipart bodies (zulip-js)', async () => {
    const res = await t.post('users/me/alert_words', { as: member, multipart: { alert_words: ['multi'], foo: 1 } });
    expectSuccess(res, { alert_words: ['multi'], ignored_parameters_unsupported: ['foo'] });
  });

  it('needs authentication', async () => {
    expectError(await t.get('users/me/alert_words', { as: null }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });
});

describe('POST /register: alert_words', () => {
  it('is the user’s list when fetched, absent otherwise, and the event type reaches the queue', async () => {
    expectSuccess(await add(member, ['Tea', 'coffee']));
    const res = await t.post('register', { as: member, form: { fetch_event_types: ['alert_words'] } });
    expectSuccess(res);
    expect(res.body.alert_words).toEqual(['Tea', 'coffee']);
    expect(res.body).not.toHaveProperty('realm_users');
    const all = await t.post('register', { as: member });
    expect(all.body.alert_words).toEqual(['Tea', 'coffee']);
    const none = await t.post('register', { as: member, form: { fetch_event_types: ['message'] } });
    expect(none.body).not.toHaveProperty('alert_words');

    const q = await EventClient.register(t, member, { event_types: ['alert_words'] });
    expect(q.state.alert_words).toEqual(['Tea', 'coffee']);
    const notListening = await EventClient.register(t, member, { event_types: ['message'] });
    expectSuccess(await remove(member, ['tea']));
    expect(strip(await q.next())).toEqual([{ type: 'alert_words', alert_words: ['coffee'] }]);
    expect(await notListening.drain()).toEqual([]);
    await clear(member);
  });
});

describe('the has_alert_word flag', () => {
  beforeAll(async () => {
    await clear(member);
    await clear(other);
    expectSuccess(await add(member, ['one', 'two', 'three', 'multi-word word', '☃', 'C++']));
  });

  /** The member's flags on a message `other` sends to denmark. */
  const memberFlags = async (content: string) => {
    const id = await sendToChannel(t, other, 'denmark', 'alerts', content);
    const found = (await fetchNarrow(t, member, [{ operator: 'id', operand: id }]))[0];
    return found.flags;
  };

  const MEMBER_WORDS = ['one', 'two', 'three', 'multi-word word', '☃', 'c++'];
  const domainSays = (content: string) => MEMBER_WORDS.some((w) => containsAlertWord(alertWordText(content), w));

  it.each([
    ['Normal alert one time', true],
    ['Normal alert one', true],
    ['two normal alerts', true],
    ['This one? should alert', true],
    ['Definitely time for three.', true],
    ["One two three o'clock", true],
    ["Case of ONE, won't stop me", true],
    ['A MULTI-WORD WORD here', true],
    ['a ☃ in the snow', true],
    ['I write (c++) at work', true],
    ['Done.', false], // Zulip's off-by-one at the second character is not copied
    ['```quote\nsomeone said one\n```', true],
    ['inline `one` code', true],
    ["Don't alert on http://t.co/one/ URLs", false],
    ["Don't alert on http://t.co/one URLs", false],
    ["Don't alert on clone, twofold or seventytwofold", false],
    ['say "one"', false],
    ['cplusplus c+++', false],
    ['```\none\n```', false],
    ['~~~ python\nprint(one)\n~~~', false],
    ['nothing at all', false],
  ])('%j: set is %s, as the domain rule says', async (content, expected) => {
    expect(domainSays(content)).toBe(expected);
    const flags = await memberFlags(content);
    expect(flags.includes('has_alert_word')).toBe(expected);
  });

  it('is in the recipients’ message events and only theirs, the sender’s own words included', async () => {
    expectSuccess(await add(other, ['lunch']));
    const [mine, theirs, owner] = [await EventClient.register(t, member), await EventClient.register(t, other), await EventClient.register(t, t.owner)];
    const id = await sendToChannel(t, other, 'denmark', 'alerts', 'lunch for one?');
    const [m] = await mine.ofType('message');
    const [o] = await theirs.ofType('message');
    const [w] = await owner.ofType('message');
    expect(m).toMatchObject({ message: { id }, flags: ['has_alert_word'] });
    expect(o).toMatchObject({ message: { id } });
    expect(o.flags).toContain('has_alert_word');
    expect(w).toMatchObject({ message: { id }, flags: [] });
    await clear(other);
  });

  it('works for direct messages and the is:alerted narrow', async () => {
    const hit = await sendDirect(t, other, [member.id], 'ping two');
    const miss = await sendDirect(t, other, [member.id], 'ping nobody');
    const alerted = (await fetchNarrow(t, member, [{ operator: 'is', operand: 'alerted' }])).map((m) => m.id);
    expect(alerted).toContain(hit);
    expect(alerted).not.toContain(miss);
    const theirs = await fetchNarrow(t, other, [{ operator: 'id', operand: hit }]);
    expect(theirs[0].flags).not.toContain('has_alert_word');
  });

  it('is re-evaluated on a content edit, and the update_message event carries the new flags', async () => {
    const id = await sendToChannel(t, other, 'denmark', 'edits', 'nothing yet');
    const q = await EventClient.register(t, member);
    expectSuccess(await t.patch(`messages/${id}`, { as: other, form: { content: 'now ONE' } }));
    const [added] = await q.ofType('update_message');
    expect(added.flags).toEqual(['has_alert_word']);
    expect((await fetchNarrow(t, member, [{ operator: 'id', operand: id }]))[0].flags).toEqual(['has_alert_word']);
    expectSuccess(await t.patch(`messages/${id}`, { as: other, form: { content: 'sorry, false alarm' } }));
    const [removed] = await q.ofType('update_message');
    expect(removed.flags).toEqual([]);
    expect((await fetchNarrow(t, member, [{ operator: 'id', operand: id }]))[0].flags).toEqual([]);
  });

  it('keeps the other flags on an edit, and follows the words the user has now', async () => {
    const id = await sendToChannel(t, other, 'denmark', 'edits', 'three');
    expectSuccess(await t.post('messages/flags', { as: member, form: { messages: [id], op: 'add', flag: 'starred' } }));
    expectSuccess(await remove(member, ['three']));
    expectSuccess(await t.patch(`messages/${id}`, { as: other, form: { content: 'three again' } }));
    expect((await fetchNarrow(t, member, [{ operator: 'id', operand: id }]))[0].flags).toEqual(['starred']);
    expectSuccess(await add(member, ['three']));
  });

  it('is not set for deactivated users', async () => {
    const gone = await t.createUser({ fullName: 'Gone' });
    expectSuccess(await add(gone, ['vanish']));
    expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'denmark' }], principals: [gone.id] } }));
    const id = await sendToChannel(t, other, 'denmark', 'gone', 'soon');
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectSuccess(await t.patch(`messages/${id}`, { as: other, form: { content: 'vanish' } }));
    const [row] = await t.app.get(DataSource).query(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [gone.id, id]);
    expect(row.flags & 512).toBe(0);
  });

  it('costs the same statements for 1 or 30 recipients with alert words', async () => {
    const counter = t.app.get(StatementCounter);
    await createChannels(t, ['few', 'many']);
    const crowd: Account[] = [];
    for (let i = 0; i < 30; i++) crowd.push(await t.createUser({ fullName: `Crowd ${i}` }));
    for (const u of crowd) expectSuccess(await add(u, ['crowd', `w${u.id}`]));
    expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'many' }], principals: crowd.map((u) => u.id) } }));
    expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'few' }], principals: [crowd[0].id] } }));
    for (const to of ['few', 'many']) await sendToChannel(t, undefined, to, 't', 'warm up');
    const cost = async (to: string) => {
      const before = counter.count;
      await sendToChannel(t, undefined, to, 't', 'a crowd gathers');
      return counter.count - before;
    };
    const few = await cost('few');
    expect(await cost('many')).toBe(few);
    const flagged: { n: number }[] = await t.app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE m.content = 'a crowd gathers' AND (um.flags & 512) <> 0`,
    );
    expect(flagged[0].n).toBe(31);
  });
});

describe('zulip-js', () => {
  it('reads the alert words through users.me.alertWords.retrieve', async () => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const client = await zulip({ username: other.email, apiKey: other.apiKey, realm: `http://127.0.0.1:${port}` });
      const added = await client.callEndpoint('/users/me/alert_words', 'POST', { alert_words: JSON.stringify(['via zulip-js']) });
      expect(added).toEqual({ result: 'success', msg: '', alert_words: ['via zulip-js'] });
      expect(await client.users.me.alertWords.retrieve()).toEqual({ result: 'success', msg: '', alert_words: ['via zulip-js'] });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
