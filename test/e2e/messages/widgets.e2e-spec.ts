import { ScheduledMessageDelivery } from '../../../src/drafts/application/scheduled-message-delivery.js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { CredentialCache } from '../../../src/users/application/credential-cache.js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { fetchNarrow, message, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Widgets (Zulip's zerver/lib/widget.py, zerver/views/submessage.py): `/poll` and `/todo`
 * messages (and `widget_content`) are stored with their first submessage; POST /submessage
 * attaches votes, options and tasks; message objects and events carry the submessages.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let guest: Account;
let otherOwner: Account;
let otherMessage: number;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' }); // subscribed to nothing
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  otherOwner = await t.createOrganization('other');
  await createChannels(t, ['lounge', 'attic', 'hall']);
  await createChannels(t, ['vault'], { form: { invite_only: true } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }, { name: 'attic' }], principals: [alice.id, bob.id, guest.id] } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'vault' }], principals: [alice.id] } });
  expectSuccess(await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  otherMessage = await sendToChannel(t, otherOwner, 'elsewhere', 'poll', '/poll Elsewhere?\nyes\nno');
});
afterAll(() => t.close());

const POLL = '/poll What is your favorite color?\n\nRed\nGreen  \n\n   Blue\n - Yellow';
const POLL_WIDGET = '{"widget_type": "poll", "extra_data": {"question": "What is your favorite color?", "options": ["Red", "Green", "Blue", "Yellow"]}}';

const submit = (messageId: unknown, content: unknown, as: Account = bob, msgType = 'widget') =>
  t.post('submessage', { as, form: { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) } });
const rowsOf = (messageId: number) =>
  t.sql(`SELECT id, message_id, sender_id, msg_type, content FROM submessages WHERE message_id = $1 ORDER BY id`, [messageId]);
const submessagesOf = async (id: number, as: Account = alice) => (await message(t, as, id)).submessages as Record<string, unknown>[];
const totalRows = async () => (await t.sql(`SELECT count(*)::int AS n FROM submessages`))[0].n as number;

