import type { AddressInfo } from 'node:net';
import zulip from 'zulip-js';
import { channelIds, createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * GET /messages/{id}, GET /messages/{id}/history, POST /messages/render, GET
 * /messages/matches_narrow and GET /messages/{id}/read_receipts, and zulip-js driving them.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let other: Account;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' }); // subscribed to nothing
  other = await t.createOrganization('other');
  await createChannels(t, ['lounge']);
  await createChannels(t, ['vault'], { form: { invite_only: true, history_public_to_subscribers: false } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [alice.id, bob.id] } });
  ids = await channelIds(t, ['lounge', 'vault']);
});
afterAll(() => t.close());

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

/** Messages the other organization can see (its ids must look unknown here). */
async function foreignMessage(): Promise<number> {
  const res = await t.post('messages', { as: other, form: { type: 'direct', to: [other.id], content: 'elsewhere' } });
  return res.body.id;
}

describe('GET /messages/{message_id}', () => {
  it('returns the message object Zulip returns: avatar_url as for client_gravatar, reactions, flags', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'lunch', 'pizza **now**?');
    expectSuccess(await t.post(`messages/${id}/reactions`, { as: bob, form: { emoji_name: 'thumbs_up' } }));
    const res = await t.get(`messages/${id}`, { as: bob });
    const [row] = await sql(`SELECT recipient_id, floor(extract(epoch FROM date_sent))::int AS ts FROM messages WHERE id = $1`, [id]);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      raw_content: 'pizza **now**?',
      message: {
        id,
        sender_id: alice.id,
        content: '<p>pizza <strong>now</strong>?</p>',
        recipient_id: row.recipient_id,
        timestamp: row.ts,
        client: 'Unspecified',
        subject: 'lunch',
        topic_links: [],
        is_me_message: false,
        reactions: [{ emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: bob.id }],
        submessages: [],
        sender_full_name: 'Alice',
        sender_email: alice.email,
        sender_realm_str: '',
        display_recipient: 'lounge',
        type: 'stream',
        stream_id: ids.lounge,
        avatar_url: null,
        content_type: 'text/html',
        flags: [],
      },
    });
    // The same object as GET /messages shows it.
    const listed = await t.get('messages', { as: bob, query: { message_ids: [id] } });
    expect(listed.body.messages[0]).toEqual(res.body.message);
  });

  it('gives the raw Markdown with apply_markdown=false, historical read flags to non-recipients, and the empty topic as asked', async () => {
    const id = await sendToChannel(t, alice, 'lounge', '', '_raw_ text');
    const raw = await t.get(`messages/${id}`, { as: carol, query: { apply_markdown: false } });
    expect(raw.body.message).toMatchObject({ content: '_raw_ text', content_type: 'text/x-markdown', flags: ['read', 'historical'], subject: 'general chat' });
    expect(raw.body.raw_content).toBe('_raw_ text');
    expect((await t.get(`messages/${id}`, { as: carol, query: { allow_empty_topic_name: true } })).body.message.subject).toBe('');
    // A topic edit's history shows the empty topic the same way.
    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { topic: 'named now' } }));
    const edited = await t.get(`messages/${id}`, { as: carol });
    expect(edited.body.message.edit_history).toEqual([
      { user_id: alice.id, timestamp: expect.any(Number), prev_topic: 'general chat', topic: 'named now' },
    ]);
    expect((await t.get(`messages/${id}`, { as: carol, query: { allow_empty_topic_name: true } })).body.message.edit_history[0].prev_topic).toBe('');
  });

  it('answers "Invalid message(s)" for unknown, foreign and unreadable messages alike', async () => {
    const dm = await sendDirect(t, alice, [bob.id], 'just us');
    const secret = await sendToChannel(t, undefined, 'vault', 'x', 'secret');
    for (const [id, as] of [
      [dm, carol],
      [secret, alice],
      [424242, alice],
      [await foreignMessage(), alice],
    ] as [number, Account][]) {
      expectError(await t.get(`messages/${id}`, { as }), 400, 'Invalid message(s)');
      expectError(await t.get(`messages/${id}/history`, { as }), 400, 'Invalid message(s)');
      expectError(await t.get(`messages/${id}/read_receipts`, { as }), 400, 'Invalid message(s)');
    }
    expectError(await t.get('messages/abc'), 404, 'Not Found', 'NOT_FOUND');
    expectError(await t.get(`messages/${dm}`, { as: bob, query: { apply_markdown: 'no' } }), 400, 'apply_markdown is not valid JSON');
  });
});

