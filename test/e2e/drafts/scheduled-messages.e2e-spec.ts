import pg from 'pg';
import zulip from 'zulip-js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Scheduled messages: GET/POST /scheduled_messages, PATCH/DELETE /scheduled_messages/{id}, the
 * `scheduled_messages` events and register section (Zulip's zerver/views/scheduled_messages.py,
 * zerver/actions/scheduled_messages.py, zerver/tests/test_scheduled_messages.py). Delivery is in
 * scheduled-messages-delivery.e2e-spec.ts.
 */
let t: TestApp;
let db: pg.Client;
let hamlet: Account;
let othello: Account;
let iago: Account;
let guest: Account;
let gone: Account;
let outsider: Account;
let verona: number;
let secret: number;
let theirChannel: number;
const NOW = 1_760_000_000;
const DAY = 86_400;
const AT = NOW + DAY;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000);
  hamlet = await t.createUser({ fullName: 'King Hamlet' });
  othello = await t.createUser({ fullName: 'Othello' });
  iago = await t.createUser({ role: 200, fullName: 'Iago' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  gone = await t.createUser({ fullName: 'Gone' });
  ({ Verona: verona } = await createChannels(t, ['Verona']));
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'Verona' }], principals: [hamlet.id, othello.id, iago.id] } });
  ({ secret } = await createChannels(t, ['secret'], { as: othello, form: { invite_only: true } }));
  expectSuccess(await t.delete(`users/${gone.id}`));
  outsider = await t.createOrganization('elsewhere', 'boss@elsewhere.example.com');
  expectSuccess(await t.post('users/me/subscriptions', { as: outsider, form: { subscriptions: [{ name: 'theirs' }] } }));
  const streams = await t.get('streams', { as: outsider });
  theirChannel = streams.body.streams.find((s: { name: string }) => s.name === 'theirs').stream_id;
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await t.close();
});
afterEach(async () => {
  await db.query('DELETE FROM scheduled_messages');
});

const schedule = (form: Record<string, unknown>, as: Account = hamlet) => t.post('scheduled_messages', { as, form });
const toVerona = (o: Record<string, unknown> = {}) => ({ type: 'channel', to: verona, topic: 'Test topic', content: 'Test message', scheduled_delivery_timestamp: AT, ...o });
const list = async (as: Account = hamlet) => {
  const res = await t.get('scheduled_messages', { as });
  expectSuccess(res);
  expect(Object.keys(res.body).sort()).toEqual(['msg', 'result', 'scheduled_messages']);
  return res.body.scheduled_messages as Record<string, unknown>[];
};
const rows = async () => (await db.query('SELECT count(*)::int AS n FROM scheduled_messages')).rows[0].n as number;
const scheduledId = async (form: Record<string, unknown>, as: Account = hamlet) => {
  const res = await schedule(form, as);
  expectSuccess(res);
  return res.body.scheduled_message_id as number;
};

