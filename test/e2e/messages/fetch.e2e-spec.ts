import { createChannels } from '../../support/channels.js';
import { fetchNarrow, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let guest: Account;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  await createChannels(t, ['lounge', 'later']);
  await createChannels(t, ['private'], { as: alice, form: { invite_only: true } });
  // Without the Notification Bot's "you were subscribed" messages: these tests count messages.
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [alice.id, bob.id], send_new_subscription_messages: false } });
  // The Notification Bot's notices that opened "later" and "lounge" (public history: new subscribers see them).
  [{ id: ids.laterNotice }] = await fetchNarrow(t, undefined, [['channel', 'later'], ['topic', 'channel events']]);
  [{ id: ids.loungeNotice }] = await fetchNarrow(t, undefined, [['channel', 'lounge'], ['topic', 'channel events']]);
  ids.g1 = await sendToChannel(t, alice, 'lounge', 'lunch', 'pizza?');
  ids.g2 = await sendToChannel(t, bob, 'lounge', 'lunch', 'yes');
  ids.g3 = await sendToChannel(t, alice, 'lounge', 'work', 'deploy');
  ids.dm = await sendDirect(t, alice, [bob.id], 'secret plan');
  ids.priv = await sendToChannel(t, alice, 'private', 'x', 'private thing');
  ids.later = await sendToChannel(t, undefined, 'later', 'x', 'before carol joined');
  await t.post('users/me/subscriptions', { as: carol, form: { subscriptions: [{ name: 'later' }] } });
});
afterAll(() => t.close());

const get = (as: Account | undefined, query: Record<string, unknown>) => t.get('messages', { as, query });

describe('GET /messages', () => {
  it('returns the user’s messages around an anchor with the found_* facts', async () => {
    const res = await get(bob, { anchor: 'newest', num_before: 100, num_after: 0 });
    expectSuccess(res, { found_anchor: false, found_oldest: true, found_newest: true, history_limited: false, anchor: 10000000000000000 });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.g1, ids.g2, ids.g3, ids.dm]);
    const around = await get(bob, { anchor: ids.g2, num_before: 1, num_after: 1 });
    expect(around.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.g1, ids.g2, ids.g3]);
    expect(around.body).toMatchObject({ anchor: ids.g2, found_anchor: true, found_oldest: false, found_newest: false });
    const excluded = await get(bob, { anchor: ids.g2, num_before: 0, num_after: 1, include_anchor: false });
    expect(excluded.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.g3]);
    const oldest = await get(bob, { anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(oldest.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
  });

  it('finds the first unread message', async () => {
    const res = await get(bob, { anchor: 'first_unread', num_before: 0, num_after: 0 });
    expect(res.body.anchor).toBe(ids.g1);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.g1]);
  });

  it('lets use_first_unread_anchor win over any anchor, as Zulip does (zulip-terminal sends anchor=0 with it)', async () => {
    for (const anchor of [0, 'newest', 'not-a-number', undefined]) {
      const res = await get(bob, { ...(anchor === undefined ? {} : { anchor }), use_first_unread_anchor: true, num_before: 0, num_after: 0 });
      expectSuccess(res, { anchor: ids.g1 });
      expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.g1]);
    }
    // Without the flag (or with it false) the anchor is read as given.
    expect((await get(bob, { anchor: 0, use_first_unread_anchor: false, num_before: 0, num_after: 1 })).body.anchor).toBe(0);
  });

  it('narrows by channel, topic, sender, conversation, id and flags', async () => {
    const idsOf = (ms: { id: number }[]) => ms.map((m) => m.id);
    expect(idsOf(await fetchNarrow(t, bob, [['channel', 'lounge'], ['topic', 'lunch']]))).toEqual([ids.g1, ids.g2]);
    expect(idsOf(await fetchNarrow(t, bob, [{ operator: 'stream', operand: 'lounge' }, { operator: 'topic', operand: 'lunch', negated: true }]))).toEqual([ids.loungeNotice, ids.g3]);
    expect(idsOf(await fetchNarrow(t, bob, [['sender', alice.id]]))).toEqual([ids.g1, ids.g3, ids.dm]);
    // A negated channel keeps direct messages (Zulip's NOT recipient = channel).
    expect(idsOf(await fetchNarrow(t, bob, [{ operator: 'channel', operand: 'lounge', negated: true }, ['sender', alice.id]]))).toEqual([ids.dm]);
    expect(idsOf(await fetchNarrow(t, bob, [['sender', alice.email], ['is', 'dm']]))).toEqual([ids.dm]);
    expect(idsOf(await fetchNarrow(t, bob, [['dm', [alice.id]]]))).toEqual([ids.dm]);
    expect(idsOf(await fetchNarrow(t, alice, [['dm', bob.email]]))).toEqual([ids.dm]);
    expect(idsOf(await fetchNarrow(t, bob, [['id', ids.g3]]))).toEqual([ids.g3]);
    expect(idsOf(await fetchNarrow(t, bob, [['search', 'PIZZA']]))).toEqual([ids.g1]);
    expect(idsOf(await fetchNarrow(t, bob, [['is', 'unread'], ['is', 'private']]))).toEqual([ids.dm]);
  });

  it('shows channel history to new subscribers as read + historical', async () => {
    const msgs = await fetchNarrow(t, carol, [['channel', 'later']]);
    expect(msgs.map((m) => [m.id, m.flags])).toEqual([
      [ids.laterNotice, ['read', 'historical']],
      [ids.later, ['read', 'historical']],
    ]);
    // Without a channel operator only received messages are searched.
    expect(await fetchNarrow(t, carol, [])).toEqual([]);
  });

  it('keeps private channels and other people’s conversations hidden', async () => {
    expect(await fetchNarrow(t, carol, [['channel', 'private']])).toEqual([]);
    expect(await fetchNarrow(t, carol, [['dm', [alice.id]]])).toEqual([]);
    expect(await fetchNarrow(t, guest, [['channel', 'lounge']])).toEqual([]);
  });

  it('fetches by id list', async () => {
    const res = await get(bob, { message_ids: [ids.g3, ids.priv, ids.g1] });
    expectSuccess(res, { found_anchor: false, found_oldest: false, found_newest: false });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.g1, ids.g3]);
    expect(res.body).not.toHaveProperty('anchor');
  });

  it.each([
    [{ num_before: 1 }, "Missing 'anchor' argument."],
    [{ anchor: 'middle' }, 'Invalid anchor'],
    [{ anchor: 'newest', num_before: 3000, num_after: 3000 }, 'Too many messages requested (maximum 5000).'],
    [{ anchor: 5, num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
    [{ anchor: 'newest', num_before: -1 }, 'num_before is too small'],
    [{ anchor: 'newest', message_ids: [1] }, 'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor'],
    [{ anchor: 'newest', narrow: [['bogus', 'x']] }, 'Invalid narrow operator: unknown operator bogus'],
    [{ anchor: 'newest', narrow: [['channel', 'nowhere']] }, 'Invalid narrow operator: unknown channel nowhere'],
    [{ anchor: 'newest', narrow: [['is', 'sleepy']] }, "Invalid narrow operator: unknown 'is' operand sleepy"],
  ])('rejects %j: %s', async (query, msg) => {
    const res = await get(bob, query);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(msg);
  });
});

