import { createChannels } from '../../support/channels.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * What zulip-terminal (zulipterminal/model.py, through the Python `zulip` bindings) sends in its
 * first minute, in its order: register with its event and fetch types, the newest messages,
 * the topics of each subscribed channel, a presence ping, then the day's first keystrokes
 * (typing, a reaction, marking read) and the event poll. Each answers 200 with the fields the
 * client reads.
 */
const EVENT_TYPES = [
  'message',
  'update_message',
  'reaction',
  'submessage',
  'subscription',
  'typing',
  'update_message_flags',
  'user_settings',
  'realm_emoji',
  'realm_user',
];
const FETCH_TYPES = [
  'realm',
  'presence',
  'subscription',
  'message',
  'starred_messages',
  'update_message_flags',
  'muted_topics',
  'realm_user',
  'realm_user_groups',
  'user_settings',
  'realm_emoji',
  'custom_profile_fields',
  // Not an event type: the client lists it, and Zulip ignores it.
  'zulip_version',
];

let t: TestApp;
let me: Account;
let friend: Account;
let ch: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  me = await t.createUser({ fullName: 'Terminal User' });
  friend = await t.createUser({ fullName: 'Friend' });
  ch = await createChannels(t, ['design', 'ops'], { form: { principals: [t.owner.id, me.id, friend.id] } });
  for (const [to, topic] of [
    ['design', 'colours'],
    ['design', 'fonts'],
    ['ops', 'deploys'],
  ]) {
    expectSuccess(await t.post('messages', { as: friend, form: { type: 'stream', to, topic, content: `about ${topic}` } }));
  }
  expectSuccess(await t.post('messages', { as: friend, form: { type: 'direct', to: JSON.stringify([me.id]), content: 'hi there :wave:' } }));
});
afterAll(() => t.close());

describe('the first minute of a terminal client', () => {
  it('answers every request with the fields the client reads', async () => {
    const register = await t.post('register', {
      as: me,
      form: { event_types: EVENT_TYPES, fetch_event_types: FETCH_TYPES, client_gravatar: true, apply_markdown: true, include_subscribers: true },
    });
    expectSuccess(register);
    const state = register.body;
    // The Python bindings refuse a server without zulip_version; the client reads the level too.
    expect(state).toMatchObject({ zulip_version: expect.any(String), zulip_feature_level: 472, last_event_id: -1 });
    for (const key of [
      'queue_id',
      'max_message_id',
      'realm_users',
      'cross_realm_bots',
      'realm_user_groups',
      'presences',
      'subscriptions',
      'unread_msgs',
      'starred_messages',
      'muted_topics',
      'user_settings',
      'realm_emoji',
      'custom_profile_fields',
      'server_presence_ping_interval_seconds',
      'server_presence_offline_threshold_seconds',
      'server_typing_started_expiry_period_milliseconds',
    ]) {
      expect(state, key).toHaveProperty(key);
    }
    expect(state.subscriptions.map((s: { name: string }) => s.name).sort()).toEqual(expect.arrayContaining(['design', 'ops']));
    expect(state.subscriptions.find((s: { name: string }) => s.name === 'design').subscribers).toEqual(expect.arrayContaining([me.id, friend.id]));
    expect(state.user_settings).toMatchObject({ twenty_four_hour_time: expect.any(Boolean), default_language: expect.any(String) });
    expect(state.unread_msgs.count).toBe(6); // 4 messages and the two channels' creation notices

    const messages = await t.get('messages', {
      as: me,
      query: { anchor: 'newest', num_before: 30, num_after: 0, apply_markdown: true, client_gravatar: true, narrow: '[]' },
    });
    expectSuccess(messages);
    expect(messages.body).toMatchObject({ found_newest: true, anchor: expect.any(Number) });
    const newest = messages.body.messages.at(-1);
    expect(newest).toMatchObject({ type: 'private', content: expect.stringContaining('<p>'), reactions: [], flags: [], avatar_url: null });

    // Its first view (model.get_messages with anchor=None): anchor=0 with use_first_unread_anchor,
    // which must start at the first unread message (not the oldest), so that the newest one is
    // in the answer and live messages are appended after it.
    const firstView = await t.get('messages', {
      as: me,
      query: { anchor: 0, num_before: 30, num_after: 10, apply_markdown: true, use_first_unread_anchor: true, client_gravatar: true, narrow: '[]' },
    });
    expectSuccess(firstView, { found_newest: true, found_anchor: true });
    expect(firstView.body.anchor).toBe(Math.min(...(state.unread_msgs.streams as { unread_message_ids: number[] }[]).flatMap((u) => u.unread_message_ids)));
    expect(firstView.body.messages.at(-1).id).toBe(newest.id);

    for (const s of state.subscriptions as { stream_id: number; name: string }[]) {
      const topics = await t.get(`users/me/${s.stream_id}/topics`, { as: me });
      expectSuccess(topics);
      if (s.stream_id === ch.design) expect(topics.body.topics.map((x: { name: string }) => x.name)).toEqual(['fonts', 'colours', 'channel events']);
    }

    const presence = await t.post('users/me/presence', { as: me, form: { status: 'active', new_user_input: true } });
    expectSuccess(presence);
    expect(presence.body).toMatchObject({ presences: expect.any(Object), server_timestamp: expect.any(Number) });

    expectSuccess(await t.post('typing', { as: me, form: { op: 'start', to: JSON.stringify([friend.id]), type: 'direct' } }));
    expectSuccess(await t.post(`messages/${newest.id}/reactions`, { as: me, form: { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' } }));
    const read = await t.post('messages/flags', { as: me, form: { messages: JSON.stringify([newest.id]), op: 'add', flag: 'read' } });
    expectSuccess(read, { messages: [newest.id] });

    // Events reach the queue a moment after each answer (the journal is read once no older
    // transaction of the database server is running): poll without blocking until they are there.
    let types: string[] = [];
    await vi.waitFor(
      async () => {
        const events = await t.get('events', { as: me, query: { queue_id: state.queue_id, last_event_id: -1, dont_block: true } });
        expectSuccess(events);
        types = events.body.events.map((e: { type: string }) => e.type);
        expect(types).toEqual(expect.arrayContaining(['typing', 'reaction', 'update_message_flags']));
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(types.every((type: string) => EVENT_TYPES.includes(type) || type === 'heartbeat')).toBe(true);
  });
});