describe('sending a widget', () => {
  it('stores a /poll with its first submessage, as Zulip writes it; message objects show it', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'polls', POLL);
    const rows = await rowsOf(id);
    expect(rows).toEqual([{ id: rows[0].id, message_id: id, sender_id: alice.id, msg_type: 'widget', content: POLL_WIDGET }]);
    const expected = [{ id: rows[0].id, message_id: id, sender_id: alice.id, msg_type: 'widget', content: POLL_WIDGET }];
    expect(await submessagesOf(id, bob)).toEqual(expected);
    const [fetched] = await fetchNarrow(t, bob, [{ operator: 'id', operand: id }]);
    expect((fetched as unknown as { submessages: unknown }).submessages).toEqual(expected);
    // The message itself is as sent.
    const res = await t.get(`messages/${id}`, { as: bob, query: { apply_markdown: false } });
    expect(res.body.raw_content).toBe(POLL);
  });

  it('stores a /todo (title, tasks, descriptions) and a bare /poll; ASCII-only JSON as Python’s json.dumps', async () => {
    const todo = await sendToChannel(t, alice, 'lounge', 'todos', '/todo School Work\nchemistry homework: assignment 2\n- study for english test: pages 56-67');
    expect((await rowsOf(todo))[0].content).toBe(
      '{"widget_type": "todo", "extra_data": {"task_list_title": "School Work", "tasks": [{"task": "chemistry homework", "desc": "assignment 2"}, {"task": "study for english test", "desc": "pages 56-67"}]}}',
    );
    const bare = await sendToChannel(t, alice, 'lounge', 'polls', '/poll');
    expect((await rowsOf(bare))[0].content).toBe('{"widget_type": "poll", "extra_data": {"question": "", "options": []}}');
    const accents = await sendDirect(t, alice, [bob.id], '/poll Café? ☕\nOui 😀');
    expect((await rowsOf(accents))[0].content).toBe('{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9? \\u2615", "options": ["Oui \\ud83d\\ude00"]}}');
    expect(await submessagesOf(accents, bob)).toHaveLength(1);
  });

  it('leaves other messages alone: no submessage, an empty list', async () => {
    for (const content of ['use /poll', '/polls are fun', '/me polls', 'plain']) {
      const id = await sendToChannel(t, alice, 'lounge', 'plain', content);
      expect(await rowsOf(id)).toEqual([]);
      expect(await submessagesOf(id)).toEqual([]);
    }
  });

  it('puts the widget in the `message` event', async () => {
    const q = await EventClient.register(t, bob, { event_types: ['message'] });
    const id = await sendToChannel(t, alice, 'lounge', 'polls', POLL);
    const [event] = await q.ofType('message');
    const [row] = await rowsOf(id);
    expect((event.message as { id: number; submessages: unknown }).submessages).toEqual([
      { id: row.id, message_id: id, sender_id: alice.id, msg_type: 'widget', content: POLL_WIDGET },
    ]);
    const plainId = await sendToChannel(t, alice, 'lounge', 'polls', 'no widget');
    const [plain] = await q.ofType('message');
    expect(plain.message).toMatchObject({ id: plainId, submessages: [] });
  });

  it('takes widget_content (a zform of choices) instead of the content’s widget, whatever the content', async () => {
    const zform = { widget_type: 'zform', extra_data: { type: 'choices', heading: 'Options:', choices: [{ short_name: 'A', long_name: 'Apple', reply: 'apple', score: 1.0 }] } };
    const id = await sendToChannel(t, alice, 'lounge', 'forms', '/poll not this', { widget_content: JSON.stringify(zform).replace('"score":1', '"score":1.0') });
    expect((await rowsOf(id))[0]).toMatchObject({
      msg_type: 'widget',
      content: '{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Options:", "choices": [{"short_name": "A", "long_name": "Apple", "reply": "apple", "score": 1.0}]}}',
    });
    const res = await t.get(`messages/${id}`, { query: { apply_markdown: false } });
    expect(res.body.raw_content).toBe('/poll not this');
  });

  it('refuses a bad widget_content with Zulip’s "Widgets: …" texts, storing nothing', async () => {
    const before = await t.sql(`SELECT count(*)::int AS n FROM messages`);
    const send = (widget_content: string) => t.post('messages', { as: alice, form: { type: 'stream', to: 'lounge', topic: 'forms', content: 'x', widget_content } });
    expectError(await send('{{{{{{'), 400, 'Widgets: API programmer sent invalid JSON content');
    expectError(await send(JSON.stringify({ color: 'red', foo: 'bar', x: 2 })), 400, 'Widgets: widget_type is not in widget_content');
    expectError(await send('5'), 400, 'Widgets: widget_content is not a dict');
    expectError(await send(JSON.stringify({ widget_type: 'poll', extra_data: {} })), 400, 'Widgets: unknown widget type: poll');
    expectError(await send(JSON.stringify({ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [{}] } })), 400, 'Widgets: short_name key is missing from extra_data["choices"][0]');
    expectError(await send(`"${'x'.repeat(10_001)}"`), 400, 'widget_content is too long (limit: 10000 characters)');
    expect(await t.sql(`SELECT count(*)::int AS n FROM messages`)).toEqual(before);
  });

  it('makes a widget of a scheduled /poll when it is delivered', async () => {
    const due = Math.floor(t.clock.now().getTime() / 1000) + 3600;
    const [{ id: lounge }] = await t.sql(`SELECT id FROM channels WHERE name = 'lounge'`);
    const res = await t.post('scheduled_messages', { as: alice, form: { type: 'channel', to: lounge, topic: 'later', content: POLL, scheduled_delivery_timestamp: due } });
    expectSuccess(res);
    expect(await t.app.get(ScheduledMessageDelivery).deliverDue(new Date((due + 30) * 1000))).toBe(1);
    const [{ delivered_message_id: id }] = await t.sql(`SELECT delivered_message_id FROM scheduled_messages WHERE id = $1`, [res.body.scheduled_message_id]);
    expect((await rowsOf(id)).map((r) => r.content)).toEqual([POLL_WIDGET]);
  });

  it('keeps a widget from being edited, as Zulip (its topic may change)', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'polls', POLL);
    expectError(await t.patch(`messages/${id}`, { as: alice, form: { content: 'changed' } }), 400, 'Widgets cannot be edited.');
    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { topic: 'polls moved' } }));
    // A message whose content only became /poll by an edit is no widget.
    const plain = await sendToChannel(t, alice, 'lounge', 'polls', 'plain');
    expectSuccess(await t.patch(`messages/${plain}`, { as: alice, form: { content: '/poll now?' } }));
    expectSuccess(await t.patch(`messages/${plain}`, { as: alice, form: { content: 'and back' } }));
  });
});

