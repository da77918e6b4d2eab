import { channelIds, createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { message, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read (Zulip's message_flags.py
 * views and do_mark_*_as_read): responses, errors, the `update_message_flags` events and who
 * hears them.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let other: Account;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  other = await t.createOrganization('other');
  await createChannels(t, ['lounge', 'archive me', 'lobby']);
  await createChannels(t, ['secret'], { form: { invite_only: true } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }, { name: 'archive me' }, { name: 'secret' }], principals: [bob.id] } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [alice.id] } });
  expectSuccess(await t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  ids = { ...(await channelIds(t, ['lounge', 'archive me', 'secret', 'lobby'])) };
});
afterAll(() => t.close());

const flagsOf = async (as: Account, id: number) => (await message(t, as, id)).flags as string[];
const readEvent = (messages: number[], all = false) => ({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all });

/** The flag events `as` got from `act`: a star on a marker message closes the list. */
async function flagEvents(as: Account, act: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const q = await EventClient.register(t, as, { event_types: ['update_message_flags'] });
  await act();
  const marker = await sendDirect(t, t.owner, [as.id], 'marker');
  expectSuccess(await t.post('messages/flags', { as, form: { messages: [marker], op: 'add', flag: 'starred' } }));
  const got: Record<string, unknown>[] = [];
  for (let i = 0; i < 20 && !got.some((e) => e.flag === 'starred'); i++) got.push(...(await q.next()).map(({ id: _id, ...e }) => e));
  return got.filter((e) => e.flag !== 'starred');
}

describe('POST /mark_topic_as_read', () => {
  it('marks the topic read (any case), answers the bare envelope and tells only the user, with the changed ids', async () => {
    const a = await sendToChannel(t, alice, 'lounge', 'Topic A', 'one');
    const b = await sendToChannel(t, alice, 'lounge', 'topic a', 'two');
    const c = await sendToChannel(t, alice, 'lounge', 'Topic B', 'three');
    let res!: Awaited<ReturnType<TestApp['post']>>;
    const bobEvents = await flagEvents(bob, async () => {
      res = await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: 'TOPIC A' } });
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(bobEvents).toEqual([readEvent([a, b])]);
    expect(await flagsOf(bob, a)).toEqual(['read']);
    expect(await flagsOf(bob, c)).toEqual([]);
    // Alice (the sender, read already) hears nothing of Bob's reading.
    expect(await flagEvents(alice, async () => void (await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: 'Topic B' } })))).toEqual([]);
  });

  it('sends no event when nothing was unread', async () => {
    await sendToChannel(t, alice, 'lounge', 'quiet', 'q');
    expectSuccess(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: 'quiet' } }));
    expect(await flagEvents(bob, async () => expectSuccess(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: 'quiet' } })))).toEqual([]);
  });

  it('takes "general chat" and "" for the empty topic', async () => {
    const empty = await sendToChannel(t, alice, 'lounge', '', 'no topic');
    const named = await sendToChannel(t, alice, 'lounge', 'named', 'named topic');
    expect(await flagEvents(bob, async () => expectSuccess(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: 'general chat' } })))).toEqual([
      readEvent([empty]),
    ]);
    expect(await flagsOf(bob, named)).toEqual([]);
    const again = await sendToChannel(t, alice, 'lounge', '', 'no topic again');
    expectSuccess(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: '' } }));
    expect(await flagsOf(bob, again)).toEqual(['read']);
  });

  it.each([
    [{ stream_id: 'lounge', topic_name: 'x' }, 'stream_id is not valid JSON', 'BAD_REQUEST', {}],
    [{ stream_id: '"7"', topic_name: 'x' }, 'stream_id is not an integer', 'BAD_REQUEST', {}],
    [{ topic_name: 'x' }, "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' }],
  ])('rejects %j', async (form, msg, code, extra) => {
    expectError(await t.post('mark_topic_as_read', { as: bob, form }), 400, msg, code, extra);
  });

  it('needs the topic name, and a topic the user received something in', async () => {
    expectError(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge } }), 400, "Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'topic_name',
    });
    expectError(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lounge, topic_name: 'never' } }), 400, "No such topic 'never'");
    expectError(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.lobby, topic_name: 'general chat' } }), 400, "No such topic ''");
  });
});

