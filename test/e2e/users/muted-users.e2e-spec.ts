import { DataSource } from 'typeorm';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let hamlet: Account;
let cordelia: Account;
let othello: Account;
let bot: Account;
let otherOwner: Account;

beforeAll(async () => {
  t = await TestApp.start();
  hamlet = await t.createUser({ fullName: 'Hamlet' });
  cordelia = await t.createUser({ fullName: 'Cordelia' });
  othello = await t.createUser({ fullName: 'Othello' });
  bot = await t.createBot(hamlet, 'hambot');
  otherOwner = await t.createOrganization('other');
  await createChannels(t, ['general']);
  expectSuccess(
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [hamlet.id, cordelia.id, othello.id] } }),
  );
});
afterAll(() => t.close());

const mute = (as: Account, id: number | string) => t.post(`users/me/muted_users/${id}`, { as });
const unmute = (as: Account, id: number | string) => t.delete(`users/me/muted_users/${id}`, { as });
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
const db = () => t.app.get(DataSource);
const rows = async () =>
  db().query(`SELECT realm_id, user_id, muted_user_id, date_muted FROM muted_users ORDER BY user_id, muted_user_id`) as Promise<unknown[]>;
const seconds = () => Math.floor(t.clock.now().getTime() / 1000);
const isRead = async (userId: number, messageId: number) => {
  const [row] = await db().query(`SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2`, [userId, messageId]);
  return (row.flags & 1) !== 0;
};
const registered = async (as: Account) => {
  const res = await t.post('register', { as, form: { fetch_event_types: ['muted_users'] } });
  expectSuccess(res);
  return res.body.muted_users as { id: number; timestamp: number }[];
};

afterEach(async () => {
  await db().query(`DELETE FROM muted_users`);
});

describe('POST and DELETE /users/me/muted_users/{muted_user_id}', () => {
  it('mutes and unmutes, each time telling only the muter’s queues the whole list', async () => {
    const [mine, theirs] = [await EventClient.register(t, hamlet), await EventClient.register(t, cordelia)];
    const res = await mute(hamlet, cordelia.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const at = seconds();
    expectSuccess(await mute(hamlet, othello.id));
    expect(strip(await mine.ofType('muted_users', 2))).toEqual([
      { type: 'muted_users', muted_users: [{ id: cordelia.id, timestamp: at }] },
      {
        type: 'muted_users',
        muted_users: [
          { id: cordelia.id, timestamp: at },
          { id: othello.id, timestamp: at },
        ],
      },
    ]);
    expect(await registered(hamlet)).toEqual([
      { id: cordelia.id, timestamp: at },
      { id: othello.id, timestamp: at },
    ]);

    const del = await unmute(hamlet, cordelia.id);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ result: 'success', msg: '' });
    expect(strip(await mine.ofType('muted_users'))).toEqual([{ type: 'muted_users', muted_users: [{ id: othello.id, timestamp: at }] }]);
    expect(await theirs.drain()).toEqual([]);
    expect(await registered(cordelia)).toEqual([]);
  });

  it('keeps the time muted in whole seconds', async () => {
    const before = t.clock.now();
    t.clock.current = new Date('2021-01-01T00:00:00.750Z');
    try {
      expectSuccess(await mute(hamlet, cordelia.id));
    } finally {
      t.clock.current = before;
    }
    expect(await registered(hamlet)).toEqual([{ id: cordelia.id, timestamp: 1609459200 }]);
  });

  it('mutes bots and deactivated users too, and bots may mute', async () => {
    expectSuccess(await mute(hamlet, bot.id));
    expectSuccess(await mute(bot, cordelia.id));
    const gone = await t.createUser({ fullName: 'Gone' });
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectSuccess(await mute(hamlet, gone.id));
    expect((await registered(hamlet)).map((e) => e.id)).toEqual([bot.id, gone.id]);
    expectSuccess(await unmute(hamlet, gone.id));
    expectSuccess(await unmute(hamlet, bot.id));
    expect(await registered(hamlet)).toEqual([]);
  });

  it('keeps each organization’s mutes apart', async () => {
    expectSuccess(await mute(hamlet, cordelia.id));
    expect(await registered(otherOwner)).toEqual([]);
    expect(await registered(cordelia)).toEqual([]);
    expect(await rows()).toEqual([expect.objectContaining({ user_id: hamlet.id, muted_user_id: cordelia.id })]);
  });

  it.each<[string, 'post' | 'delete', () => Account, () => number, string]>([
    ['muting oneself', 'post', () => hamlet, () => hamlet.id, 'Cannot mute self'],
    ['muting an unknown id', 'post', () => hamlet, () => 999_999, 'No such user'],
    ['muting id 0', 'post', () => hamlet, () => 0, 'No such user'],
    ['muting another organization’s user', 'post', () => hamlet, () => otherOwner.id, 'No such user'],
    ['muting twice', 'post', () => hamlet, () => othello.id, 'User already muted'],
    ['unmuting an unknown id', 'delete', () => hamlet, () => 999_999, 'No such user'],
    ['unmuting another organization’s user', 'delete', () => hamlet, () => otherOwner.id, 'No such user'],
    ['unmuting a user not muted', 'delete', () => hamlet, () => cordelia.id, 'User is not muted'],
    ['unmuting oneself', 'delete', () => hamlet, () => hamlet.id, 'User is not muted'],
    ['unmuting someone muted by another user', 'delete', () => cordelia, () => othello.id, 'User is not muted'],
    ['the other organization muting this one’s user', 'post', () => otherOwner, () => hamlet.id, 'No such user'],
  ])('%s: Zulip’s error, nothing written, no event', async (_, method, as, id, msg) => {
    expectSuccess(await mute(hamlet, othello.id));
    const before = await rows();
    const q = await EventClient.register(t, as());
    expectError(await t.call(method, `users/me/muted_users/${id()}`, { as: as() }), 400, msg, 'BAD_REQUEST');
    expect(await rows()).toEqual(before);
    expect(await q.drain()).toEqual([]);
  });

  it.each(['abc', '1.5', '-1', '12345678901', '"5"'])('answers a non-numeric id %s as an unknown route, writing nothing', async (id) => {
    for (const method of ['post', 'delete'] as const) {
      const res = await t.call(method, `users/me/muted_users/${encodeURIComponent(id)}`, { as: hamlet });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: 'error' });
    }
    expect(await rows()).toEqual([]);
  });

  it('needs authentication', async () => {
    expectError(await t.post(`users/me/muted_users/${cordelia.id}`, { as: null }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    expect(await rows()).toEqual([]);
  });
});