describe('POST /scheduled_messages', () => {
  it('schedules a channel message and answers its id; GET lists it as Zulip shows it', async () => {
    const res = await schedule(toVerona());
    expectSuccess(res);
    expect(Object.keys(res.body).sort()).toEqual(['msg', 'result', 'scheduled_message_id']);
    expect(await list()).toEqual([
      {
        scheduled_message_id: res.body.scheduled_message_id,
        to: verona,
        type: 'stream',
        content: 'Test message',
        rendered_content: '<p>Test message</p>',
        topic: 'Test topic',
        scheduled_delivery_timestamp: AT,
        failed: false,
      },
    ]);
    expect(await list(othello)).toEqual([]);
  });

  it('accepts every type name: channel/stream as "stream", direct/private as "private" (no topic)', async () => {
    const stream = await scheduledId(toVerona({ type: 'stream', scheduled_delivery_timestamp: AT + 1 }));
    const direct = await scheduledId({ type: 'direct', to: [othello.id], content: 'Test message 3', topic: 'ignored', scheduled_delivery_timestamp: AT + 2 });
    const priv = await scheduledId({ type: 'private', to: [othello.id, iago.id, othello.id], content: 'group', scheduled_delivery_timestamp: AT + 3 });
    const self = await scheduledId({ type: 'direct', to: [hamlet.id], content: 'note to self', scheduled_delivery_timestamp: AT + 4 });
    const withSelf = await scheduledId({ type: 'direct', to: [hamlet.id, othello.id], content: 'to both', scheduled_delivery_timestamp: AT + 5 });
    const shown = (await list()).map(({ scheduled_message_id: id, type, to, topic }) => ({ id, type, to, topic }));
    expect(shown).toEqual([
      { id: stream, type: 'stream', to: verona, topic: 'Test topic' },
      { id: direct, type: 'private', to: [othello.id], topic: undefined },
      { id: priv, type: 'private', to: [othello.id, iago.id].sort((a, b) => a - b), topic: undefined },
      { id: self, type: 'private', to: [hamlet.id], topic: undefined },
      { id: withSelf, type: 'private', to: [othello.id], topic: undefined },
    ]);
    expect((await list())[1]).toEqual({
      scheduled_message_id: direct,
      to: [othello.id],
      type: 'private',
      content: 'Test message 3',
      rendered_content: '<p>Test message 3</p>',
      scheduled_delivery_timestamp: AT + 2,
      failed: false,
    });
  });

  it('normalises content and topic as a sent message: trimmed, "(no topic)" empty, long ones truncated', async () => {
    await scheduledId(toVerona({ topic: ' (no topic) ', content: '\n\n  indented  \n' }));
    await scheduledId(toVerona({ topic: 't'.repeat(61), content: '😀'.repeat(10_001), scheduled_delivery_timestamp: AT + 1 }));
    await scheduledId({ ...toVerona({ scheduled_delivery_timestamp: AT + 2 }), topic: undefined, subject: 'via subject' });
    const [a, b, c] = await list();
    expect(a).toMatchObject({ topic: '', content: '  indented' });
    expect(b.topic).toBe(`${'t'.repeat(57)}...`);
    expect(Array.from(b.content as string)).toHaveLength(10_000);
    expect((b.content as string).endsWith('\n[message truncated]')).toBe(true);
    expect(c.topic).toBe('via subject');
  });

  it.each([
    [{}, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' }],
    [{ content: 'x' }, "Missing 'to' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'to' }],
    [{ content: 'x', to: 1 }, "Missing 'type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'type' }],
    [{ content: 'x', to: 1, type: 'channel' }, "Missing 'scheduled_delivery_timestamp' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'scheduled_delivery_timestamp' }],
    [{ content: 'x', to: 'Verona', type: 'channel', scheduled_delivery_timestamp: AT }, 'to is not valid JSON', 'BAD_REQUEST', {}],
    [{ content: 'x', to: '"Verona"', type: 'channel', scheduled_delivery_timestamp: AT }, 'to["int"] is not an integer', 'BAD_REQUEST', {}],
    [{ content: 'x', to: ['hamlet@example.com'], type: 'direct', scheduled_delivery_timestamp: AT }, 'to["int"] is not an integer', 'BAD_REQUEST', {}],
    [{ content: 'x', to: '1.0', type: 'channel', scheduled_delivery_timestamp: AT }, 'to["int"] is not an integer', 'BAD_REQUEST', {}],
    [{ content: 'x', to: 1, type: 'huddle', scheduled_delivery_timestamp: AT }, 'Invalid type', 'BAD_REQUEST', {}],
    [{ content: 'x', to: 1, type: 'channel', scheduled_delivery_timestamp: `${AT}.5` }, 'scheduled_delivery_timestamp is not an integer', 'BAD_REQUEST', {}],
    [{ content: 'x', to: 1, type: 'channel', scheduled_delivery_timestamp: 'tomorrow' }, 'scheduled_delivery_timestamp is not valid JSON', 'BAD_REQUEST', {}],
    [{ content: 'x', read_by_sender: 'yes', to: 1, type: 'channel', scheduled_delivery_timestamp: AT }, 'read_by_sender is not valid JSON', 'BAD_REQUEST', {}],
    [{ content: 'x', read_by_sender: 1, to: 1, type: 'channel', scheduled_delivery_timestamp: AT }, 'read_by_sender is not a boolean', 'BAD_REQUEST', {}],
    [{ content: 'x', to: 1, type: 'channel', scheduled_delivery_timestamp: AT, topic: 't', subject: 'both' }, "Can't decide between 'topic' and 'subject' arguments", 'REQUEST_CONFUSING_VAR', { var_name1: 'topic', var_name2: 'subject' }],
  ])('refuses malformed parameters %j', async (form, msg, code, extra) => {
    expectError(await schedule(form), 400, msg, code, extra);
    expect(await rows()).toBe(0);
  });

  it('wants a delivery time strictly in the future, checked before anything else', async () => {
    const past = 'Scheduled delivery time must be in the future.';
    expectError(await schedule(toVerona({ scheduled_delivery_timestamp: NOW })), 400, past);
    expectError(await schedule(toVerona({ scheduled_delivery_timestamp: NOW - DAY })), 400, past);
    expectError(await schedule(toVerona({ scheduled_delivery_timestamp: -5 })), 400, past);
    expectError(await schedule(toVerona({ to: 999_999, content: '', scheduled_delivery_timestamp: NOW - 1 })), 400, past);
    expectError(await schedule(toVerona({ scheduled_delivery_timestamp: 253_402_300_800 })), 400, 'scheduled_delivery_timestamp is too large');
    expect(await rows()).toBe(0);
    await scheduledId(toVerona({ scheduled_delivery_timestamp: NOW + 1 }));
  });

  it('checks the shape of `to` for the type, then every rule of sending', async () => {
    const cases: [Record<string, unknown>, string, string?, Record<string, unknown>?][] = [
      [toVerona({ to: [verona] }), 'Invalid data type for channel ID'],
      [{ type: 'direct', to: othello.id, content: 'x', scheduled_delivery_timestamp: AT }, 'Invalid data type for recipients'],
      [{ type: 'private', to: [], content: 'x', scheduled_delivery_timestamp: AT }, 'Message must have recipients'],
      [toVerona({ topic: undefined }), 'Missing topic'],
      [toVerona({ to: 999_999 }), "Channel with ID '999999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999_999 }],
      [toVerona({ to: theirChannel }), `Channel with ID '${theirChannel}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream_id: theirChannel }],
      [toVerona({ to: secret }), "Not authorized to send to channel 'secret'"],
      [toVerona({ content: ' \n ' }), 'Message must not be empty'],
      [toVerona({ content: 'a\0b' }), 'Message must not contain null bytes'],
      [{ type: 'direct', to: [999_999], content: 'x', scheduled_delivery_timestamp: AT }, 'Invalid user ID 999999'],
      [{ type: 'direct', to: [outsider.id, othello.id], content: 'x', scheduled_delivery_timestamp: AT }, `Invalid user ID ${outsider.id}`],
      [{ type: 'direct', to: [gone.id], content: 'x', scheduled_delivery_timestamp: AT }, `'${gone.email}' is no longer using Zulip.`],
    ];
    for (const [form, msg, code = 'BAD_REQUEST', extra = {}] of cases) expectError(await schedule(form), 400, msg, code, extra);
    // A guest posts only where it is subscribed; it may not even see Verona.
    expectError(await schedule(toVerona(), guest), 400, "Not authorized to send to channel 'Verona'");
    expect(await rows()).toBe(0);
  });

  it('is open to every account within its own sending rights, bots and guests included', async () => {
    const bot = await t.createBot(hamlet, 'later');
    for (const as of [t.owner, iago, othello, guest, bot]) {
      const id = await scheduledId({ type: 'direct', to: [hamlet.id], content: 'hello', scheduled_delivery_timestamp: AT }, as);
      expect(await list(as)).toEqual([expect.objectContaining({ scheduled_message_id: id, to: [hamlet.id] })]);
    }
    expect(await scheduledId(toVerona({ to: secret }), othello)).toBeGreaterThan(0);
  });

  it('rejects unauthenticated calls', async () => {
    for (const [method, path] of [['get', 'scheduled_messages'], ['post', 'scheduled_messages'], ['patch', 'scheduled_messages/1'], ['delete', 'scheduled_messages/1']] as const) {
      const res = await t.call(method, path, { as: null });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
  });
});

describe('GET /scheduled_messages', () => {
  it('lists one’s own undelivered messages by delivery time, failed ones included', async () => {
    const late = await scheduledId(toVerona({ scheduled_delivery_timestamp: AT + 3 * DAY }));
    const early = await scheduledId(toVerona({ scheduled_delivery_timestamp: AT }));
    const failed = await scheduledId(toVerona({ scheduled_delivery_timestamp: AT + DAY }));
    const sent = await scheduledId(toVerona({ scheduled_delivery_timestamp: AT + 2 * DAY }));
    await db.query('UPDATE scheduled_messages SET failed = true WHERE id = $1', [failed]);
    await db.query('UPDATE scheduled_messages SET delivered = true WHERE id = $1', [sent]);
    expect((await list()).map((m) => [m.scheduled_message_id, m.failed])).toEqual([
      [early, false],
      [failed, true],
      [late, false],
    ]);
    expect(await list(othello)).toEqual([]);
    expect(await list(outsider)).toEqual([]);
  });
});

describe('PATCH /scheduled_messages/{id}', () => {
  const edit = (id: number, form: Record<string, unknown> = {}, as: Account = hamlet) => t.patch(`scheduled_messages/${id}`, { as, form });
  const one = async (id: number) => (await list()).find((m) => m.scheduled_message_id === id)!;

  it('changes type, recipients, topic, content and time as Zulip’s test_edit_schedule_message does', async () => {
    const id = await scheduledId(toVerona({ content: 'Original test message' }));
    // The same channel under its other type name: nothing changes.
    expectSuccess(await edit(id, { type: 'stream', to: verona, topic: 'Test topic' }));
    expect(await one(id)).toMatchObject({ type: 'stream', to: verona, topic: 'Test topic', content: 'Original test message', scheduled_delivery_timestamp: AT });

    expectError(await edit(id), 400, 'Nothing to change');
    expectError(await edit(id, { type: 'direct' }), 400, 'Recipient required when updating type of scheduled message.');
    const res = await edit(id, { type: 'direct', to: [othello.id] });
    expectSuccess(res);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await one(id)).toEqual({
      scheduled_message_id: id,
      to: [othello.id],
      type: 'private',
      content: 'Original test message',
      rendered_content: '<p>Original test message</p>',
      scheduled_delivery_timestamp: AT,
      failed: false,
    });
    // A topic alone is ignored for a direct message.
    expectSuccess(await edit(id, { topic: 'Direct message topic' }));
    expect(await one(id)).not.toHaveProperty('topic');

    expectError(await edit(id, { type: 'channel', to: verona }), 400, 'Topic required when updating scheduled message type to channel.');
    expectSuccess(await edit(id, { type: 'channel', to: verona, topic: 'New test topic' }));
    expect(await one(id)).toMatchObject({ type: 'stream', to: verona, topic: 'New test topic' });

    expectError(await edit(id, { scheduled_delivery_timestamp: NOW - DAY }), 400, 'Scheduled delivery time must be in the future.');
    expectSuccess(await edit(id, { content: 'Edited test message', scheduled_delivery_timestamp: AT + 3 * DAY }));
    expect(await one(id)).toMatchObject({ content: 'Edited test message', rendered_content: '<p>Edited test message</p>', topic: 'New test topic', scheduled_delivery_timestamp: AT + 3 * DAY });

    expectSuccess(await edit(id, { topic: 'Another topic for test', content: 'Final content edit for test' }));
    expect(await one(id)).toMatchObject({ topic: 'Another topic for test', content: 'Final content edit for test' });
    expectSuccess(await edit(id, { subject: '  Final topic for test  ' }));
    expect(await one(id)).toMatchObject({ type: 'stream', topic: 'Final topic for test', content: 'Final content edit for test', scheduled_delivery_timestamp: AT + 3 * DAY });
  });

  it('changes the recipients of the current type, checking their shape for it', async () => {
    const dm = await scheduledId({ type: 'direct', to: [othello.id], content: 'x', scheduled_delivery_timestamp: AT });
    expectSuccess(await edit(dm, { to: [iago.id, othello.id] }));
    expect((await one(dm)).to).toEqual([othello.id, iago.id].sort((a, b) => a - b));
    expectError(await edit(dm, { to: verona }), 400, 'Invalid data type for recipients');
    const ch = await scheduledId(toVerona());
    expectError(await edit(ch, { to: [verona] }), 400, 'Invalid data type for channel ID');
    expectError(await edit(ch, { to: 'Verona' }), 400, 'to is not valid JSON');
  });

  it('checks the changed message again with the sending rules, and changes nothing when they refuse', async () => {
    const id = await scheduledId(toVerona());
    const before = await one(id);
    expectError(await edit(id, { to: secret }), 400, "Not authorized to send to channel 'secret'");
    expectError(await edit(id, { to: 999_999 }), 400, "Channel with ID '999999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999_999 });
    expectError(await edit(id, { to: theirChannel }), 400, `Channel with ID '${theirChannel}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream_id: theirChannel });
    expectError(await edit(id, { content: '   ' }), 400, 'Message must not be empty');
    expectError(await edit(id, { topic: 'a\0b' }), 400, 'Invalid character in topic, at position 2!');
    expectError(await edit(id, { type: 'direct', to: [gone.id] }), 400, `'${gone.email}' is no longer using Zulip.`);
    expectError(await edit(id, { type: 'direct', to: [outsider.id] }), 400, `Invalid user ID ${outsider.id}`);
    expectError(await edit(id, { content: 'x', scheduled_delivery_timestamp: 'soon' }), 400, 'scheduled_delivery_timestamp is not valid JSON');
    expectError(await edit(id, { type: 'group' }), 400, 'Invalid type');
    expect(await one(id)).toEqual(before);
  });

  it('only finds one’s own scheduled messages', async () => {
    const id = await scheduledId(toVerona());
    for (const as of [othello, iago, t.owner, outsider]) {
      expectError(await edit(id, { content: 'mine now' }, as), 404, 'Scheduled message does not exist');
    }
    expectError(await edit(999_999, { content: 'x' }), 404, 'Scheduled message does not exist');
    expectError(await edit(2 ** 40, { content: 'x' }), 404, 'Not Found', 'NOT_FOUND');
    expectError(await edit(-1, { content: 'x' }), 404, 'Not Found', 'NOT_FOUND');
    // The request is checked before the message is looked up (Zulip's view, then its action).
    expectError(await edit(999_999), 400, 'Nothing to change');
    expect((await one(id)).content).toBe('Test message');
  });

  it('refuses to change a message already sent; a failed one needs a new time and is pending again', async () => {
    const sent = await scheduledId(toVerona());
    await db.query('UPDATE scheduled_messages SET delivered = true WHERE id = $1', [sent]);
    expectError(await edit(sent, { content: 'New message content', scheduled_delivery_timestamp: AT + 60 }), 400, 'Scheduled message was already sent');

    const failed = await scheduledId(toVerona());
    await db.query(`UPDATE scheduled_messages SET failed = true, failure_message = 'Oops' WHERE id = $1`, [failed]);
    expectError(await edit(failed, { topic: 'Failed to send' }), 400, 'Scheduled delivery time must be in the future.');
    expectSuccess(await edit(failed, { scheduled_delivery_timestamp: AT + 3600 }));
    expect(await one(failed)).toMatchObject({ failed: false, scheduled_delivery_timestamp: AT + 3600 });
    const { rows: [row] } = await db.query('SELECT failed, failure_message FROM scheduled_messages WHERE id = $1', [failed]);
    expect(row).toEqual({ failed: false, failure_message: null });
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  it('cancels one’s own scheduled message once; others’ do not exist for the caller', async () => {
    const id = await scheduledId(toVerona());
    for (const as of [othello, iago, t.owner, outsider]) {
      expectError(await t.delete(`scheduled_messages/${id}`, { as }), 404, 'Scheduled message does not exist');
    }
    const res = await t.delete(`scheduled_messages/${id}`, { as: hamlet });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await list()).toEqual([]);
    expectError(await t.delete(`scheduled_messages/${id}`, { as: hamlet }), 404, 'Scheduled message does not exist');
    expectError(await t.delete('scheduled_messages/abc', { as: hamlet }), 404, 'Not Found', 'NOT_FOUND');
  });
});

describe('scheduled_messages events', () => {
  it('add, update and remove go to the owner’s queues only', async () => {
    const mine = await EventClient.register(t, hamlet);
    const mine2 = await EventClient.register(t, hamlet, { event_types: ['scheduled_messages'] });
    const notMine = await EventClient.register(t, othello);
    const notWanted = await EventClient.register(t, hamlet, { event_types: ['drafts'] });
    const elsewhere = await EventClient.register(t, outsider);
    const id = await scheduledId(toVerona());
    const shown = {
      scheduled_message_id: id,
      to: verona,
      type: 'stream',
      content: 'Test message',
      rendered_content: '<p>Test message</p>',
      topic: 'Test topic',
      scheduled_delivery_timestamp: AT,
      failed: false,
    };
    expect(await mine.next()).toEqual([{ type: 'scheduled_messages', op: 'add', scheduled_messages: [shown], id: 0 }]);

    expectSuccess(await t.patch(`scheduled_messages/${id}`, { as: hamlet, form: { type: 'direct', to: [othello.id], content: 'Now **direct**' } }));
    const { topic: _topic, ...rest } = shown;
    const updated = { ...rest, to: [othello.id], type: 'private', content: 'Now **direct**', rendered_content: '<p>Now <strong>direct</strong></p>' };
    expect(await mine.next()).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: updated, id: 1 }]);

    expectSuccess(await t.delete(`scheduled_messages/${id}`, { as: hamlet }));
    expect(await mine.next()).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id, id: 2 }]);
    expect((await mine2.ofType('scheduled_messages', 3)).map((e) => e.op)).toEqual(['add', 'update', 'remove']);
    for (const q of [notMine, notWanted, elsewhere]) expect(await q.drain()).toEqual([]);
  });

  it('sends nothing when the request fails', async () => {
    const mine = await EventClient.register(t, hamlet);
    expect((await schedule(toVerona({ to: secret }))).status).toBe(400);
    expect((await t.delete('scheduled_messages/999999', { as: hamlet })).status).toBe(404);
    const id = await scheduledId(toVerona());
    const events = await mine.next();
    expect(events.map((e) => [e.op, (e.scheduled_messages as { scheduled_message_id: number }[])[0].scheduled_message_id])).toEqual([['add', id]]);
  });
});

describe('POST /register', () => {
  it('has the user’s undelivered scheduled messages in `scheduled_messages`', async () => {
    await scheduledId(toVerona());
    await scheduledId({ type: 'direct', to: [othello.id], content: 'x', scheduled_delivery_timestamp: AT - 60 });
    const res = await t.post('register', { as: hamlet, form: { fetch_event_types: ['scheduled_messages'] } });
    expectSuccess(res);
    expect(res.body.scheduled_messages).toEqual(await list());
    expect(res.body.scheduled_messages).toHaveLength(2);
    expect(res.body).not.toHaveProperty('drafts');
    const all = await t.post('register', { as: hamlet });
    expect(all.body.scheduled_messages).toEqual(await list());
    const viaEventTypes = await t.post('register', { as: hamlet, form: { event_types: ['scheduled_messages'] } });
    expect(viaEventTypes.body.scheduled_messages).toHaveLength(2);
    expect((await t.post('register', { as: othello, form: { fetch_event_types: ['scheduled_messages'] } })).body.scheduled_messages).toEqual([]);
    expect((await t.post('register', { as: outsider, form: { fetch_event_types: ['scheduled_messages'] } })).body.scheduled_messages).toEqual([]);
    const without = await t.post('register', { as: hamlet, form: { fetch_event_types: ['drafts'] } });
    expect(without.body).not.toHaveProperty('scheduled_messages');
  });
});

describe('through zulip-js', () => {
  it('has no scheduled-message methods; its generic callEndpoint drives every endpoint', async () => {
    await t.app.listen(0, '127.0.0.1');
    const client = await zulip({ username: hamlet.email, apiKey: hamlet.apiKey, realm: await t.app.getUrl() });
    const created = await client.callEndpoint('/scheduled_messages', 'POST', {
      type: 'stream',
      to: String(verona),
      topic: 'From zulip-js',
      content: 'Scheduled by zulip-js',
      scheduled_delivery_timestamp: String(AT),
    });
    expect(created).toEqual({ result: 'success', msg: '', scheduled_message_id: expect.any(Number) });
    const id = created.scheduled_message_id as number;
    expect(await client.callEndpoint('/scheduled_messages', 'GET')).toEqual({
      result: 'success',
      msg: '',
      scheduled_messages: [expect.objectContaining({ scheduled_message_id: id, to: verona, topic: 'From zulip-js' })],
    });
    expect(await client.callEndpoint(`/scheduled_messages/${id}`, 'PATCH', { content: 'Edited by zulip-js' })).toEqual({ result: 'success', msg: '' });
    expect((await list())[0].content).toBe('Edited by zulip-js');
    expect(await client.callEndpoint(`/scheduled_messages/${id}`, 'DELETE')).toEqual({ result: 'success', msg: '' });
    expect(await client.callEndpoint(`/scheduled_messages/${id}`, 'DELETE')).toMatchObject({ result: 'error', msg: 'Scheduled message does not exist' });
  });
});
