import { createChannels } from '../../support/channels.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/** POST /register: the per-user sections about channels and messages (spec 30 §2.5). */
let t: TestApp;
let alice: Account;
let guest: Account;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  ids = await createChannels(t, ['alpha', 'beta', 'gamma']);
  ({ hidden: ids.hidden } = await createChannels(t, ['hidden'], { form: { invite_only: true } }));
  expectSuccess(await t.post('users/me/subscriptions', { as: alice, form: { subscriptions: [{ name: 'alpha' }, { name: 'beta' }] } }));
  expectSuccess(await t.delete('users/me/subscriptions', { as: alice, query: { subscriptions: ['beta'] } }));
});
afterAll(() => t.close());

const register = (as: Account, form: Record<string, unknown>) => t.post('register', { as, form });

it('splits channels into subscriptions, unsubscribed and never_subscribed, by name', async () => {
  const res = await register(alice, { fetch_event_types: ['subscription'], include_subscribers: true });
  expectSuccess(res);
  const names = (list: { name: string }[]) => list.map((c) => c.name);
  // alpha, and the organization's initial default channels alice joined on signup.
  expect(names(res.body.subscriptions)).toEqual(['alpha', 'general', 'sandbox', 'Zulip']);
  expect(res.body.subscriptions[0]).toMatchObject({ stream_id: ids.alpha, is_muted: false, in_home_view: true, subscribers: expect.arrayContaining([alice.id]) });
  expect(names(res.body.unsubscribed)).toEqual(['beta']);
  expect(names(res.body.never_subscribed)).toEqual(['gamma']); // not the private one
  expect(res.body.never_subscribed[0]).not.toHaveProperty('color');
  expect(res.body).not.toHaveProperty('streams');
  const guestView = await register(guest, { fetch_event_types: ['subscription', 'stream'] });
  // The guest sees only the channels it is in: the initial default channels it joined on signup.
  expect(guestView.body.never_subscribed).toEqual([]);
  expect(names(guestView.body.streams).sort()).toEqual(['Zulip', 'general', 'sandbox']);
  expect(names(guestView.body.subscriptions)).toEqual(['general', 'sandbox', 'Zulip']);
});

it('returns max_message_id, unread_msgs, starred_messages and user_topics', async () => {
  const send = (form: Record<string, unknown>) => t.post('messages', { form });
  const m1 = (await send({ type: 'stream', to: 'alpha', topic: 'Lunch', content: 'hi @**Alice**' })).body.id;
  const m2 = (await send({ type: 'stream', to: 'alpha', topic: 'lunch', content: 'again' })).body.id;
  const dm = (await send({ type: 'direct', to: [alice.id], content: 'psst' })).body.id;
  const group = (await send({ type: 'direct', to: [alice.id, guest.id], content: 'all of us' })).body.id;
  expectSuccess(await t.post('messages/flags', { as: alice, form: { messages: [m2], op: 'add', flag: 'starred' } }));
  expectSuccess(await t.patch('users/me/subscriptions/muted_topics', { as: alice, form: { stream_id: ids.alpha, topic: 'muted one', op: 'add' } }));

  const res = await register(alice, { fetch_event_types: ['message', 'update_message_flags', 'starred_messages', 'user_topic', 'muted_topics'] });
  expectSuccess(res);
  expect(res.body.max_message_id).toBe(group);
  const owner = t.owner.id;
  expect(res.body.unread_msgs).toEqual({
    count: 4,
    pms: [{ other_user_id: owner, sender_id: owner, unread_message_ids: [dm] }],
    streams: [{ stream_id: ids.alpha, topic: 'Lunch', unread_message_ids: [m1, m2] }],
    huddles: [{ user_ids_string: [owner, alice.id, guest.id].sort((a, b) => a - b).join(','), unread_message_ids: [group] }],
    mentions: [m1],
    old_unreads_missing: false,
  });
  expect(res.body.starred_messages).toEqual([m2]);
  // Being mentioned made Alice follow 'Lunch'.
  expect(res.body.user_topics).toEqual([
    { stream_id: ids.alpha, topic_name: 'Lunch', last_updated: expect.any(Number), visibility_policy: 3 },
    { stream_id: ids.alpha, topic_name: 'muted one', last_updated: expect.any(Number), visibility_policy: 1 },
  ]);
  // Asked for user_topic explicitly: the legacy muted_topics is left out.
  expect(res.body).not.toHaveProperty('muted_topics');
  const legacy = await register(alice, { fetch_event_types: ['muted_topics'] });
  expect(legacy.body.muted_topics).toEqual([['alpha', 'muted one', expect.any(Number)]]);
  // unread_msgs needs both message and update_message_flags.
  expect((await register(alice, { fetch_event_types: ['message'] })).body).not.toHaveProperty('unread_msgs');
});

it('returns drafts, saved snippets and default channels', async () => {
  expectSuccess(await t.post('drafts', { as: alice, form: { drafts: [{ type: 'stream', to: [ids.alpha], topic: 't', content: 'later', timestamp: 1_700_000_000 }] } }));
  expectSuccess(await t.post('saved_snippets', { as: alice, form: { title: 'Hello', content: 'Hello there' } }));
  const res = await register(alice, { fetch_event_types: ['drafts', 'saved_snippets', 'default_streams'] });
  expect(res.body.drafts).toEqual([expect.objectContaining({ type: 'stream', to: [ids.alpha], topic: 't', content: 'later' })]);
  expect(res.body.saved_snippets).toEqual([expect.objectContaining({ title: 'Hello', content: 'Hello there' })]);
  expect(res.body.realm_default_streams).toEqual(expect.any(Array));
  expect((await register(guest, { fetch_event_types: ['default_streams'] })).body.realm_default_streams).toEqual([]);
});

describe('recent_private_conversations', () => {
  it('lists the direct-message conversations newest first, with the other participants (none: with oneself)', async () => {
    const bob = await t.createUser({ fullName: 'Bob' });
    const carol = await t.createUser({ fullName: 'Carol' });
    const dm = async (from: Account, to: number[]) =>
      (await t.post('messages', { as: from, form: { type: 'direct', to, content: 'hi' } })).body.id as number;
    expect((await register(bob, { fetch_event_types: ['recent_private_conversations'] })).body.recent_private_conversations).toEqual([]);
    const toAlice = await dm(bob, [alice.id]);
    const group = await dm(carol, [bob.id, alice.id]);
    const self = await dm(bob, [bob.id]);
    const fromAlice = await dm(alice, [bob.id]); // the conversation with alice is the newest again
    const res = await register(bob, { fetch_event_types: ['recent_private_conversations'] });
    expectSuccess(res, {
      recent_private_conversations: [
        { max_message_id: fromAlice, user_ids: [alice.id] },
        { max_message_id: self, user_ids: [] },
        { max_message_id: group, user_ids: [alice.id, carol.id].sort((a, b) => a - b) },
      ],
    });
    expect(toAlice).toBeLessThan(fromAlice);
    // Only the caller's own conversations; not there unless asked (or everything is asked).
    expect((await register(carol, { fetch_event_types: ['recent_private_conversations'] })).body.recent_private_conversations).toEqual([
      { max_message_id: group, user_ids: [alice.id, bob.id].sort((a, b) => a - b) },
    ]);
    expect((await register(bob, { fetch_event_types: ['message'] })).body).not.toHaveProperty('recent_private_conversations');
    expect((await register(bob, {})).body.recent_private_conversations).toHaveLength(3);
  });
});