describe('GET /messages/{id}', () => {
  it('returns the message object and raw content', async () => {
    const res = await t.get(`messages/${ids.g1}`, { as: bob });
    expectSuccess(res, { raw_content: 'pizza?' });
    expect(res.body.message).toMatchObject({
      id: ids.g1,
      sender_id: alice.id,
      sender_full_name: 'Alice',
      sender_email: alice.email,
      type: 'stream',
      stream_id: expect.any(Number),
      display_recipient: 'lounge',
      subject: 'lunch',
      content: '<p>pizza?</p>',
      content_type: 'text/html',
      is_me_message: false,
      reactions: [],
      submessages: [],
      topic_links: [],
      flags: [],
      sender_realm_str: '',
    });
    const raw = await t.get(`messages/${ids.g1}`, { as: bob, query: { apply_markdown: false } });
    expect(raw.body.message).toMatchObject({ content: 'pizza?', content_type: 'text/x-markdown' });
  });

  it('answers Invalid message(s) for anything the user cannot read', async () => {
    expectError(await t.get(`messages/${ids.priv}`, { as: bob }), 400, 'Invalid message(s)');
    expectError(await t.get(`messages/${ids.dm}`, { as: carol }), 400, 'Invalid message(s)');
    expectError(await t.get(`messages/${ids.g1}`, { as: guest }), 400, 'Invalid message(s)');
    expectError(await t.get('messages/999999', { as: bob }), 400, 'Invalid message(s)');
    expectSuccess(await t.get(`messages/${ids.g1}`, { as: carol })); // public history
    const foreign = await t.createOrganization('elsewhere');
    expectError(await t.get(`messages/${ids.g1}`, { as: foreign }), 400, 'Invalid message(s)');
  });
});

describe('GET /messages/summary', () => {
  it('answers as Zulip without a language model, after reading the narrow', async () => {
    expectError(await t.get('messages/summary', { as: bob, query: { narrow: [['channel', 'lounge'], ['topic', 'lunch']] } }), 400, 'AI features are not enabled on this server.');
    expectError(await t.get('messages/summary', { as: bob }), 400, 'AI features are not enabled on this server.');
    const bad = await t.get('messages/summary', { as: bob, query: { narrow: '{"not": "a list"}' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).not.toBe('AI features are not enabled on this server.');
    expectError(await t.get('messages/summary', { as: null }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });
});