describe('read flags of a muted user’s messages', () => {
  it('muting marks the muted user’s unread messages to the muter read, with one update_message_flags event first', async () => {
    const channelMsg = await sendToChannel(t, cordelia, 'general', 'spam', 'Spam in channel');
    const group = await sendDirect(t, cordelia, [hamlet.id, othello.id], 'Spam in a group');
    const direct = await sendDirect(t, cordelia, [hamlet.id], 'Spam to Hamlet');
    const toOthello = await sendDirect(t, cordelia, [othello.id], 'Spam to Othello');
    const fromOthello = await sendToChannel(t, othello, 'general', 'spam', 'Not spam');
    for (const id of [channelMsg, group, direct]) expect(await isRead(hamlet.id, id)).toBe(false);

    const q = await EventClient.register(t, hamlet);
    expectSuccess(await mute(hamlet, cordelia.id));
    const events = strip(await q.ofType('muted_users'));
    expect(events).toHaveLength(1);
    const all = strip((await t.get('events', { as: hamlet, query: { queue_id: q.queueId, last_event_id: -1, dont_block: true } })).body.events);
    expect(all.map((e) => e.type)).toEqual(['update_message_flags', 'muted_users']);
    expect(all[0]).toEqual({
      type: 'update_message_flags',
      op: 'add',
      operation: 'add',
      flag: 'read',
      messages: [channelMsg, group, direct],
      all: false,
    });

    for (const id of [channelMsg, group, direct]) expect(await isRead(hamlet.id, id)).toBe(true);
    expect(await isRead(hamlet.id, fromOthello)).toBe(false);
    for (const id of [channelMsg, group, toOthello]) expect(await isRead(othello.id, id)).toBe(false);

    // Nothing unread left: the next mute sends no flag event.
    expectSuccess(await unmute(hamlet, cordelia.id));
    const q2 = await EventClient.register(t, hamlet);
    expectSuccess(await mute(hamlet, cordelia.id));
    expect((await q2.next()).map((e) => e.type)).toEqual(['muted_users']);
    // Unmuting leaves them read.
    expectSuccess(await unmute(hamlet, cordelia.id));
    expect(await isRead(hamlet.id, direct)).toBe(true);
  });

  it('a failed mute marks nothing read', async () => {
    const direct = await sendDirect(t, cordelia, [hamlet.id], 'still unread');
    expectSuccess(await mute(hamlet, cordelia.id));
    const later = await sendDirect(t, othello, [hamlet.id], 'from othello');
    await db().query(`UPDATE user_messages SET flags = flags & ~1 WHERE user_id = $1 AND message_id = $2`, [hamlet.id, direct]);
    expectError(await mute(hamlet, cordelia.id), 400, 'User already muted');
    expect(await isRead(hamlet.id, direct)).toBe(false);
    expect(await isRead(hamlet.id, later)).toBe(false);
  });

  it('messages a muted user sends later arrive read for the muter only, in channels, groups and DMs', async () => {
    expectSuccess(await mute(hamlet, cordelia.id));
    const [hamletQ, othelloQ] = [await EventClient.register(t, hamlet, { event_types: ['message'] }), await EventClient.register(t, othello, { event_types: ['message'] })];
    const channelMsg = await sendToChannel(t, cordelia, 'general', 'later', 'Later spam @**all**');
    const [hamletFlags, othelloFlags] = [(await hamletQ.ofType('message'))[0].flags, (await othelloQ.ofType('message'))[0].flags];
    expect(hamletFlags).toEqual(['read', ...(othelloFlags as string[])]);
    expect(othelloFlags).toContain('stream_wildcard_mentioned');
    expect(othelloFlags).not.toContain('read');
    const group = await sendDirect(t, cordelia, [hamlet.id, othello.id], 'Later group spam');
    const direct = await sendDirect(t, cordelia, [hamlet.id], 'Later spam to Hamlet');
    for (const id of [channelMsg, group, direct]) expect(await isRead(hamlet.id, id)).toBe(true);
    for (const id of [channelMsg, group]) expect(await isRead(othello.id, id)).toBe(false);
    // The sender's own copies are unaffected by anyone muting them.
    const fromHamlet = await sendDirect(t, hamlet, [cordelia.id], 'Hamlet to Cordelia');
    expect(await isRead(cordelia.id, fromHamlet)).toBe(false);

    const unread = await t.post('register', { as: hamlet, form: { fetch_event_types: ['message', 'update_message_flags'] } });
    const dmIds = (unread.body.unread_msgs.pms as { message_ids: number[] }[]).flatMap((p) => p.message_ids);
    expect(dmIds).not.toContain(direct);

    expectSuccess(await unmute(hamlet, cordelia.id));
    const afterUnmute = await sendDirect(t, cordelia, [hamlet.id], 'After unmuting');
    expect(await isRead(hamlet.id, afterUnmute)).toBe(false);
  });

  it('sending to many recipients costs the same statements whether or not some of them muted the sender', async () => {
    const counter = t.app.get(StatementCounter);
    const count = async (content: string) => {
      counter.count = 0;
      await sendToChannel(t, cordelia, 'general', 'count', content);
      return counter.count;
    };
    await count('the topic exists before counting');
    const plain = await count('plain');
    expectSuccess(await mute(hamlet, cordelia.id));
    expectSuccess(await mute(othello, cordelia.id));
    expect(await count('muted')).toBe(plain);
  });
});

describe('POST /register: muted_users', () => {
  it('is the list when fetched, absent otherwise, and the event type reaches only queues that ask for it', async () => {
    expectSuccess(await mute(hamlet, cordelia.id));
    const at = seconds();
    const all = await t.post('register', { as: hamlet });
    expect(all.body.muted_users).toEqual([{ id: cordelia.id, timestamp: at }]);
    const none = await t.post('register', { as: hamlet, form: { fetch_event_types: ['message'] } });
    expect(none.body).not.toHaveProperty('muted_users');

    const q = await EventClient.register(t, hamlet, { event_types: ['muted_users'] });
    expect(q.state.muted_users).toEqual([{ id: cordelia.id, timestamp: at }]);
    const notListening = await EventClient.register(t, hamlet, { event_types: ['message'] });
    expectSuccess(await unmute(hamlet, cordelia.id));
    expect(strip(await q.next())).toEqual([{ type: 'muted_users', muted_users: [] }]);
    expect(await notListening.drain()).toEqual([]);
  });
});
