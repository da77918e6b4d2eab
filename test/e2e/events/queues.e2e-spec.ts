import { RemindersService } from '../../../src/drafts/application/reminders.service.js';
import { EventQueues } from '../../../src/events/application/event-queues.js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** Spec 30: register → events, as two clients of one organization see them. */
let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let devel: number;
let secret: number;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' });
  ({ devel } = await createChannels(t, ['devel']));
  ({ secret } = await createChannels(t, ['secret'], { form: { invite_only: true } }));
  expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'devel' }], principals: [alice.id, bob.id] } }));
});
afterAll(() => t.close());

const send = (as: Account, form: Record<string, unknown>) => t.post('messages', { as, form: { type: 'stream', to: 'devel', topic: 'events', ...form } });

describe('the new-user flow of issue 6', () => {
  it('delivers message (with local echo), edit, read flags and subscription updates', async () => {
    const a = await EventClient.register(t, alice, { apply_markdown: true });
    const b = await EventClient.register(t, bob, { apply_markdown: true });
    expect(a.state.queue_id).toEqual(a.queueId);
    expect(a.state.last_event_id).toBe(-1);

    const sent = await send(alice, { content: 'hello **bob**', queue_id: a.queueId, local_id: '42.01' });
    expectSuccess(sent);
    const id = sent.body.id;

    const [mine] = await a.ofType('message');
    // API clients' own messages start unread unless read_by_sender (Zulip's default for non-UI clients).
    expect(mine).toMatchObject({ type: 'message', local_message_id: '42.01', flags: [] });
    expect(mine.message).toMatchObject({
      id,
      sender_id: alice.id,
      content: '<p>hello <strong>bob</strong></p>',
      type: 'stream',
      stream_id: devel,
      display_recipient: 'devel',
      subject: 'events',
      content_type: 'text/html',
    });
    expect(mine.message).not.toHaveProperty('__raw');
    const [theirs] = await b.ofType('message');
    expect(theirs).not.toHaveProperty('local_message_id');
    expect(theirs.flags).toEqual([]);
    expect(theirs.message).toEqual(mine.message);

    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { content: 'hello again' } }));
    const [edit] = await b.ofType('update_message');
    expect(edit).toMatchObject({
      user_id: alice.id,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      orig_content: 'hello **bob**',
      content: 'hello again',
      rendered_content: '<p>hello again</p>',
      stream_id: devel,
      stream_name: 'devel',
      flags: [],
      is_me_message: false,
    });
    expect(edit).not.toHaveProperty('orig_subject');

    expectSuccess(await t.post('messages/flags', { as: bob, form: { messages: [id], op: 'add', flag: 'read' } }));
    expect(await b.ofType('update_message_flags')).toEqual([
      { id: expect.any(Number), type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [id], all: false },
    ]);
    // Flags are per user: Alice's queue hears nothing of Bob's read.
    expect((await a.drain()).filter((e) => e.type === 'update_message_flags')).toEqual([]);

    expectSuccess(await t.post('users/me/subscriptions/properties', { as: bob, form: { subscription_data: [{ stream_id: devel, property: 'is_muted', value: true }] } }));
    const updates = await b.ofType('subscription', 2);
    expect(updates.map(({ id: _, ...e }) => e)).toEqual([
      { type: 'subscription', op: 'update', stream_id: devel, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: devel, property: 'is_muted', value: true },
    ]);
  });

  it('marks a message unread with its details, and mark-all-as-read with all: true', async () => {
    const b = await EventClient.register(t, bob, { event_types: ['update_message_flags'] });
    const id = (await send(alice, { content: '@**Bob** look' })).body.id;
    expectSuccess(await t.post('messages/flags', { as: bob, form: { messages: [id], op: 'add', flag: 'read' } }));
    expectSuccess(await t.post('messages/flags', { as: bob, form: { messages: [id], op: 'remove', flag: 'read' } }));
    const dm = (await t.post('messages', { as: alice, form: { type: 'direct', to: [bob.id, carol.id], content: 'dm' } })).body.id;
    expectSuccess(await t.post('messages/flags', { as: bob, form: { messages: [dm], op: 'remove', flag: 'read' } }));
    expectSuccess(await t.post('mark_all_as_read', { as: bob }));
    const events = (await b.ofType('update_message_flags', 4)).map(({ id: _, ...e }) => e);
    expect(events[1]).toEqual({
      type: 'update_message_flags',
      op: 'remove',
      operation: 'remove',
      flag: 'read',
      messages: [id],
      all: false,
      message_details: { [id]: { type: 'stream', stream_id: devel, topic: 'events', mentioned: true } },
    });
    // The DM was already unread: nothing changed, the event still comes.
    expect(events[2]).toMatchObject({ op: 'remove', messages: [], message_details: {} });
    expect(events[3]).toEqual({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true });
  });

  it('sends DMs to the participants only, with display_recipient listing them', async () => {
    const b = await EventClient.register(t, bob, { event_types: ['message'] });
    const c = await EventClient.register(t, carol, { event_types: ['message'] });
    const res = await t.post('messages', { as: alice, form: { type: 'direct', to: [bob.id], content: 'psst' } });
    const [event] = await b.ofType('message');
    expect(event.message).toMatchObject({ id: res.body.id, type: 'private', subject: '' });
    expect((event.message as { display_recipient: { id: number }[] }).display_recipient.map((u) => u.id)).toEqual([alice.id, bob.id].sort((x, y) => x - y));
    expect(await c.drain()).toEqual([]);
  });

  it('keeps private channel messages from non-subscribers, even with all_public_streams', async () => {
    const c = await EventClient.register(t, carol, { all_public_streams: true, event_types: ['message'] });
    expectSuccess(await t.post('messages', { form: { type: 'stream', to: 'secret', topic: 'x', content: 'hidden' } }));
    const pub = await t.post('messages', { form: { type: 'stream', to: 'devel', topic: 'x', content: 'public' } });
    const [event] = await c.ofType('message');
    expect(event.message).toMatchObject({ id: pub.body.id, stream_id: devel });
    expect(event.flags).toEqual([]);
    expect(await c.drain()).toEqual([]);
    void secret;
  });

  it('sends delete_message per message to clients without bulk_message_deletion', async () => {
    const bulk = await EventClient.register(t, bob, { event_types: ['delete_message'], client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } });
    const legacy = await EventClient.register(t, bob, { event_types: ['delete_message'] });
    const id = (await send(alice, { content: 'to delete' })).body.id;
    expectSuccess(await t.delete(`messages/${id}`));
    const [a] = await bulk.ofType('delete_message');
    expect(a).toMatchObject({ message_ids: [id], message_type: 'stream', stream_id: devel, topic: 'events' });
    const [b] = await legacy.ofType('delete_message');
    expect(b).toMatchObject({ message_id: id, message_type: 'stream', stream_id: devel, topic: 'events' });
    expect(b).not.toHaveProperty('message_ids');
  });

  it('updates first_message_id when the first message of a channel is deleted', async () => {
    const { firsts } = await createChannels(t, ['firsts']);
    // Without the creation notice, which would stay the channel's first message.
    expectSuccess(await t.post(`streams/${firsts}/delete_topic`, { form: { topic_name: 'channel events' } }));
    const a = await EventClient.register(t, alice, { event_types: ['stream'] });
    const post = (content: string) => t.post('messages', { form: { type: 'stream', to: 'firsts', topic: 't', content } });
    const first = (await post('one')).body.id;
    const second = (await post('two')).body.id;
    expectSuccess(await t.delete(`messages/${first}`));
    const [event] = await a.ofType('stream');
    expect(event).toMatchObject({ op: 'update', stream_id: firsts, property: 'first_message_id', value: second });
    expect((await t.get(`streams/${firsts}`)).body.stream.first_message_id).toBe(second);
  });

  it('announces a topic move with update_message and the notification-bot message', async () => {
    const b = await EventClient.register(t, bob, { event_types: ['update_message', 'message'] });
    const id = (await send(alice, { topic: 'old place', content: 'moving' })).body.id;
    await b.ofType('message');
    expectSuccess(await t.patch(`messages/${id}`, { form: { topic: 'new place', propagate_mode: 'change_all', send_notification_to_new_thread: true } }));
    const events = await b.next();
    expect(events[0]).toMatchObject({
      type: 'update_message',
      message_ids: [id],
      orig_subject: 'old place',
      subject: 'new place',
      propagate_mode: 'change_all',
      topic_links: [],
    });
    expect(events[0]).not.toHaveProperty('content');
    expect(events[1]).toMatchObject({ type: 'message', message: { subject: 'new place', sender_email: expect.stringContaining('notification-bot') } });
  });

  it('tells the sender their topic visibility changed automatically (user_topic)', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['user_topic'] });
    expectSuccess(await send(alice, { topic: 'brand new topic', content: 'first!' }));
    const [event] = await a.ofType('user_topic');
    expect(event).toMatchObject({ stream_id: devel, topic_name: 'brand new topic', visibility_policy: 3, last_updated: expect.any(Number) });
  });

  it('carries topic visibility over when a whole topic moves (user_topic for old and new)', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['user_topic'] });
    const id = (await send(alice, { topic: 'vis before', content: 'mine' })).body.id;
    expect((await a.ofType('user_topic'))[0]).toMatchObject({ topic_name: 'vis before', visibility_policy: 3 });
    expectSuccess(await t.patch(`messages/${id}`, { form: { topic: 'vis after', propagate_mode: 'change_all' } }));
    const events = (await a.ofType('user_topic', 2)).map(({ id: _, last_updated: __, ...e }) => e);
    expect(events).toEqual([
      { type: 'user_topic', stream_id: devel, topic_name: 'vis before', visibility_policy: 0 },
      { type: 'user_topic', stream_id: devel, topic_name: 'vis after', visibility_policy: 3 },
    ]);
  });

  it('announces subscriptions added and removed, to the user and to their peers', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['subscription', 'stream'] });
    const c = await EventClient.register(t, carol, { event_types: ['subscription'] });
    expectSuccess(await t.post('users/me/subscriptions', { as: carol, form: { subscriptions: [{ name: 'devel' }] } }));
    const [added] = await c.ofType('subscription');
    expect(added.op).toBe('add');
    const sub = (added.subscriptions as Record<string, unknown>[])[0];
    expect(sub).toMatchObject({ stream_id: devel, name: 'devel', is_muted: false, in_home_view: true, color: expect.any(String) });
    expect(sub.subscribers).toEqual(expect.arrayContaining([alice.id, carol.id]));
    const [peer] = await a.ofType('subscription');
    expect(peer).toMatchObject({ op: 'peer_add', stream_ids: [devel], user_ids: [carol.id] });

    expectSuccess(await t.delete('users/me/subscriptions', { as: carol, query: { subscriptions: ['devel'] } }));
    const [removed] = await c.ofType('subscription');
    expect(removed).toMatchObject({ op: 'remove', subscriptions: [{ name: 'devel', stream_id: devel }] });
    const [peerRemove] = await a.ofType('subscription');
    expect(peerRemove).toMatchObject({ op: 'peer_remove', stream_ids: [devel], user_ids: [carol.id] });

    // A new private channel is announced only to those who can see it.
    expectSuccess(await t.post('users/me/subscriptions', { as: bob, form: { subscriptions: [{ name: 'bob-private' }], invite_only: true } }));
    expect((await a.drain()).filter((e) => e.type === 'stream')).toEqual([]);
  });

  it('announces a new user to everyone, and their default-channel subscriptions to the peers', async () => {
    const { lobby } = await createChannels(t, ['lobby'], { form: { is_default_stream: true } });
    const a = await EventClient.register(t, alice, { event_types: ['realm_user', 'subscription'] });
    const newcomer = await t.createUser({ fullName: 'Newcomer' });
    const events = await a.next();
    expect(events.find((e) => e.type === 'realm_user')).toMatchObject({
      op: 'add',
      person: { user_id: newcomer.id, full_name: 'Newcomer', email: newcomer.email, is_bot: false, role: 400 },
    });
    // One peer_add per default channel: the organization's initial ones and lobby.
    expect(events.filter((e) => e.type === 'subscription')).toContainEqual(
      expect.objectContaining({ op: 'peer_add', stream_ids: [lobby], user_ids: [newcomer.id] }),
    );
    // client_gravatar defaults to true on register: those clients compute Gravatar URLs themselves.
    const g = await EventClient.register(t, alice, { event_types: ['realm_user'], client_gravatar: false });
    await t.createUser({ fullName: 'Second newcomer' });
    expect((await g.ofType('realm_user'))[0]).toMatchObject({ op: 'add', person: { full_name: 'Second newcomer', avatar_url: expect.stringContaining('gravatar') } });
    expect((await a.ofType('realm_user'))[0]).toMatchObject({ person: { full_name: 'Second newcomer', avatar_url: null } });
  });

  it('tells a member added to a private channel about it first, and that it is gone when removed', async () => {
    const c = await EventClient.register(t, carol, { event_types: ['stream', 'subscription'] });
    const { vault } = await createChannels(t, ['vault'], { form: { invite_only: true } });
    expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'vault' }], principals: [carol.id] } }));
    const added = await c.next();
    expect(added.map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/add']);
    expect(added[0]).toMatchObject({ streams: [{ stream_id: vault, name: 'vault', invite_only: true }] });
    expectSuccess(await t.delete('users/me/subscriptions', { as: carol, query: { subscriptions: ['vault'] } }));
    const removed = await c.next();
    expect(removed.map((e) => `${e.type}/${e.op}`)).toEqual(['subscription/remove', 'stream/delete']);
    expect(removed[1]).toMatchObject({ stream_ids: [vault] });
  });

  it('announces renames, role changes, deactivation and reactivation of users', async () => {
    const dave = await t.createUser({ fullName: 'Dave' });
    const a = await EventClient.register(t, alice, { event_types: ['realm_user'] });
    expectSuccess(await t.patch(`users/${dave.id}`, { form: { full_name: 'David', role: 300 } }));
    expectSuccess(await t.delete(`users/${dave.id}`));
    expectSuccess(await t.post(`users/${dave.id}/reactivate`));
    const events = (await a.ofType('realm_user', 4)).map(({ id: _, ...e }) => e);
    expect(events).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: dave.id, role: 300 } },
      { type: 'realm_user', op: 'update', person: { user_id: dave.id, full_name: 'David' } },
      { type: 'realm_user', op: 'update', person: { user_id: dave.id, is_active: false } },
      { type: 'realm_user', op: 'update', person: { user_id: dave.id, is_active: true } },
    ]);
  });

  it('announces channel creation, renames, description changes and archiving', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['stream'] });
    const legacy = await EventClient.register(t, bob, { event_types: ['stream'] });
    const modern = await EventClient.register(t, bob, { event_types: ['stream'], client_capabilities: { notification_settings_null: false, archived_channels: true } });
    expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'announce', description: 'first' }] } }));
    const [created] = await a.ofType('stream');
    expect(created).toMatchObject({ op: 'create', streams: [{ name: 'announce', description: 'first', invite_only: false }] });
    const id = (created.streams as { stream_id: number }[])[0].stream_id;
    expectSuccess(await t.patch(`streams/${id}`, { form: { new_name: 'announcements', description: 'second' } }));
    const updates = await a.ofType('stream', 2);
    expect(updates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'update', stream_id: id, property: 'name', value: 'announcements', name: 'announce' }),
        expect.objectContaining({ op: 'update', stream_id: id, property: 'description', value: 'second', rendered_description: '<p>second</p>' }),
      ]),
    );
    await legacy.next();
    await modern.next();
    expectSuccess(await t.delete(`streams/${id}`));
    const [gone] = await legacy.ofType('stream');
    expect(gone).toMatchObject({ op: 'delete', stream_ids: [id], streams: [{ stream_id: id }] });
    const [archived] = await modern.ofType('stream');
    expect(archived).toMatchObject({ op: 'update', stream_id: id, property: 'is_archived', value: true });
  });
});

