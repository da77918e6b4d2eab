import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Narrows are bounded (issue 13, finding 8): at most 100 terms wherever a narrow is read
 * (GET /messages, matches_narrow, POST /messages/flags/narrow, register), and the channels and
 * users a narrow names are looked up together, so a narrow of K terms costs the statements of
 * one term of each kind.
 */

const TOO_MANY = 'Too many narrow terms (maximum 100).';

let t: TestApp;
let counter: StatementCounter;
let bob: Account;
let channels: Record<string, number>;
const channelNames = Array.from({ length: 12 }, (_, i) => `room ${i}`);
let userIds: number[] = [];

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

beforeAll(async () => {
  t = await TestApp.start();
  counter = t.app.get(StatementCounter);
  bob = await t.createUser({ fullName: 'Bob' });
  channels = await createChannels(t, channelNames);
  await t.post('users/me/subscriptions', { form: { subscriptions: channelNames.map((name) => ({ name })), principals: [bob.id] } });
  const rows = await sql(
    `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
     SELECT 1, 'many' || g || '@example.com', 'many' || g || '@example.com', 'Many ' || g, md5('many' || g), 400
     FROM generate_series(1, 12) AS g RETURNING id`,
  );
  userIds = rows.map((r) => r.id as number);
  await sendToChannel(t, undefined, 'room 0', 'hello', 'first');
  await sendDirect(t, undefined, [bob.id], 'a direct message');
});
afterAll(() => t.close());

/** `n` terms, all of one operator. */
const terms = (n: number, operator = 'is', operand: unknown = 'unread') => Array.from({ length: n }, () => ({ operator, operand }));

describe('the number of narrow terms', () => {
  it('is at most 100 for GET /messages; 100 are fine', async () => {
    expectSuccess(await t.get('messages', { as: bob, query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: terms(100) } }));
    expectError(await t.get('messages', { as: bob, query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: terms(101) } }), 400, TOO_MANY);
    // Legacy [operator, operand] pairs count the same, and so do unknown channels (not looked up).
    expectError(
      await t.get('messages', { as: bob, query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: Array.from({ length: 200 }, (_, i) => ['channel', `n${i}`]) } }),
      400,
      TOO_MANY,
    );
    expectError(await t.get('messages', { as: bob, query: { message_ids: [1], narrow: terms(101) } }), 400, TOO_MANY);
  });

  it('is at most 100 for GET /messages/matches_narrow', async () => {
    expectSuccess(await t.get('messages/matches_narrow', { as: bob, query: { msg_ids: [1], narrow: terms(100) } }));
    expectError(await t.get('messages/matches_narrow', { as: bob, query: { msg_ids: [1], narrow: terms(101) } }), 400, TOO_MANY);
  });

  it('is at most 100 for POST /messages/flags/narrow, and nothing changes', async () => {
    const id = await sendToChannel(t, undefined, 'room 1', 'flag me', 'unread for bob');
    const form = { anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'read' };
    expectError(await t.post('messages/flags/narrow', { as: bob, form: { ...form, narrow: terms(101, 'channel', 'room 1') } }), 400, TOO_MANY);
    const [row] = await sql(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [bob.id, id]);
    expect(row.flags & 1).toBe(0);
    expectSuccess(await t.post('messages/flags/narrow', { as: bob, form: { ...form, narrow: terms(100, 'channel', 'room 1') } }));
    const [after] = await sql(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [bob.id, id]);
    expect(after.flags & 1).toBe(1);
  });

  it('is at most 100 for an event queue narrow', async () => {
    const pairs = (n: number) => Array.from({ length: n }, () => ['is', 'unread']);
    expectSuccess(await t.post('register', { as: bob, form: { event_types: ['message'], narrow: pairs(100) } }));
    expectError(await t.post('register', { as: bob, form: { event_types: ['message'], narrow: pairs(101) } }), 400, TOO_MANY);
  });
});

describe('statements per narrow', () => {
  async function statements(request: () => Promise<{ status: number; body: unknown }>): Promise<number> {
    const before = counter.count;
    const res = await request();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return counter.count - before;
  }

  /**
   * Channel `room 0`, then `k` terms of every operator that names a channel or a user (by id
   * and by name or email alike), negated so that the answer stays the same messages.
   */
  function narrowOf(k: number) {
    const out: { operator: string; operand: unknown; negated?: boolean }[] = [{ operator: 'channel', operand: 'room 0' }];
    for (let i = 0; i < k; i++) {
      const name = channelNames[(i % (channelNames.length - 1)) + 1];
      const user = userIds[i % userIds.length];
      const email = `many${(i % userIds.length) + 1}@example.com`;
      out.push(
        { operator: i % 2 === 0 ? 'channel' : 'stream', operand: i % 2 === 0 ? name : channels[name], negated: true },
        { operator: 'sender', operand: i % 2 === 0 ? email : user, negated: true },
        { operator: 'dm', operand: [email, user], negated: true },
        { operator: 'dm-including', operand: i % 2 === 0 ? user : email, negated: true },
        { operator: 'topic', operand: `topic ${i}`, negated: true },
      );
    }
    return out;
  }

  const fetch = (narrow: unknown) => () => t.get('messages', { as: bob, query: { anchor: 'newest', num_before: 20, num_after: 0, narrow } });

  it('are the same for 1 term of each kind and 19 of each (96 terms), with the same answer', async () => {
    const one = narrowOf(1);
    const many = narrowOf(19);
    expect(many).toHaveLength(96);
    const answer = (await fetch(one)()).body.messages;
    expect(answer.map((m: { content: string }) => m.content)).toContain('<p>first</p>');
    expect((await fetch(many)()).body.messages).toEqual(answer);
    expect(await statements(fetch(many))).toBe(await statements(fetch(one)));
    const matches = (narrow: unknown) => () => t.get('messages/matches_narrow', { as: bob, query: { msg_ids: [1, 2, 3], narrow } });
    expect(await statements(matches(many))).toBe(await statements(matches(one)));
    const flag = (narrow: unknown, op: string) => () =>
      t.post('messages/flags/narrow', { as: bob, form: { anchor: 'newest', num_before: 20, num_after: 0, op, flag: 'starred', narrow } });
    // The first star gives Bob rows for the channel's messages from before he joined: warm up.
    await statements(flag(one, 'add'));
    await statements(flag(one, 'remove'));
    const star = await statements(flag(one, 'add'));
    const unstar = await statements(flag(one, 'remove'));
    expect(await statements(flag(many, 'add'))).toBe(star);
    expect(await statements(flag(many, 'remove'))).toBe(unstar);
  });

  it('are the same for 1 and 100 channel terms, and for 1 and 100 sender terms', async () => {
    const channelTerms = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ operator: 'channel', operand: i === 0 ? 'room 0' : channelNames[(i % 11) + 1], negated: i > 0 }));
    expect(await statements(fetch(channelTerms(100)))).toBe(await statements(fetch(channelTerms(1))));
    const senderTerms = (n: number) => Array.from({ length: n }, (_, i) => ({ operator: 'sender', operand: `many${(i % 12) + 1}@example.com`, negated: true }));
    expect(await statements(fetch(senderTerms(100)))).toBe(await statements(fetch(senderTerms(1))));
  });
});
