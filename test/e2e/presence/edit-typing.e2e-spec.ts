import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /messages/{message_id}/typing (Zulip's send_message_edit_notification_backend,
 * do_send_stream_message_edit_typing_notification / do_send_direct_message_edit_typing_notification):
 * the `typing_edit_message` event, to those who would see the edit and receive typing
 * notifications (their receives_typing_notifications setting; no client capability is needed).
 */
let t: TestApp;
let member: Account;
let other: Account;
let outsider: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let ch: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  outsider = await t.createUser({ fullName: 'Outsider' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(member, 'editor');
  otherOwner = await t.createOrganization('elsewhere');
  ch = await createChannels(t, ['lounge', 'old'], { form: { principals: [t.owner.id, member.id, other.id, bot.id] } });
  Object.assign(ch, await createChannels(t, ['secret'], { form: { invite_only: true, principals: [t.owner.id, member.id] } }));
});
afterAll(() => t.close());

const typing = (as: Account, id: number | string, form: Record<string, unknown> = { op: 'start' }) => t.post(`messages/${id}/typing`, { as, form });
const EDIT_TYPING = { event_types: ['typing_edit_message'] };
const strip = ({ id: _, ...e }: Record<string, unknown>) => e;

describe('a channel message', () => {
  it('tells the channel’s subscribers (the sender too), with the channel and topic', async () => {
    const id = await sendToChannel(t, member, 'lounge', 'plans', 'first draft');
    const [m, o, out] = [await EventClient.register(t, member, EDIT_TYPING), await EventClient.register(t, other, EDIT_TYPING), await EventClient.register(t, outsider)];
    const res = await typing(member, id);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const expected = { type: 'typing_edit_message', op: 'start', sender_id: member.id, message_id: id, recipient: { type: 'channel', channel_id: ch.lounge, topic: 'plans' } };
    for (const c of [m, o]) expect((await c.ofType('typing_edit_message')).map(strip)).toEqual([expected]);
    expectSuccess(await typing(member, id, { op: 'stop' }));
    expect((await o.ofType('typing_edit_message')).map(strip)).toEqual([{ ...expected, op: 'stop' }]);
    expect(await out.drain()).toEqual([]);
  });

  it('names the empty topic "general chat" to clients without empty_topic_name, as other typing events', async () => {
    const id = await sendToChannel(t, member, 'lounge', '', 'no topic');
    const modern = await EventClient.register(t, other, { ...EDIT_TYPING, client_capabilities: { notification_settings_null: false, empty_topic_name: true } });
    const legacy = await EventClient.register(t, other, EDIT_TYPING);
    expectSuccess(await typing(member, id));
    expect((await modern.ofType('typing_edit_message'))[0].recipient).toEqual({ type: 'channel', channel_id: ch.lounge, topic: '' });
    expect((await legacy.ofType('typing_edit_message'))[0].recipient).toEqual({ type: 'channel', channel_id: ch.lounge, topic: 'general chat' });
  });

  it('leaves out those who turned typing notifications off, and queues that did not ask for the event', async () => {
    const id = await sendToChannel(t, member, 'lounge', 'plans', 'second');
    expectSuccess(await t.patch('settings', { as: other, form: { receives_typing_notifications: false } }));
    const o = await EventClient.register(t, other, EDIT_TYPING);
    const typingOnly = await EventClient.register(t, t.owner, { event_types: ['typing'] });
    const everything = await EventClient.register(t, t.owner);
    expectSuccess(await typing(member, id));
    expect(await everything.ofType('typing_edit_message')).toHaveLength(1);
    expect(await o.drain()).toEqual([]);
    expect(await typingOnly.drain()).toEqual([]);
    expectSuccess(await t.patch('settings', { as: other, form: { receives_typing_notifications: true } }));
  });

  it('needs what an edit needs: the sender, editing on, within the limit (with no grace)', async () => {
    const id = await sendToChannel(t, member, 'lounge', 'limits', 'mine');
    expectError(await typing(other, id), 400, "You don't have permission to edit this message");
    expectError(await typing(t.owner, id), 400, "You don't have permission to edit this message");
    t.clock.advance(600);
    expectSuccess(await typing(member, id));
    t.clock.advance(1);
    expectError(await typing(member, id), 400, 'The time limit for editing this message has passed');
    // An edit still has its 20 s of grace.
    expectSuccess(await t.patch(`messages/${id}`, { as: member, form: { content: 'still mine' } }));
    const fresh = await sendToChannel(t, member, 'lounge', 'limits', 'new');
    expectSuccess(await t.patch('realm', { form: { allow_message_editing: false } }));
    expectError(await typing(member, fresh), 400, 'Your organization has turned off message editing');
    expectSuccess(await t.patch('realm', { form: { allow_message_editing: true } }));
  });

  it('follows send_stream_typing_notifications, checked after the message', async () => {
    const id = await sendToChannel(t, member, 'lounge', 'settings', 'x');
    expectSuccess(await t.patch('settings', { as: member, form: { send_stream_typing_notifications: false } }));
    expectError(await typing(member, id), 400, 'User has disabled typing notifications for channel messages');
    expectError(await typing(member, 999_999), 400, 'Invalid message(s)');
    expectSuccess(await t.patch('settings', { as: member, form: { send_stream_typing_notifications: true } }));
  });

  it('lets a bot type over its own message', async () => {
    const id = await sendToChannel(t, bot, 'lounge', 'bots', 'beep');
    const m = await EventClient.register(t, member, EDIT_TYPING);
    expectSuccess(await typing(bot, id));
    expect((await m.ofType('typing_edit_message'))[0]).toMatchObject({ sender_id: bot.id, message_id: id });
  });
});