describe('reminders', () => {
  it('announces a new reminder, its delivery and its deletion to the owner only', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['reminders', 'message'] });
    const b = await EventClient.register(t, bob, { event_types: ['reminders'] });
    const target = (await send(alice, { content: 'remind me' })).body.id;
    await a.ofType('message');
    const due = Math.floor(t.clock.now().getTime() / 1000) + 60;
    const created = await t.post('reminders', { as: alice, form: { message_id: target, scheduled_delivery_timestamp: due, note: 'soon' } });
    expectSuccess(created);
    const [add] = await a.ofType('reminders');
    expect(add).toMatchObject({
      op: 'add',
      reminders: [{ reminder_id: created.body.reminder_id, type: 'private', to: [alice.id], scheduled_delivery_timestamp: due, failed: false, reminder_target_message_id: target }],
    });
    expect(await t.app.get(RemindersService).deliverDue(new Date((due + 1) * 1000))).toBe(1);
    const events = await a.next();
    expect(events.map((e) => e.type).sort()).toEqual(['message', 'reminders']);
    expect(events.find((e) => e.type === 'reminders')).toMatchObject({ op: 'remove', reminder_id: created.body.reminder_id });
    expect(events.find((e) => e.type === 'message')).toMatchObject({ message: { type: 'private', sender_email: expect.stringContaining('notification-bot') } });

    const second = await t.post('reminders', { as: alice, form: { message_id: target, scheduled_delivery_timestamp: due } });
    await a.ofType('reminders');
    expectSuccess(await t.delete(`reminders/${second.body.reminder_id}`, { as: alice }));
    expect((await a.ofType('reminders'))[0]).toMatchObject({ op: 'remove', reminder_id: second.body.reminder_id });
    expect(await b.drain()).toEqual([]);
  });
});