describe('GET /messages/{message_id}/history', () => {
  it('lists the snapshots oldest first, with what each edit changed and an HTML diff of content edits', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'party at my houz', 'Hello!');
    t.clock.advance(10);
    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { content: 'Howdy!', topic: 'party at my house' } }));
    const [row] = await sql(`SELECT floor(extract(epoch FROM date_sent))::int AS sent, floor(extract(epoch FROM last_edit_time))::int AS edited FROM messages WHERE id = $1`, [id]);
    const res = await t.get(`messages/${id}/history`, { as: bob });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      message_history: [
        { content: 'Hello!', topic: 'party at my houz', rendered_content: '<p>Hello!</p>', timestamp: row.sent, user_id: alice.id },
        {
          topic: 'party at my house',
          content: 'Howdy!',
          prev_content: 'Hello!',
          rendered_content: '<p>Howdy!</p>',
          user_id: alice.id,
          prev_rendered_content: '<p>Hello!</p>',
          content_html_diff: '<div><p><span class="highlight_text_inserted">Howdy!</span></p> <p><span class="highlight_text_deleted">Hello!</span></p></div>',
          prev_topic: 'party at my houz',
          timestamp: row.edited,
        },
      ],
    });
  });

  it('follows the organization’s policy: "moves" drops content-only edits and content fields, "none" refuses first', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'policy', 'one two');
    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { content: 'one three' } }));
    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { content: 'one four', topic: 'policy moved' } }));
    const all = (await t.get(`messages/${id}/history`, { as: bob })).body.message_history;
    expect(all).toHaveLength(3);
    // lxml's htmldiff leaves the space it put after </del> before the closing </p>.
    expect(all[1].content_html_diff).toBe('<div><p>one <span class="highlight_text_inserted">three</span> <span class="highlight_text_deleted">two</span> </p></div>');
    expectSuccess(await t.patch('realm', { form: { message_edit_history_visibility_policy: 'moves' } }));
    try {
      const moves = (await t.get(`messages/${id}/history`, { as: bob })).body.message_history;
      expect(moves).toEqual([
        { content: 'one two', rendered_content: '<p>one two</p>', topic: 'policy', timestamp: expect.any(Number), user_id: alice.id },
        { content: 'one four', rendered_content: '<p>one four</p>', topic: 'policy moved', prev_topic: 'policy', timestamp: expect.any(Number), user_id: alice.id },
      ]);
      expectSuccess(await t.patch('realm', { form: { message_edit_history_visibility_policy: 'none' } }));
      expectError(await t.get(`messages/${id}/history`, { as: bob }), 400, 'Message edit history is disabled in this organization');
      expectError(await t.get('messages/424242/history', { as: bob }), 400, 'Message edit history is disabled in this organization');
    } finally {
      expectSuccess(await t.patch('realm', { form: { message_edit_history_visibility_policy: 'all' } }));
    }
  });

  it('shows the empty topic as asked', async () => {
    const id = await sendToChannel(t, alice, 'lounge', '', 'untitled');
    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { topic: 'titled' } }));
    const plain = (await t.get(`messages/${id}/history`, { as: bob })).body.message_history;
    expect(plain.map((s: { topic: string }) => s.topic)).toEqual(['general chat', 'titled']);
    expect(plain[1].prev_topic).toBe('general chat');
    const aware = (await t.get(`messages/${id}/history`, { as: bob, query: { allow_empty_topic_name: true } })).body.message_history;
    expect(aware.map((s: { topic: string }) => s.topic)).toEqual(['', 'titled']);
  });
});