describe('POST /mark_stream_as_read', () => {
  it('marks the channel read, DMs and other channels untouched', async () => {
    const m1 = await sendToChannel(t, alice, 'lounge', 'x', 'channel one');
    const m2 = await sendToChannel(t, alice, 'lounge', 'y', 'channel two');
    const dm = await sendDirect(t, alice, [bob.id], 'dm');
    const elsewhere = await sendToChannel(t, undefined, 'secret', 'z', 'secret stuff');
    const events = await flagEvents(bob, async () => {
      const res = await t.post('mark_stream_as_read', { as: bob, form: { stream_id: ids.lounge } });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ ...readEvent([]), messages: expect.arrayContaining([m1, m2]) });
    expect(await flagsOf(bob, dm)).toEqual([]);
    expect(await flagsOf(bob, elsewhere)).toEqual([]);
    // Nothing left unread: no event.
    expect(await flagEvents(bob, async () => expectSuccess(await t.post('mark_stream_as_read', { as: bob, form: { stream_id: ids.lounge } })))).toEqual([]);
  });

  it('refuses unknown, foreign, inaccessible and archived channels alike, changing nothing', async () => {
    const otherOrgChannel = (await t.get('streams', { as: other })).body.streams.find((c: { name: string }) => c.name === 'elsewhere').stream_id;
    const unread = await sendToChannel(t, undefined, 'archive me', 'old', 'left unread');
    expectSuccess(await t.delete(`streams/${ids['archive me']}`));
    for (const [as, streamId] of [
      [bob, 424242],
      [bob, otherOrgChannel],
      [guest, ids.lounge],
      [alice, ids.secret],
      [bob, ids['archive me']],
      [bob, 99_999_999_999], // beyond any stored id
    ] as [Account, number][]) {
      expectError(await t.post('mark_stream_as_read', { as, form: { stream_id: streamId } }), 400, 'Invalid channel ID');
      expectError(await t.post('mark_topic_as_read', { as, form: { stream_id: streamId, topic_name: 'old' } }), 400, 'Invalid channel ID');
    }
    expect(await flagsOf(bob, unread)).toEqual([]);
    expectError(await t.post('mark_stream_as_read', { as: bob, form: { stream_id: '1.5' } }), 400, 'stream_id is not an integer');
    expectError(await t.post('mark_stream_as_read', { as: bob, form: {} }), 400, "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' });
  });
});

describe('POST /mark_all_as_read', () => {
  it('marks everything read, answers complete: true and sends one event with all: true', async () => {
    const m = await sendToChannel(t, alice, 'lounge', 'all', 'channel');
    const dm = await sendDirect(t, alice, [bob.id], 'direct');
    let res!: Awaited<ReturnType<TestApp['post']>>;
    const events = await flagEvents(bob, async () => {
      res = await t.post('mark_all_as_read', { as: bob });
    });
    expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    expect(events).toEqual([readEvent([], true)]);
    expect(await flagsOf(bob, m)).toEqual(['read']);
    expect(await flagsOf(bob, dm)).toEqual(['read']);
    // Even with nothing to do, the event tells clients to reload their unreads.
    expect(await flagEvents(bob, async () => expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: true }))).toEqual([readEvent([], true)]);
  });

  it('marks more than one batch (2000 rows) in one request', async () => {
    const { rows } = await sqlRows(
      `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client)
       SELECT m.realm_id, m.sender_id, m.recipient_id, m.channel_id, 'bulk', 'bulk', '<p>bulk</p>', now(), 'test'
       FROM messages m, generate_series(1, 2500) WHERE m.id = $1 RETURNING id`,
      [await sendToChannel(t, alice, 'lounge', 'bulk', 'seed')],
    );
    await sqlRows(`INSERT INTO user_messages (user_id, message_id, flags) SELECT $1, x, 0 FROM unnest($2::int[]) x`, [bob.id, rows.map((r: { id: number }) => r.id)]);
    const newest = (
      await sqlRows(`SELECT message_id FROM user_messages WHERE user_id = $1 AND (flags & 1) = 0 ORDER BY message_id DESC LIMIT 2000`, [bob.id])
    ).rows.map((r: { message_id: number }) => r.message_id);
    // Each batch commits with its own event; the last one's is Zulip's `all: true`.
    const events = await flagEvents(bob, async () => {
      expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: true });
      expect((await sqlRows(`SELECT count(*)::int AS n FROM user_messages WHERE user_id = $1 AND (flags & 1) = 0`, [bob.id])).rows[0].n).toBe(0);
    });
    expect(events).toEqual([readEvent(newest.toSorted((a: number, b: number) => a - b)), readEvent([], true)]);
  });
});

async function sqlRows(text: string, params: unknown[]) {
  const { Client } = await import('pg');
  const c = new Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    return await c.query(text, params);
  } finally {
    await c.end();
  }
}