describe('POST /submessage', () => {
  it('stores votes and options, answers the bare envelope, and message objects list them in order', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'polls', POLL);
    const vote = '{"type": "vote", "key": "canned,0", "vote": 1}';
    const res = await submit(id, vote);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expectSuccess(await submit(id, { type: 'new_option', idx: 7, option: 'Purple' }, guest));
    expectSuccess(await submit(id, { type: 'vote', key: `${guest.id},7`, vote: -1 }, alice));
    expectSuccess(await submit(id, { type: 'question', question: 'Tabs or spaces?' }, alice));
    const rows = await rowsOf(id);
    expect(rows.map((r) => [r.sender_id, r.msg_type, r.content])).toEqual([
      [alice.id, 'widget', POLL_WIDGET],
      [bob.id, 'widget', vote],
      [guest.id, 'widget', '{"type":"new_option","idx":7,"option":"Purple"}'],
      [alice.id, 'widget', `{"type":"vote","key":"${guest.id},7","vote":-1}`],
      [alice.id, 'widget', '{"type":"question","question":"Tabs or spaces?"}'],
    ]);
    const expected = rows.map((r) => ({ id: r.id, message_id: id, sender_id: r.sender_id, msg_type: r.msg_type, content: r.content }));
    expect(await submessagesOf(id, guest)).toEqual(expected);
    const fetched = (await t.get('messages', { as: bob, query: { anchor: id, num_before: 0, num_after: 0 } })).body.messages;
    expect(fetched[0].submessages).toEqual(expected);
  });

  it('stores todo tasks and strikes, and the title from its author only', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'todos', '/todo School Work');
    expectSuccess(await submit(id, { type: 'new_task', key: 7, task: 'eat', desc: '', completed: false }));
    expectSuccess(await submit(id, { type: 'strike', key: `7,${bob.id}` }, guest));
    expectSuccess(await submit(id, { type: 'new_task_list_title', title: 'Homework' }, alice));
    expectError(await submit(id, { type: 'new_task_list_title', title: 'Mine' }), 400, "You can't edit the task list title unless you are the author.");
    expect((await rowsOf(id)).length).toBe(4);
  });

  it('sends a `submessage` event to those who can see the message', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'polls', POLL);
    const queues = await Promise.all([alice, bob, carol, guest].map((a) => EventClient.register(t, a, { event_types: ['submessage'] })));
    const content = '{"type": "vote", "key": "canned,1", "vote": 1}';
    expectSuccess(await submit(id, content));
    const [row] = (await rowsOf(id)).slice(-1);
    const expected = { type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: row.id, sender_id: bob.id, content };
    for (const q of [queues[0], queues[1], queues[3]]) {
      expect((await q.ofType('submessage')).map(({ id: _id, ...e }) => e)).toEqual([expected]);
    }
    // Carol is not subscribed: nothing.
    expect(await queues[2].drain()).toEqual([]);
  });

  it('lets its sender attach the first submessage of any message (stored as sent), and no one else', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'plain', 'no widget here');
    expectError(await submit(id, { type: 'vote', key: 'canned,0', vote: 1 }), 400, 'You cannot attach a submessage to this message.');
    expect(await rowsOf(id)).toEqual([]);
    expectSuccess(await submit(id, { anything: ['goes'] }, alice, 'whatever'));
    expect(await submessagesOf(id)).toMatchObject([{ sender_id: alice.id, msg_type: 'whatever', content: '{"anything":["goes"]}' }]);
    // Then others may attach too, unchecked (it is no poll or todo list).
    expectSuccess(await submit(id, [1, 2]));
    expect((await rowsOf(id)).length).toBe(2);
  });

  describe('refuses, changing nothing', () => {
    let poll: number;
    let todo: number;
    beforeAll(async () => {
      poll = await sendToChannel(t, alice, 'lounge', 'polls', '/poll Preference?\n\nyes\nno');
      todo = await sendToChannel(t, alice, 'lounge', 'todos', '/todo');
    });
    let before: number;
    beforeEach(async () => {
      before = await totalRows();
    });
    afterEach(async () => {
      expect(await totalRows()).toBe(before);
    });

    it('content that is not JSON', async () => {
      for (const content of ['bogus', '', '{"type": "vote",', 'NaN', '"\\ud800"']) {
        expectError(await submit(poll, content), 400, 'Invalid json for submessage');
      }
    });

    it.each([
      ['""', 'poll data is not a dict'],
      ['[]', 'poll data is not a dict'],
      ['{"type": "bogus"}', 'Unknown type for poll data: bogus'],
      ['{"type": "vote"}', 'key key is missing from poll data'],
      ['{"type": "vote", "key": "1,1,", "vote": 99}', 'Invalid poll data["vote"]'],
      ['{"type": "vote", "key": "1,1,", "vote": 1.0}', 'poll data["vote"] is not an integer'],
      ['{"type": "vote", "key": "1,1", "vote": 1, "extra": 2}', 'Unexpected arguments: extra'],
      ['{"type": "question"}', "You can't edit a question unless you are the author."],
      ['{"type": "new_option"}', 'option key is missing from poll data'],
      ['{"type": "new_option", "idx": 7, "option": 999}', 'poll data["option"] is not a string'],
      ['{"type": "new_option", "idx": -1, "option": "pizza"}', 'poll data["idx"] is too small'],
      ['{"type": "new_option", "idx": 1001, "option": "pizza"}', 'poll data["idx"] is too large'],
      ['{"type": "new_option", "idx": "bogus", "option": "maybe"}', 'poll data["idx"] is not an integer'],
    ])('a poll submessage %s: %s', async (content, msg) => {
      expectError(await submit(poll, content), 400, msg);
    });

    it.each([
      ['{"type": "bogus"}', 'Unknown type for todo data: bogus'],
      ['{"type": "new_task"}', 'key key is missing from todo data'],
      ['{"type": "new_task", "key": 7, "task": 7, "desc": "", "completed": false}', 'todo data["task"] is not a string'],
      ['{"type": "new_task", "key": -1, "task": "eat", "desc": "", "completed": false}', 'todo data["key"] is too small'],
      ['{"type": "new_task", "key": 1001, "task": "eat", "desc": "", "completed": false}', 'todo data["key"] is too large'],
      ['{"type": "strike"}', 'key key is missing from todo data'],
      ['{"type": "strike", "key": 999}', 'todo data["key"] is not a string'],
    ])('a todo submessage %s: %s', async (content, msg) => {
      expectError(await submit(todo, content), 400, msg);
    });

    it('a message the caller cannot see, or that does not exist, the same way', async () => {
      const secret = await sendToChannel(t, alice, 'vault', 'secret', '/poll Secret?\nyes');
      const dm = await sendDirect(t, alice, [bob.id], '/poll Just us?\nyes');
      const lounge = await sendToChannel(t, alice, 'lounge', 'polls', '/poll Lounge?\nyes');
      const vote = { type: 'vote', key: 'canned,0', vote: 1 };
      for (const [id, as] of [[secret, bob], [dm, carol], [lounge, otherOwner], [otherMessage, alice], [otherMessage, t.owner], [999_999, bob], [2 ** 31, bob]] as [number, Account][]) {
        expectError(await submit(id, vote, as), 400, 'Invalid message(s)');
      }
      // The access check comes first: not JSON, no widget, still "Invalid message(s)".
      expectError(await submit(secret, 'bogus'), 400, 'Invalid message(s)');
      // A guest sees only the channels they are subscribed to.
      const hall = await sendToChannel(t, t.owner, 'hall', 'polls', '/poll Hall?\nyes');
      expectError(await submit(hall, vote, guest), 400, 'Invalid message(s)');
      expectSuccess(await submit(hall, vote, carol)); // a member reads a public channel's history
      before += 5; // the four polls' widgets, and Carol's vote
    });

    it('a message of an archived channel', async () => {
      const id = await sendToChannel(t, alice, 'attic', 'polls', '/poll Old?\nyes');
      before += 1;
      const [{ id: attic }] = await t.sql(`SELECT id FROM channels WHERE name = 'attic'`);
      expectSuccess(await t.delete(`streams/${attic}`));
      expectError(await submit(id, { type: 'vote', key: 'canned,0', vote: 1 }), 400, 'Invalid message(s)');
    });

    it('malformed and oversized parameters', async () => {
      expectError(await t.post('submessage', { as: bob, form: { message_id: poll, msg_type: 'widget' } }), 400, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' });
      expectError(await t.post('submessage', { as: bob, form: { content: '{}', msg_type: 'widget' } }), 400, "Missing 'message_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'message_id' });
      expectError(await t.post('submessage', { as: bob, form: { content: '{}', message_id: poll } }), 400, "Missing 'msg_type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'msg_type' });
      expectError(await submit('x', '{}'), 400, 'message_id is not valid JSON');
      expectError(await submit('"1"', '{}'), 400, 'message_id is not an integer');
      const big = JSON.stringify({ type: 'new_option', idx: 1, option: 'x'.repeat(10_000) });
      expectError(await submit(poll, big), 400, 'content is too long (limit: 10000 characters)');
      expectError(await submit(poll, '{"type": "vote", "key": "canned,0", "vote": 1}', bob, 'w'.repeat(101)), 400, 'msg_type is too long (limit: 100 characters)');
      expectError(await t.post('submessage', { as: null, form: { content: '{}', message_id: poll, msg_type: 'widget' } }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    });
  });
});

describe('statements', () => {
  const statements = async (request: () => Promise<{ status: number; body: unknown }>): Promise<number> => {
    const counter = t.app.get(StatementCounter);
    t.app.get(CredentialCache).all();
    const before = counter.count;
    const res = await request();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return counter.count - before;
  };
  const send = (content: string) => t.post('messages', { as: alice, form: { type: 'stream', to: 'lounge', topic: 'count', content } });

  it('a widget costs no statement more to send, and a page reads submessages only when it shows a widget', async () => {
    expectSuccess(await send('warm up'));
    const plain = await statements(() => send('plain'));
    expect(await statements(() => send('/poll Count?\nyes\nno'))).toBe(plain);
    expect(await statements(() => send('/todo Count'))).toBe(plain);
    const page = (anchor: number) => () => t.get('messages', { as: alice, query: { anchor, num_before: 0, num_after: 0 } });
    const plainId = await sendToChannel(t, alice, 'lounge', 'count', 'plain');
    const pollId = await sendToChannel(t, alice, 'lounge', 'count', '/poll Page?');
    expect(await statements(page(pollId))).toBe((await statements(page(plainId))) + 1);
  });

  it('a vote costs the same on a poll with many submessages', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'count', '/poll Many?\nyes');
    const vote = () => submit(id, { type: 'vote', key: 'canned,0', vote: 1 });
    expectSuccess(await vote());
    const first = await statements(vote);
    for (let i = 0; i < 20; i++) expectSuccess(await vote());
    expect(await statements(vote)).toBe(first);
  });
});
