import { createChannels } from '../../support/channels.js';
import { message, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  ids = await createChannels(t, ['general', 'left', 'lurk']);
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }, { name: 'left' }], principals: [alice.id, bob.id] } });
});
afterAll(() => t.close());

const flags = (form: Record<string, unknown>, as: Account = bob) => t.post('messages/flags', { as, form });

describe('POST /messages/flags', () => {
  it('stars, reads and unreads, echoing the request ids', async () => {
    const m1 = await sendToChannel(t, alice, 'general', 'x', 'one');
    const m2 = await sendDirect(t, alice, [bob.id], 'two');
    expectSuccess(await flags({ messages: [m1, m2, m1], op: 'add', flag: 'starred' }), { messages: [m1, m2, m1] });
    expect((await message(t, bob, m1)).flags).toEqual(['starred']);
    expectSuccess(await flags({ messages: [m1, m2], op: 'add', flag: 'read' }));
    expect((await message(t, bob, m2)).flags).toEqual(['read', 'starred']);
    const res = await flags({ messages: [m2], op: 'remove', flag: 'read' });
    expectSuccess(res, { messages: [m2], ignored_because_not_subscribed_channels: [] });
    expect((await message(t, bob, m2)).flags).toEqual(['starred']);
    expect((await t.get('messages', { as: bob, query: { anchor: 'newest', num_before: 10, narrow: [['is', 'starred']] } })).body.messages).toHaveLength(2);
  });

  it('skips marking unread in channels the user left, and says which', async () => {
    const m = await sendToChannel(t, alice, 'left', 'x', 'left behind', { read_by_sender: true });
    await flags({ messages: [m], op: 'add', flag: 'read' });
    await t.delete('users/me/subscriptions', { as: bob, form: { subscriptions: ['left'] } });
    const res = await flags({ messages: [m], op: 'remove', flag: 'read' });
    expectSuccess(res, { messages: [m], ignored_because_not_subscribed_channels: [ids.left] });
    expect((await t.get('messages', { as: bob, query: { message_ids: [m] } })).body.messages[0].flags).toEqual(['read']);
  });

  it('creates historical rows when starring or unreading messages the user never received', async () => {
    const m = await sendToChannel(t, undefined, 'lurk', 'x', 'before bob');
    await t.post('users/me/subscriptions', { as: bob, form: { subscriptions: [{ name: 'lurk' }] } });
    expectSuccess(await flags({ messages: [m], op: 'add', flag: 'starred' }));
    expect((await message(t, bob, m)).flags).toEqual(['read', 'starred', 'historical']);
    const other = await sendToChannel(t, undefined, 'lurk', 'y', 'also before');
    await t.post('users/me/subscriptions', { as: alice, form: { subscriptions: [{ name: 'lurk' }] } });
    expectSuccess(await flags({ messages: [other], op: 'remove', flag: 'read' }, alice));
    expect((await message(t, alice, other)).flags).toEqual(['historical']);
    // Adding read to messages without a row is a no-op; inaccessible messages fail for starring.
    expectSuccess(await flags({ messages: [999999], op: 'add', flag: 'read' }));
    const dm = await sendDirect(t, alice, [t.owner.id], 'not for bob');
    expectError(await flags({ messages: [dm], op: 'add', flag: 'starred' }), 400, 'Invalid message(s)');
  });

  it.each([
    [{ messages: [1], op: 'add', flag: 'mentioned' }, "Flag not editable: 'mentioned'"],
    [{ messages: [1], op: 'bogus', flag: 'mentioned' }, "Flag not editable: 'mentioned'"],
    [{ messages: [1], op: 'add', flag: 'is_private' }, "Invalid flag: 'is_private'"],
    [{ messages: [1], op: 'add', flag: 'wildcard_mentioned' }, "Invalid flag: 'wildcard_mentioned'"],
    [{ messages: [1], op: 'toggle', flag: 'read' }, "Invalid message flag operation: 'toggle'"],
    [{ messages: '1', op: 'add', flag: 'read' }, 'messages is not a list'],
    [{ messages: [1, 'x'], op: 'add', flag: 'read' }, 'messages[1] is not an integer'],
  ])('rejects %j', async (form, msg) => {
    expectError(await flags(form), 400, msg);
  });

  it('reports missing parameters in order', async () => {
    expectError(await flags({ op: 'add', flag: 'read' }), 400, "Missing 'messages' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'messages' });
  });
});

describe('bulk read endpoints', () => {
  it('marks a topic, a channel, and everything as read', async () => {
    const a = await sendToChannel(t, alice, 'general', 'bulk one', 'a');
    const b = await sendToChannel(t, alice, 'general', 'bulk two', 'b');
    const c = await sendDirect(t, alice, [bob.id], 'c');
    expectSuccess(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.general, topic_name: 'bulk one' } }));
    expect((await message(t, bob, a)).flags).toContain('read');
    expect((await message(t, bob, b)).flags).not.toContain('read');
    expectError(await t.post('mark_topic_as_read', { as: bob, form: { stream_id: ids.general, topic_name: 'never' } }), 400, "No such topic 'never'");
    expectSuccess(await t.post('mark_stream_as_read', { as: bob, form: { stream_id: ids.general } }));
    expect((await message(t, bob, b)).flags).toContain('read');
    expectError(await t.post('mark_stream_as_read', { as: bob, form: { stream_id: 424242 } }), 400, 'Invalid channel ID');
    expectSuccess(await t.post('mark_all_as_read', { as: bob }), { complete: true });
    expect((await message(t, bob, c)).flags).toContain('read');
  });

  it('updates flags over a narrow range', async () => {
    const ms = [];
    for (const x of ['n1', 'n2', 'n3']) ms.push(await sendToChannel(t, alice, 'general', 'narrowed', x));
    const res = await t.post('messages/flags/narrow', {
      as: bob,
      form: { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [['topic', 'narrowed']], op: 'add', flag: 'starred' },
    });
    expectSuccess(res, { processed_count: 3, updated_count: 3, first_processed_id: ms[0], last_processed_id: ms[2], found_oldest: true, found_newest: true });
    expect((await message(t, bob, ms[1])).flags).toContain('starred');
  });
});
