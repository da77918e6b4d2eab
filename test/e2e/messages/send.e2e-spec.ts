import pg from 'pg';
import { channelIds, createChannels, systemGroups } from '../../support/channels.js';
import { message, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice Example' });
  bob = await t.createUser({ fullName: 'Bob Example' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  ids = await createChannels(t, ['general', 'design']);
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [alice.id, bob.id, guest.id] } });
});
afterAll(() => t.close());

const send = (form: Record<string, unknown>, as?: Account, userAgent?: string) => {
  const req = t.post('messages', { as, form });
  return userAgent ? req.set('User-Agent', userAgent) : req;
};

describe('sending to a channel', () => {
  it('accepts the channel by name or id, `stream` or `channel`', async () => {
    for (const [type, to] of [['stream', 'general'], ['channel', ids.general], ['stream', '"general"'], ['channel', `[${ids.general}]`]] as const) {
      const res = await send({ type, to, topic: 'greetings', content: `via ${type} ${to}` }, alice);
      expectSuccess(res, { id: expect.any(Number) });
    }
  });

  it('follows the new topic for its starter, and says so once', async () => {
    const first = await send({ type: 'stream', to: 'general', topic: 'brand new', content: 'hi' }, bob);
    expect(first.body.automatic_new_visibility_policy).toBe(3);
    const second = await send({ type: 'stream', to: 'general', topic: 'Brand New', content: 'again' }, bob);
    expect(second.body).not.toHaveProperty('automatic_new_visibility_policy');
  });

  it('normalises content and topic', async () => {
    const id = await sendToChannel(t, alice, 'general', '  spaced topic  ', '\n\nhello   \n\n');
    const m = await message(t, alice, id);
    expect(m.content).toBe('hello');
    expect(m.subject).toBe('spaced topic');
    const long = await sendToChannel(t, alice, 'general', 'x'.repeat(70), 'y'.repeat(10_500));
    const lm = await message(t, alice, long);
    expect(lm.subject).toBe(`${'x'.repeat(57)}...`);
    expect([...lm.content]).toHaveLength(10_000);
    expect(lm.content.endsWith('\n[message truncated]')).toBe(true);
    const empty = await sendToChannel(t, alice, 'general', '(no topic)', 'no topic');
    expect((await message(t, alice, empty)).subject).toBe('general chat');
  });

  it.each([
    [{ type: 'dm', to: 'general', content: 'x' }, 'Invalid type'],
    [{ type: 'stream', topic: 't', content: 'x' }, 'Missing channel'],
    [{ type: 'stream', to: '[1,2]', topic: 't', content: 'x' }, 'Expected exactly one channel'],
    [{ type: 'stream', to: '{}', topic: 't', content: 'x' }, 'Invalid data type for channel'],
    [{ type: 'stream', to: 'general', content: 'x' }, 'Missing topic'],
    [{ type: 'stream', to: 'general', topic: 'bad\u0007topic', content: 'x' }, 'Invalid character in topic, at position 4!'],
    [{ type: 'stream', to: 'general', topic: 't', content: '   ' }, 'Message must not be empty'],
    [{ type: 'stream', to: 'general', topic: 't', content: 'a\u0000b' }, 'Message must not contain null bytes'],
    [{ type: 'stream', to: 'general', topic: 't', content: 'x', queue_id: 'q' }, "Missing 'local_id' argument"],
  ])('rejects %j: %s', async (form, msg) => {
    const res = await send(form, alice);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(msg);
  });

  it('reports missing channels by name or id', async () => {
    expectError(await send({ type: 'stream', to: 'nowhere', topic: 't', content: 'x' }), 400, "Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST', {
      stream: 'nowhere',
    });
    expectError(await send({ type: 'stream', to: 424242, topic: 't', content: 'x' }), 400, "Channel with ID '424242' does not exist", 'STREAM_DOES_NOT_EXIST', {
      stream_id: 424242,
    });
    expectError(await send({ type: 'stream', to: 'general', content: 'x', topic: 't', subject: 't' }), 400, "Can't decide between 'topic' and 'subject' arguments", 'REQUEST_CONFUSING_VAR', {
      var_name1: 'topic',
      var_name2: 'subject',
    });
  });

  it('checks who may post', async () => {
    const { secret } = await createChannels(t, ['secret'], { as: alice, form: { invite_only: true } });
    expectError(await send({ type: 'stream', to: secret, topic: 't', content: 'x' }, bob), 400, "Not authorized to send to channel 'secret'");
    // Guests may post only where subscribed.
    expectError(await send({ type: 'stream', to: 'design', topic: 't', content: 'x' }, guest), 400, "Not authorized to send to channel 'design'");
    expectSuccess(await send({ type: 'stream', to: 'general', topic: 't', content: 'guest here' }, guest));
    const groups = await systemGroups(t);
    await createChannels(t, ['announce'], { form: { can_send_message_group: groups['role:administrators'] } });
    expectError(await send({ type: 'stream', to: 'announce', topic: 't', content: 'x' }, alice), 400, 'You do not have permission to post in this channel.');
    expectSuccess(await send({ type: 'stream', to: 'announce', topic: 't', content: 'x' }));
    await createChannels(t, ['old-news']);
    expectSuccess(await t.delete(`streams/${(await channelIds(t, ['old-news']))['old-news']}`));
    expectError(await send({ type: 'stream', to: 'old-news', topic: 't', content: 'x' }), 400, "Not authorized to send to channel 'old-news'");
  });

  it('applies topics policies and can_create_topic_group', async () => {
    const groups = await systemGroups(t);
    await createChannels(t, ['strict'], { form: { topics_policy: '"disable_empty_topic"', can_create_topic_group: groups['role:administrators'] } });
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'strict' }], principals: [alice.id] } });
    expectError(
      await send({ type: 'stream', to: 'strict', topic: '', content: 'x' }),
      400,
      'Sending messages to the general chat is not allowed in this channel.',
      'BAD_REQUEST',
      { empty_topic_display_name: 'general chat' },
    );
    expectError(await send({ type: 'stream', to: 'strict', topic: 'fresh', content: 'x' }, alice), 400, 'You do not have permission to create new topics in this channel.');
    expectSuccess(await send({ type: 'stream', to: 'strict', topic: 'fresh', content: 'x' }));
    expectSuccess(await send({ type: 'stream', to: 'strict', topic: 'fresh', content: 'joining in' }, alice));
  });
});