describe('a direct message', () => {
  it('one-to-one: the editor then the other participant, both told', async () => {
    const id = await sendDirect(t, member, [other.id], 'hi');
    const [m, o] = [await EventClient.register(t, member, EDIT_TYPING), await EventClient.register(t, other, EDIT_TYPING)];
    expectSuccess(await typing(member, id));
    const expected = { type: 'typing_edit_message', op: 'start', sender_id: member.id, message_id: id, recipient: { type: 'direct', user_ids: [member.id, other.id] } };
    for (const c of [m, o]) expect((await c.ofType('typing_edit_message')).map(strip)).toEqual([expected]);
  });

  it('a group: its members ascending, only those who receive typing notifications listed and told', async () => {
    const id = await sendDirect(t, member, [other.id, t.owner.id], 'all of us');
    expectSuccess(await t.patch('settings', { as: t.owner, form: { receives_typing_notifications: false } }));
    const [o, owner] = [await EventClient.register(t, other, EDIT_TYPING), await EventClient.register(t, t.owner, EDIT_TYPING)];
    expectSuccess(await typing(member, id, { op: 'stop' }));
    const [e] = await o.ofType('typing_edit_message');
    expect(e.recipient).toEqual({ type: 'direct', user_ids: [member.id, other.id].sort((a, b) => a - b) });
    expect(await owner.drain()).toEqual([]);
    expectSuccess(await t.patch('settings', { as: t.owner, form: { receives_typing_notifications: true } }));
  });

  it('follows send_private_typing_notifications', async () => {
    const id = await sendDirect(t, member, [other.id], 'setting');
    expectSuccess(await t.patch('settings', { as: member, form: { send_private_typing_notifications: false } }));
    expectError(await typing(member, id), 400, 'User has disabled typing notifications for direct messages');
    expectSuccess(await t.patch('settings', { as: member, form: { send_private_typing_notifications: true } }));
  });
});

describe('messages the caller cannot see, and malformed requests', () => {
  it('answers "Invalid message(s)" alike for unknown, unreadable, archived and other organizations’ messages', async () => {
    const secret = await sendToChannel(t, member, 'secret', 'hush', 'x');
    const dm = await sendDirect(t, member, [other.id], 'private');
    const old = await sendToChannel(t, member, 'old', 'gone', 'x');
    expectSuccess(await t.delete(`streams/${ch.old}`));
    for (const [as, id] of [
      [outsider, secret],
      [guest, secret],
      [outsider, dm],
      [member, old],
      [member, 999_999_999],
      [otherOwner, secret],
    ] as [Account, number][]) {
      expectError(await typing(as, id), 400, 'Invalid message(s)');
    }
  });

  it('checks op, and routes only integer ids', async () => {
    const id = await sendToChannel(t, member, 'lounge', 'ops', 'x');
    expectError(await typing(member, id, {}), 400, "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'op' });
    expectError(await typing(member, id, { op: 'go' }), 400, 'Invalid op');
    expectError(await typing(member, id, { op: 'start'.repeat(10_000) }), 400, 'Invalid op');
    expect((await typing(member, 'abc')).status).toBe(404);
    expect((await typing(member, '99999999999')).status).toBe(404);
    expectError(await t.post(`messages/${id}/typing`, { as: null, form: { op: 'start' } }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });
});
