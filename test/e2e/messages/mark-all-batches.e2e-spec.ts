import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /mark_all_as_read in batches (issue 13, finding 14), with a batch of 3 and no time to
 * spare: every request marks one batch (newest first, in its own transaction with its own
 * event) and answers `complete: false` while more may be unread, so a client calls again until
 * `complete: true`, which comes with Zulip's `all: true` event.
 */

let t: TestApp;
let bob: Account;

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

const unreadOf = async (userId: number): Promise<number[]> =>
  (await sql(`SELECT message_id FROM user_messages WHERE user_id = $1 AND (flags & 1) = 0 ORDER BY message_id`, [userId])).map((r) => r.message_id as number);

beforeAll(async () => {
  t = await TestApp.start({ MARK_ALL_AS_READ_BATCH_SIZE: '3', MARK_ALL_AS_READ_TIME_LIMIT_MS: '0' });
  bob = await t.createUser({ fullName: 'Bob' });
  await createChannels(t, ['lounge']);
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [bob.id] } });
  // Bob starts with nothing unread (the Notification Bot told him of his subscription).
  await sql(`UPDATE user_messages SET flags = flags | 1 WHERE user_id = $1`, [bob.id]);
});
afterAll(() => t.close());

const readEvent = (messages: number[], all = false) => ({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all });

describe('POST /mark_all_as_read past its time limit', () => {
  it('marks a batch per request, newest first, answers complete: false until done, with an event per batch', async () => {
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push(await sendToChannel(t, undefined, 'lounge', 'unread', `message ${i}`));
    sent.push(await sendDirect(t, undefined, [bob.id], 'direct one'), await sendDirect(t, undefined, [bob.id], 'direct two'));
    expect(await unreadOf(bob.id)).toEqual(sent);
    const q = await EventClient.register(t, bob, { event_types: ['update_message_flags'] });

    let res = await t.post('mark_all_as_read', { as: bob });
    expect(res.body).toEqual({ result: 'success', msg: '', complete: false });
    expect(await unreadOf(bob.id)).toEqual(sent.slice(0, 4));
    expect((await q.next()).map(({ id: _id, ...e }) => e)).toEqual([readEvent(sent.slice(4))]);

    res = await t.post('mark_all_as_read', { as: bob });
    expect(res.body).toEqual({ result: 'success', msg: '', complete: false });
    expect(await unreadOf(bob.id)).toEqual(sent.slice(0, 1));
    expect((await q.next()).map(({ id: _id, ...e }) => e)).toEqual([readEvent(sent.slice(1, 4))]);

    // The last batch is short: done, and clients reload their unreads.
    res = await t.post('mark_all_as_read', { as: bob });
    expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await unreadOf(bob.id)).toEqual([]);
    expect((await q.next()).map(({ id: _id, ...e }) => e)).toEqual([readEvent([], true)]);

    expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: true });
    expect((await q.next()).map(({ id: _id, ...e }) => e)).toEqual([readEvent([], true)]);
  });

  it('says complete: false after a full last batch, and the next call finds nothing left', async () => {
    const sent: number[] = [];
    for (let i = 0; i < 3; i++) sent.push(await sendToChannel(t, undefined, 'lounge', 'three', `message ${i}`));
    expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: false });
    expect(await unreadOf(bob.id)).toEqual([]);
    expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: true });
  });

  it('leaves other users’ unread messages alone', async () => {
    const carol = await t.createUser({ fullName: 'Carol' });
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [carol.id] } });
    const id = await sendToChannel(t, undefined, 'lounge', 'both', 'for bob and carol');
    expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: true });
    expect(await unreadOf(carol.id)).toContain(id);
    expect(await unreadOf(bob.id)).toEqual([]);
  });
});