describe('direct messages', () => {
  it('go to users by id or email, the sender listed or not, and to oneself', async () => {
    const byId = await send({ type: 'direct', to: [bob.id], content: 'hi bob' }, alice);
    expectSuccess(byId);
    const byEmail = await send({ type: 'private', to: `${bob.email},${alice.email}`, content: 'hi again' }, alice);
    expectSuccess(byEmail);
    const a = await message(t, bob, byId.body.id);
    const b = await message(t, bob, byEmail.body.id);
    expect(a.recipient_id).toBe(b.recipient_id);
    expect(a.display_recipient.map((u: { id: number }) => u.id)).toEqual([alice.id, bob.id].sort((x, y) => x - y));
    const self = await send({ type: 'direct', to: [alice.id], content: 'note to self' }, alice);
    expect((await message(t, alice, self.body.id)).display_recipient).toHaveLength(1);
    const group = await send({ type: 'direct', to: [bob.id, guest.id], content: 'group' }, alice);
    expect((await message(t, guest, group.body.id)).display_recipient).toHaveLength(3);
    expectError(await t.get(`messages/${group.body.id}`, { as: t.owner }), 400, 'Invalid message(s)');
  });

  it.each([
    [{ type: 'direct', to: '[]', content: 'x' }, 'Message must have recipients'],
    [{ type: 'direct', to: '[1, "a@b.c"]', content: 'x' }, 'Recipient lists may contain emails or user IDs, but not both.'],
    [{ type: 'direct', to: '{}', content: 'x' }, 'Invalid data type for recipients'],
    [{ type: 'direct', to: 'nobody@example.com', content: 'x' }, "Invalid email 'nobody@example.com'"],
    [{ type: 'direct', to: '[424242]', content: 'x' }, 'Invalid user ID 424242'],
  ])('rejects %j: %s', async (form, msg) => {
    expectError(await send(form, alice), 400, msg);
  });

  it('refuses deactivated recipients', async () => {
    const gone = await t.createUser();
    expectSuccess(await t.delete(`users/${gone.id}`));
    expectError(await send({ type: 'direct', to: [gone.id], content: 'x' }, alice), 400, `'${gone.email}' is no longer using Zulip.`);
  });
});