describe('POST /messages/render', () => {
  it('renders Markdown as a message of the caller would, mentions included', async () => {
    const res = await t.post('messages/render', { as: bob, form: { content: '**foo** @**Alice**' } });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      rendered: `<p><strong>foo</strong> <span class="user-mention" data-user-id="${alice.id}">@Alice</span></p>`,
    });
  });

  it('refuses missing and oversized content', async () => {
    expectError(await t.post('messages/render', { as: bob, form: {} }), 400, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' });
    expectError(await t.post('messages/render', { as: bob, form: { content: 'x'.repeat(10001) } }), 400, 'content is too long (limit: 10000 characters)');
    expectSuccess(await t.post('messages/render', { as: bob, form: { content: 'x'.repeat(10000) } }));
  });

  it('is its own route: other methods get 405, and messages/{id} routes are unchanged', async () => {
    for (const method of ['get', 'patch', 'delete'] as const) {
      const res = await t.call(method, 'messages/render', { as: bob });
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
    }
    const res = await t.post('messages/matches_narrow', { as: bob, form: { msg_ids: [], narrow: [] } });
    expect(res.status).toBe(405);
    expect(res.body.allowed_methods).toEqual(['GET', 'HEAD']);
    expectError(await t.patch('messages/abc', { as: bob, form: { content: 'x' } }), 404, 'Not Found', 'NOT_FOUND');
    const id = await sendToChannel(t, bob, 'lounge', 'routes', 'still here');
    expect((await t.get(`messages/${id}`, { as: bob })).status).toBe(200);
    const wrong = await t.post(`messages/${id}`, { as: bob });
    expect(wrong.status).toBe(405);
    expect(wrong.body.allowed_methods).toEqual(['GET', 'PATCH', 'DELETE', 'HEAD']);
  });
});

describe('GET /messages/matches_narrow', () => {
  it('keeps the received messages that match, with their rendering and escaped topic', async () => {
    const hit = await sendToChannel(t, alice, 'lounge', 'fish & chips', 'cod');
    const other1 = await sendToChannel(t, alice, 'lounge', 'other', 'haddock');
    const dm = await sendDirect(t, alice, [bob.id], 'cod too');
    const res = await t.get('messages/matches_narrow', {
      as: bob,
      query: { msg_ids: [hit, other1, dm, 424242], narrow: [{ operator: 'channel', operand: 'lounge' }, { operator: 'topic', operand: 'Fish & Chips' }] },
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      messages: { [String(hit)]: { match_content: '<p>cod</p>', match_subject: 'fish &amp; chips' } },
    });
  });

  it('highlights the searched words in content and topic, outside tags', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'Pizza night', 'I like **pizza** and [pizza](https://pizza.example)');
    const res = await t.get('messages/matches_narrow', { as: bob, query: { msg_ids: [id], narrow: [['search', 'pizza']] } });
    expect(res.body.messages).toEqual({
      [String(id)]: {
        match_content:
          '<p>I like <strong><span class="highlight">pizza</span></strong> and ' +
          '<a href="https://pizza.example"><span class="highlight">pizza</span></a></p>',
        match_subject: '<span class="highlight">Pizza</span> night',
      },
    });
    // GET /messages gives the same search fields on a search narrow (and none without one).
    const fetched = await t.get('messages', { as: bob, query: { message_ids: [id], narrow: [['search', 'pizza']] } });
    expect(fetched.body.messages[0]).toMatchObject(res.body.messages[String(id)]);
    expect((await t.get('messages', { as: bob, query: { message_ids: [id] } })).body.messages[0]).not.toHaveProperty('match_content');
  });

  it('leaves out messages the user only reaches through public history, and others’ messages', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'public', 'not received by carol');
    expectSuccess(await t.get('messages/matches_narrow', { as: carol, query: { msg_ids: [id], narrow: [] } }), { messages: {} });
    expectSuccess(await t.get('messages/matches_narrow', { as: other, query: { msg_ids: [id], narrow: [] } }), { messages: {} });
    // Ids beyond any stored one match nothing, in msg_ids or in an id term.
    expectSuccess(await t.get('messages/matches_narrow', { as: bob, query: { msg_ids: [99_999_999_999, id], narrow: [['id', 99_999_999_999]] } }), { messages: {} });
    expectError(await t.get('messages/matches_narrow', { as: bob, query: { msg_ids: [id], narrow: [['channel', 99_999_999_999]] } }), 400, 'Invalid narrow operator: unknown channel 99999999999', 'BAD_NARROW', { desc: 'unknown channel 99999999999' });
  });

  it.each([
    [{ narrow: [] }, "Missing 'msg_ids' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'msg_ids' }],
    [{ msg_ids: [1] }, "Missing 'narrow' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'narrow' }],
    [{ msg_ids: 'x', narrow: [] }, 'msg_ids is not valid JSON', 'BAD_REQUEST', {}],
    [{ msg_ids: [1, 'a'], narrow: [] }, 'msg_ids[1] is not an integer', 'BAD_REQUEST', {}],
    [{ msg_ids: [1], narrow: [['bogus', 'x']] }, 'Invalid narrow operator: unknown operator bogus', 'BAD_NARROW', { desc: 'unknown operator bogus' }],
    [{ msg_ids: [1], narrow: [['channel', 'nowhere']] }, 'Invalid narrow operator: unknown channel nowhere', 'BAD_NARROW', { desc: 'unknown channel nowhere' }],
  ])('rejects %j', async (query, msg, code, extra) => {
    expectError(await t.get('messages/matches_narrow', { as: bob, query }), 400, msg, code, extra);
  });
});