describe('event queues', () => {
  it('answers BAD_EVENT_QUEUE_ID for unknown, deleted and other users’ queues', async () => {
    const a = await EventClient.register(t, alice);
    expectError(await t.get('events', { as: bob, query: { queue_id: a.queueId, last_event_id: -1, dont_block: true } }), 400, `Bad event queue ID: ${a.queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: a.queueId });
    expectSuccess(await t.delete('events', { as: alice, query: { queue_id: a.queueId } }));
    expectError(await t.get('events', { as: alice, query: { queue_id: a.queueId, last_event_id: -1, dont_block: true } }), 400, `Bad event queue ID: ${a.queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: a.queueId });
    expectError(await t.delete('events', { as: alice, query: { queue_id: a.queueId } }), 400, `Bad event queue ID: ${a.queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: a.queueId });
    expectError(await t.get('events', { as: alice, query: { last_event_id: -1 } }), 400, "Missing 'queue_id' argument");
    expectError(await t.get('events', { as: alice, query: { queue_id: a.queueId } }), 400, "Missing 'last_event_id' argument");
  });

  it('creates a queue when polled without queue_id and dont_block=true', async () => {
    const res = await t.get('events', { as: alice, query: { dont_block: true } });
    expectSuccess(res);
    expect(res.body.events).toEqual([]);
    await send(bob, { content: 'into the implicit queue' });
    const next = await t.get('events', { as: alice, query: { queue_id: res.body.queue_id, last_event_id: -1 } });
    expect(next.body.events.map((e: { type: string }) => e.type)).toContain('message');
  });

  it('keeps events until acknowledged by last_event_id', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['message'] });
    await send(bob, { content: 'one' });
    await send(bob, { content: 'two' });
    const first = await a.ofType('message', 2);
    expect(first.map((e) => e.id)).toEqual([0, 1]);
    // Acknowledging 0 only: event 1 is delivered again; then acknowledging 1 empties the queue.
    const again = await t.get('events', { as: alice, query: { queue_id: a.queueId, last_event_id: 0, dont_block: true } });
    expectSuccess(again);
    expect(again.body.events.map((e: { id: number }) => e.id)).toEqual([1]);
    const acked = await t.get('events', { as: alice, query: { queue_id: a.queueId, last_event_id: 1, dont_block: true } });
    expect(acked.body.events).toEqual([]);
    await send(bob, { content: 'three' });
    const [third] = await a.ofType('message');
    expect(third.id).toBe(2);
  });

  it('long-polls: a waiting request is answered by the next event, or by a heartbeat', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['message'] });
    const poll = t.get('events', { as: alice, query: { queue_id: a.queueId, last_event_id: -1 } }).then((r) => r);
    await new Promise((r) => setTimeout(r, 100));
    await send(bob, { content: 'wake up' });
    const res = await poll;
    expectSuccess(res);
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['message']);
    // Nothing happens: the heartbeat (2 s in tests, EVENT_HEARTBEAT_SECONDS) answers the poll.
    const idle = await t.get('events', { as: alice, query: { queue_id: a.queueId, last_event_id: res.body.events[0].id } });
    expectSuccess(idle);
    expect(idle.body.events).toEqual([{ type: 'heartbeat', id: res.body.events[0].id + 1 }]);
  });

  it('answers an older poll of a queue at once when a newer one arrives', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['message'] });
    const query = { queue_id: a.queueId, last_event_id: -1 };
    let olderAnswered = false;
    const older = t.get('events', { as: alice, query }).then((r) => {
      olderAnswered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    const newer = t.get('events', { as: alice, query }).then((r) => r);
    const first = await older;
    expectSuccess(first);
    expect(first.body.events).toEqual([]);
    expect(olderAnswered).toBe(true);
    await send(bob, { content: 'for the newer poll' });
    const second = await newer;
    expect(second.body.events.map((e: { type: string; id: number }) => [e.type, e.id])).toEqual([['message', 0]]);
  });

  it('narrows message events to the registered narrow', async () => {
    const a = await EventClient.register(t, alice, { event_types: ['message'], narrow: [['topic', 'only this']] });
    await send(bob, { topic: 'something else', content: 'no' });
    const yes = await send(bob, { topic: 'only this', content: 'yes' });
    const [event] = await a.ofType('message');
    expect(event.message).toMatchObject({ id: yes.body.id });
    expect(await a.drain()).toEqual([]);
  });

  it('does not show a guest public channel messages through a narrow', async () => {
    const guest = await t.createUser({ role: 600 });
    const g = await EventClient.register(t, guest, { event_types: ['message'], narrow: [['channel', 'devel']] });
    await send(bob, { content: 'members only' });
    const m = await EventClient.register(t, carol, { event_types: ['message'], narrow: [['channel', 'devel']] });
    await send(bob, { content: 'members only, again' });
    expect(await m.ofType('message')).toHaveLength(1);
    expect(await g.drain()).toEqual([]);
  });

  it('sends raw Markdown to apply_markdown=false clients and no avatar to client_gravatar ones', async () => {
    // apply_markdown defaults to false, as in Zulip.
    const a = await EventClient.register(t, alice, { event_types: ['message'], client_gravatar: true });
    await send(bob, { content: '**raw**' });
    const [event] = await a.ofType('message');
    expect(event.message).toMatchObject({ content: '**raw**', content_type: 'text/x-markdown', avatar_url: null });
  });

  it('collects idle queues after their lifespan', async () => {
    const a = await EventClient.register(t, alice, { queue_lifespan_secs: 60 });
    expect(a.state.idle_queue_timeout_secs).toBe(60);
    t.clock.advance(61);
    await t.app.get(EventQueues).collectNow();
    expectError(await t.get('events', { as: alice, query: { queue_id: a.queueId, last_event_id: -1, dont_block: true } }), 400, `Bad event queue ID: ${a.queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: a.queueId });
  });

  it('keeps at most 20 queues per user: a 21st registration drops the oldest idle one', async () => {
    const dave = await t.createUser({ fullName: 'Dave' });
    const queues: EventClient[] = [];
    for (let i = 0; i < 21; i++) {
      queues.push(await EventClient.register(t, dave, { event_types: ['message'] }));
      t.clock.advance(1);
    }
    // Queue 0 is the least recently used one: it is gone, the other 20 answer.
    const [oldest, second] = queues;
    expectError(await t.get('events', { as: dave, query: { queue_id: oldest.queueId, last_event_id: -1, dont_block: true } }), 400, `Bad event queue ID: ${oldest.queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: oldest.queueId });
    for (const q of queues.slice(1)) expect(await q.drain()).toEqual([]);
    // Another user's queues are not counted.
    const a = await EventClient.register(t, alice);
    expect(await a.drain()).toEqual([]);
    // The least recently used queue goes next, not the one just read.
    t.clock.advance(1);
    expect(await second.drain()).toEqual([]);
    await EventClient.register(t, dave, { event_types: ['message'] });
    expect(await second.drain()).toEqual([]);
    expectError(await t.get('events', { as: dave, query: { queue_id: queues[2].queueId, last_event_id: -1, dont_block: true } }), 400, `Bad event queue ID: ${queues[2].queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: queues[2].queueId });
  });

  it('never delivers one organization’s events to another', async () => {
    const otherOwner = await t.createOrganization('elsewhere');
    const o = await EventClient.register(t, otherOwner);
    await send(bob, { content: 'not for them' });
    expect(await o.drain()).toEqual([]);
  });
});
