import { channelIds, createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * GET /users/me/{stream_id}/topics (Zulip's get_topics_backend) and POST /user_topics (Zulip's
 * update_user_topic), with the `muted_topics`/`user_topic` events and register sections.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let other: Account;
let ids: Record<string, number>;
let otherChannel: number;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  other = await t.createOrganization('other');
  await createChannels(t, ['lounge', 'gone', 'empty']);
  await createChannels(t, ['vault'], { form: { invite_only: true, history_public_to_subscribers: false } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }, { name: 'vault' }, { name: 'gone' }], principals: [alice.id] } });
  expectSuccess(await t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  otherChannel = (await t.get('streams', { as: other })).body.streams.find((c: { name: string }) => c.name === 'elsewhere').stream_id;
  ids = await channelIds(t, ['lounge', 'gone', 'empty', 'vault']);
  // "empty" loses the Notification Bot's creation notice, its only message.
  expectSuccess(await t.post(`streams/${ids.empty}/delete_topic`, { form: { topic_name: 'channel events' } }));
});
afterAll(() => t.close());

const topics = (channelId: number | string, as: Account = alice, query?: Record<string, unknown>) => t.get(`users/me/${channelId}/topics`, { as, query });

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists each topic once, newest first, named as its newest message spells it', async () => {
    const a1 = await sendToChannel(t, alice, 'lounge', 'Lunch', 'one');
    const b = await sendToChannel(t, alice, 'lounge', 'plans', 'two');
    const a2 = await sendToChannel(t, alice, 'lounge', 'lunch', 'three');
    const e = await sendToChannel(t, alice, 'lounge', '', 'no topic');
    const res = await topics(ids.lounge);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      topics: [
        { name: 'general chat', max_id: e },
        { name: 'lunch', max_id: a2 },
        { name: 'plans', max_id: b },
        // The Notification Bot's notice that opened the channel.
        { name: 'channel events', max_id: expect.any(Number) },
      ],
    });
    expect(res.body.topics[3].max_id).toBeLessThan(a1);
    expect(a1).toBeLessThan(a2);
    expect((await topics(ids.lounge, alice, { allow_empty_topic_name: true })).body.topics[0]).toEqual({ name: '', max_id: e });
    expectSuccess(await topics(ids.empty), { topics: [] });
  });

  it('lets any member read a public channel, and with protected history only the topics of received messages', async () => {
    expectSuccess(await topics(ids.lounge, bob)); // not subscribed, public channel
    const before = await sendToChannel(t, undefined, 'vault', 'before bob', 'secret');
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'vault' }], principals: [bob.id] } });
    const after = await sendToChannel(t, undefined, 'vault', 'after bob', 'still secret');
    expectSuccess(await topics(ids.vault, bob), { topics: [{ name: 'after bob', max_id: after }] });
    expectSuccess(await topics(ids.vault, alice), {
      topics: [
        { name: 'after bob', max_id: after },
        { name: 'before bob', max_id: before },
      ],
    });
  });

  it('answers "Invalid channel ID" for unknown, foreign, inaccessible and archived channels', async () => {
    await sendToChannel(t, undefined, 'gone', 'old', 'soon archived');
    expectSuccess(await t.delete(`streams/${ids.gone}`));
    for (const [as, id] of [
      [alice, 424242],
      [alice, otherChannel],
      [guest, ids.lounge],
      [guest, ids.vault],
      [alice, ids.gone],
    ] as [Account, number][]) {
      expectError(await topics(id, as), 400, 'Invalid channel ID');
    }
    expectError(await topics('abc'), 404, 'Not Found', 'NOT_FOUND');
    expectError(await topics(ids.lounge, alice, { allow_empty_topic_name: 'yes' }), 400, 'allow_empty_topic_name is not valid JSON');
  });
});