describe('GET /messages/{message_id}/read_receipts', () => {
  it('lists who read the message: not the sender, not unread, not users who keep it private or are deactivated', async () => {
    const dave = await t.createUser({ fullName: 'Dave' });
    const erin = await t.createUser({ fullName: 'Erin' });
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [dave.id, erin.id] } });
    const id = await sendToChannel(t, alice, 'lounge', 'receipts', 'did you read this?');
    for (const reader of [bob, dave, erin]) expectSuccess(await t.post('messages/flags', { as: reader, form: { messages: [id], op: 'add', flag: 'read' } }));
    await sql(`UPDATE users SET send_read_receipts = false WHERE id = $1`, [dave.id]);
    expectSuccess(await t.delete(`users/${erin.id}`));
    const res = await t.get(`messages/${id}/read_receipts`, { as: carol });
    expect(res.body).toEqual({ result: 'success', msg: '', user_ids: [bob.id] });
    expectSuccess(await t.get(`messages/${id}/read_receipts`, { as: alice }), { user_ids: [bob.id] });
  });

  it('refuses when the organization disabled read receipts (a setting admins change, with an event)', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'receipts', 'again');
    expect((await t.post('register', { as: bob, form: { fetch_event_types: ['realm'] } })).body.realm_enable_read_receipts).toBe(true);
    const q = await EventClient.register(t, bob, { event_types: ['realm'] });
    expectError(await t.patch('realm', { as: alice, form: { enable_read_receipts: false } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.patch('realm', { form: { enable_read_receipts: 'no' } }), 400, 'enable_read_receipts is not valid JSON');
    expectSuccess(await t.patch('realm', { form: { enable_read_receipts: false } }), { enable_read_receipts: false });
    try {
      expect((await q.next()).map(({ id: _id, ...e }) => e)).toEqual([{ type: 'realm', op: 'update', property: 'enable_read_receipts', value: false }]);
      expectError(await t.get(`messages/${id}/read_receipts`, { as: bob }), 400, 'Read receipts are disabled in this organization.');
      expectError(await t.get('messages/424242/read_receipts', { as: bob }), 400, 'Invalid message(s)');
      expect((await t.post('register', { as: bob, form: { fetch_event_types: ['realm'] } })).body.realm_enable_read_receipts).toBe(false);
    } finally {
      expectSuccess(await t.patch('realm', { form: { enable_read_receipts: true } }));
    }
  });
});

describe('zulip-js', () => {
  it('reads messages, their history, renders and lists topics through its own methods', async () => {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    type Call = (p: unknown) => Promise<Record<string, unknown>>;
    const client = (await zulip({ username: bob.email, apiKey: bob.apiKey, realm: `http://127.0.0.1:${port}` })) as unknown as {
      messages: { render: Call; getById: Call; getHistoryById: Call };
      streams: { topics: { retrieve: Call } };
    };
    const id = await sendToChannel(t, alice, 'lounge', 'zulip-js topic', 'from **zulip-js**');
    expect(await client.messages.render('**bold**')).toEqual({ result: 'success', msg: '', rendered: '<p><strong>bold</strong></p>' });
    const got = await client.messages.getById({ message_id: id, apply_markdown: false });
    expect(got).toMatchObject({ result: 'success', raw_content: 'from **zulip-js**', message: { id, content: 'from **zulip-js**' } });
    expect(got).not.toHaveProperty('ignored_parameters_unsupported');
    expect(await client.messages.getHistoryById({ message_id: id })).toMatchObject({
      result: 'success',
      message_history: [{ content: 'from **zulip-js**', topic: 'zulip-js topic', user_id: alice.id }],
    });
    const topicsRes = await client.streams.topics.retrieve({ stream_id: ids.lounge });
    expect((topicsRes.topics as { name: string; max_id: number }[])[0]).toEqual({ name: 'zulip-js topic', max_id: id });
  });
});