describe('flags at send time', () => {
  it('starts unread for the sender from API clients, read from Zulip apps or with read_by_sender', async () => {
    const plain = await sendToChannel(t, alice, 'general', 'flags', 'plain');
    expect((await message(t, alice, plain)).flags).toEqual([]);
    const app = (await send({ type: 'stream', to: 'general', topic: 'flags', content: 'app' }, alice, 'ZulipMobile/27.1')).body.id;
    expect((await message(t, alice, app)).flags).toEqual(['read']);
    const explicit = await sendToChannel(t, alice, 'general', 'flags', 'explicit', { read_by_sender: true });
    expect((await message(t, alice, explicit)).flags).toEqual(['read']);
    expect((await message(t, bob, explicit)).flags).toEqual([]);
  });

  it('marks mentions, wildcards and topic wildcards', async () => {
    const id = await sendToChannel(t, alice, 'general', 'mentions', 'hey @**Bob Example** and @_**Guest**');
    expect((await message(t, bob, id)).flags).toEqual(['mentioned']);
    expect((await message(t, guest, id)).flags).toEqual([]);
    const byId = await sendToChannel(t, alice, 'general', 'mentions', `ping @**Bob Example|${bob.id}**`);
    expect((await message(t, bob, byId)).flags).toEqual(['mentioned']);
    const all = await sendToChannel(t, alice, 'general', 'mentions', 'hear ye @**all**');
    expect((await message(t, guest, all)).flags).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
    await sendToChannel(t, bob, 'general', 'mentions', 'I was mentioned'); // Bob takes part in the topic
    const topic = await sendToChannel(t, alice, 'general', 'mentions', '@**topic** folks');
    expect((await message(t, bob, topic)).flags).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect((await message(t, guest, topic)).flags).toEqual([]); // never wrote in the topic
    const rendered = (await t.get(`messages/${id}`, { as: bob })).body.message.content;
    expect(rendered).toContain(`<span class="user-mention" data-user-id="${bob.id}">@Bob Example</span>`);
    expect(rendered).toContain('<span class="user-mention silent"');
  });

  it('makes mentioned users follow the topic', async () => {
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      await sendToChannel(t, alice, 'general', 'follow me', 'cc @**Bob Example**');
      const { rows } = await c.query(`SELECT visibility_policy FROM user_topics WHERE user_id = $1 AND topic_name = 'follow me'`, [bob.id]);
      expect(rows).toEqual([{ visibility_policy: 3 }]);
    } finally {
      await c.end();
    }
  });

  it('restricts mentioning many users and groups', async () => {
    const crowd = await createChannels(t, ['crowd']);
    const many = [];
    for (let i = 0; i < 15; i++) many.push((await t.createUser()).id);
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'crowd' }], principals: [...many, alice.id] } });
    expectError(
      await send({ type: 'stream', to: crowd.crowd, topic: 't', content: '@**everyone** hi' }, alice),
      400,
      'You do not have permission to use channel wildcard mentions in this channel.',
      'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
    );
    expectSuccess(await send({ type: 'stream', to: crowd.crowd, topic: 't', content: '@**everyone** hi' }));
    expectSuccess(await send({ type: 'stream', to: crowd.crowd, topic: 't', content: '@_**all** silently' }, alice));
    const groups = await systemGroups(t);
    await t.post('user_groups/create', { form: { name: 'support', description: '', members: [bob.id], can_mention_group: groups['role:administrators'] } });
    expectError(await send({ type: 'stream', to: 'general', topic: 't', content: 'ask @*support*' }, alice), 400, "You are not allowed to mention user group 'support'.");
    const ok = await sendToChannel(t, undefined, 'general', 't', 'ask @*support*');
    expect((await message(t, bob, ok)).flags).toEqual(['mentioned']);
  });
});