describe('POST /user_topics', () => {
  const set = (form: Record<string, unknown>, as: Account = alice) => t.post('user_topics', { as, form });
  const userTopic = (channelId: number, topic: string, policy: number) => ({
    type: 'user_topic',
    stream_id: channelId,
    topic_name: topic,
    last_updated: expect.any(Number),
    visibility_policy: policy,
  });

  it('mutes, follows, unmutes and clears a topic; each change tells only the user, legacy list first', async () => {
    const all = await EventClient.register(t, alice);
    const modern = await EventClient.register(t, alice, { event_types: ['user_topic', 'muted_topics'] });
    const legacy = await EventClient.register(t, alice, { event_types: ['muted_topics'] });
    const bobs = await EventClient.register(t, bob, { event_types: ['user_topic', 'muted_topics'] });

    const res = await set({ stream_id: ids.lounge, topic: 'Noise', visibility_policy: 1 });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const muted = { type: 'muted_topics', muted_topics: [['lounge', 'Noise', expect.any(Number)]] };
    expect((await all.next()).map(({ id: _id, ...e }) => e)).toEqual([muted, userTopic(ids.lounge, 'Noise', 1)]);
    expect((await modern.next()).map(({ id: _id, ...e }) => e)).toEqual([userTopic(ids.lounge, 'Noise', 1)]);
    expect((await legacy.next()).map(({ id: _id, ...e }) => e)).toEqual([muted]);

    for (const policy of [3, 2, 0]) {
      expectSuccess(await set({ stream_id: ids.lounge, topic: 'noise', visibility_policy: policy }));
      expect((await modern.next()).map(({ id: _id, ...e }) => e)).toEqual([userTopic(ids.lounge, 'noise', policy)]);
      expect((await legacy.next()).map(({ id: _id, ...e }) => e)).toEqual([{ type: 'muted_topics', muted_topics: [] }]);
    }
    expect(await bobs.drain()).toEqual([]);
  });

  it('changes nothing and tells nothing when the policy already is the requested one', async () => {
    expectSuccess(await set({ stream_id: ids.lounge, topic: 'steady', visibility_policy: 3 }));
    const q = await EventClient.register(t, alice, { event_types: ['user_topic'] });
    expectSuccess(await set({ stream_id: ids.lounge, topic: 'Steady', visibility_policy: 3 }));
    expectSuccess(await set({ stream_id: ids.lounge, topic: 'never set', visibility_policy: 0 }));
    expectSuccess(await set({ stream_id: ids.lounge, topic: 'marker', visibility_policy: 2 }));
    expect((await q.next()).map((e) => e.topic_name)).toEqual(['marker']);
  });

  it('shows in register, as user_topics (the empty topic as "general chat" unless the client knows it) and legacy muted_topics', async () => {
    const plain = await EventClient.register(t, alice, { event_types: ['user_topic'] });
    const aware = await EventClient.register(t, alice, {
      event_types: ['user_topic'],
      client_capabilities: { notification_settings_null: false, empty_topic_name: true },
    });
    expectSuccess(await set({ stream_id: ids.lounge, topic: 'general chat', visibility_policy: 1 }));
    expect((await plain.next()).map(({ id: _id, ...e }) => e)).toEqual([userTopic(ids.lounge, 'general chat', 1)]);
    expect((await aware.next()).map(({ id: _id, ...e }) => e)).toEqual([userTopic(ids.lounge, '', 1)]);
    const res = await t.post('register', { as: alice, form: { fetch_event_types: ['user_topic', 'muted_topics'] } });
    expect(res.body.user_topics).toContainEqual({ stream_id: ids.lounge, topic_name: 'general chat', last_updated: expect.any(Number), visibility_policy: 1 });
    expect(res.body).not.toHaveProperty('muted_topics');
    const modern = await t.post('register', { as: alice, form: { fetch_event_types: ['user_topic'], client_capabilities: { notification_settings_null: false, empty_topic_name: true } } });
    expect(modern.body.user_topics).toContainEqual({ stream_id: ids.lounge, topic_name: '', last_updated: expect.any(Number), visibility_policy: 1 });
    const legacy = await t.post('register', { as: alice, form: { fetch_event_types: ['muted_topics'] } });
    expect(legacy.body.muted_topics).toContainEqual(['lounge', '', expect.any(Number)]);
    expectSuccess(await set({ stream_id: ids.lounge, topic: '', visibility_policy: 0 }));
  });

  it('needs access to set a policy, and only an existing channel of the organization to clear one', async () => {
    expectSuccess(await set({ stream_id: ids.lounge, topic: 'x', visibility_policy: 1 }, bob)); // public, not subscribed
    for (const [as, id] of [
      [alice, 424242],
      [alice, otherChannel],
      [guest, ids.lounge],
      [guest, ids.vault],
      [alice, ids.gone],
    ] as [Account, number][]) {
      expectError(await set({ stream_id: id, topic: 'x', visibility_policy: 1 }, as), 400, 'Invalid channel ID');
    }
    expectSuccess(await set({ stream_id: ids.gone, topic: 'x', visibility_policy: 0 }));
    expectSuccess(await set({ stream_id: ids.vault, topic: 'x', visibility_policy: 0 }, guest));
    expectError(await set({ stream_id: otherChannel, topic: 'x', visibility_policy: 0 }), 400, 'Invalid channel ID');
    expectError(await set({ stream_id: 424242, topic: 'x', visibility_policy: 0 }), 400, 'Invalid channel ID');
    expectError(await set({ stream_id: 99_999_999_999, topic: 'x', visibility_policy: 0 }), 400, 'Invalid channel ID');
    expectError(await set({ stream_id: 99_999_999_999, topic: 'x', visibility_policy: 1 }), 400, 'Invalid channel ID');
  });

  it.each([
    [{ topic: 'x', visibility_policy: 1 }, "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' }],
    [{ stream_id: 1, visibility_policy: 1 }, "Missing 'topic' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'topic' }],
    [{ stream_id: 1, topic: 'x' }, "Missing 'visibility_policy' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'visibility_policy' }],
    [{ stream_id: 'one', topic: 'x', visibility_policy: 1 }, 'stream_id is not valid JSON', 'BAD_REQUEST', {}],
    [{ stream_id: 1, topic: 'x', visibility_policy: 4 }, 'Invalid visibility_policy', 'BAD_REQUEST', {}],
    [{ stream_id: 1, topic: 'x', visibility_policy: '"1"' }, 'visibility_policy is not an integer', 'BAD_REQUEST', {}],
    [{ stream_id: 1, topic: 'x'.repeat(61), visibility_policy: 1 }, 'topic is too long (limit: 60 characters)', 'BAD_REQUEST', {}],
  ])('rejects %j, storing nothing', async (form, msg, code, extra) => {
    expectError(await set(form), 400, msg, code, extra);
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (legacy)', () => {
  it('still mutes and unmutes, and now also sends the legacy muted_topics list', async () => {
    const q = await EventClient.register(t, alice, { event_types: ['muted_topics', 'subscription'] });
    expectSuccess(await t.patch('users/me/subscriptions/muted_topics', { as: alice, form: { stream_id: ids.lounge, topic: 'legacy', op: 'add' } }));
    expect((await q.next()).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'muted_topics', muted_topics: expect.arrayContaining([['lounge', 'legacy', expect.any(Number)]]) },
    ]);
    expectSuccess(await t.patch('users/me/subscriptions/muted_topics', { as: alice, form: { stream_id: ids.lounge, topic: 'legacy', op: 'remove' } }));
    const [event] = await q.next();
    expect(event.type).toBe('muted_topics');
    expect(event.muted_topics).not.toContainEqual(['lounge', 'legacy', expect.any(Number)]);
  });
});
