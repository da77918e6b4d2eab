import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import { ScheduledMessageDelivery } from '../../../src/drafts/application/scheduled-message-delivery.js';
import { TypeOrmScheduledMessageRepository } from '../../../src/drafts/persistence/typeorm-scheduled-message.repository.js';
import { MessageSender } from '../../../src/messages/index.js';
import { createChannels } from '../../support/channels.js';
import { startSecondServer } from '../../support/second-server.js';
import { EventClient } from '../../support/events.js';
import { fetchNarrow } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Delivering scheduled messages (Zulip's try_deliver_one_scheduled_message and
 * send_scheduled_message): as their owner, at their time, once, through the rules and code of
 * POST /messages; refused ones are marked failed and the owner told by the Notification Bot.
 * The delivery pass is called directly with the test clock's time, as the worker would.
 */
let t: TestApp;
let db: pg.Client;
let hamlet: Account;
let othello: Account;
let iago: Account;
let verona: number;
let secret: number;
const NOW = 1_760_000_000;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000);
  hamlet = await t.createUser({ fullName: 'King Hamlet' });
  othello = await t.createUser({ fullName: 'Othello' });
  iago = await t.createUser({ fullName: 'Iago' });
  ({ Verona: verona } = await createChannels(t, ['Verona']));
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'Verona' }], principals: [hamlet.id, othello.id, iago.id] } });
  ({ secret } = await createChannels(t, ['secret'], { as: othello, form: { invite_only: true } }));
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await t.close();
});
beforeEach(async () => {
  await db.query('DELETE FROM scheduled_messages');
});

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const at = (seconds: number) => new Date(seconds * 1000);
const delivery = () => t.app.get(ScheduledMessageDelivery);
const schedule = async (form: Record<string, unknown>, as: Account = hamlet) => {
  const res = await t.post('scheduled_messages', { as, form });
  expectSuccess(res);
  return res.body.scheduled_message_id as number;
};
const toVerona = (topic: string, due: number, o: Record<string, unknown> = {}) => ({ type: 'channel', to: verona, topic, content: 'Test message', scheduled_delivery_timestamp: due, ...o });
const list = async (as: Account = hamlet) => (await t.get('scheduled_messages', { as })).body.scheduled_messages as Record<string, unknown>[];
const row = async (id: number) =>
  (await db.query('SELECT delivered, delivered_message_id, failed, failure_message FROM scheduled_messages WHERE id = $1', [id])).rows[0];
const messageOf = async (as: Account, id: number) => {
  const res = await t.get(`messages/${id}`, { as, query: { apply_markdown: false } });
  expectSuccess(res);
  return res.body.message as Record<string, unknown>;
};
const flagsOf = async (as: Account, id: number) => (await fetchNarrow(t, as, [{ operator: 'id', operand: id }]))[0].flags;
const countMessages = async (content: string) => (await db.query('SELECT count(*)::int AS n FROM messages WHERE content = $1', [content])).rows[0].n as number;
/** Notification Bot direct messages the user received, oldest first. */
const botMessages = async (as: Account) =>
  (await fetchNarrow(t, as, [{ operator: 'is', operand: 'dm' }], { apply_markdown: false })).filter((m) =>
    String((m as unknown as { sender_email: string }).sender_email).startsWith('notification-bot@'),
  );
const notice = (due: number, error: string) =>
  `The message you scheduled for <time:${new Date(due * 1000).toISOString().replace('.000Z', '+00:00')}> was not sent because of the following error:\n\n` +
  `> ${error}\n\n[View scheduled messages](#scheduled)`;

describe('delivery', () => {
  it('sends a channel message as its owner at its time, once, and tells the owner’s queues', async () => {
    const due = nowSeconds() + 3600;
    const id = await schedule(toVerona('deliver', due, { client: 'website' }));
    const later = await schedule(toVerona('deliver', due + 3600));
    const mine = await EventClient.register(t, hamlet);
    const theirs = await EventClient.register(t, othello);

    expect(await delivery().deliverDue(at(due - 1))).toBe(0);
    expect(await delivery().deliverDue(at(due + 30))).toBe(1);
    const { delivered_message_id: messageId, ...state } = await row(id);
    expect(state).toEqual({ delivered: true, failed: false, failure_message: null });
    expect(await messageOf(othello, messageId)).toMatchObject({
      id: messageId,
      sender_id: hamlet.id,
      type: 'stream',
      stream_id: verona,
      display_recipient: 'Verona',
      subject: 'deliver',
      content: 'Test message',
      timestamp: due + 30,
      client: 'website',
    });
    expect(await flagsOf(hamlet, messageId)).toEqual(['read']);
    expect(await flagsOf(othello, messageId)).toEqual([]);
    expect((await list()).map((m) => m.scheduled_message_id)).toEqual([later]);

    // The message (and, as for POST /messages, the sender's automatic follow of the topic), then the removal.
    const events = await mine.next();
    expect(events.map((e) => e.type)).toEqual(['message', 'user_topic', 'scheduled_messages']);
    expect(events[2]).toEqual({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id, id: 2 });
    expect((await theirs.next()).map((e) => [e.type, (e.message as { id: number }).id])).toEqual([['message', messageId]]);

    expect(await delivery().deliverDue(at(due + 30))).toBe(0);
    expect(await countMessages('Test message')).toBe(1);
    // Sent: it can no longer be edited, but (as in Zulip) still deleted by its owner.
    expectError(await t.patch(`scheduled_messages/${id}`, { as: hamlet, form: { content: 'New message content' } }), 400, 'Scheduled message was already sent');
    expectSuccess(await t.delete(`scheduled_messages/${id}`, { as: hamlet }));
    expect(await delivery().deliverDue(at(due + 3600))).toBe(1);
    expect(await list()).toEqual([]);
  });

  it('sends direct messages to every participant; read for the sender as read_by_sender or the client says, never to oneself alone', async () => {
    const due = nowSeconds() + 60;
    const dm = (to: number[], content: string, o: Record<string, unknown> = {}) =>
      schedule({ type: 'direct', to, content, scheduled_delivery_timestamp: due, ...o });
    const ids = [
      await dm([othello.id, iago.id], 'group from the web', { client: 'website' }),
      await dm([hamlet.id], 'to self from the web', { client: 'website' }),
      await dm([hamlet.id], 'to self, read', { read_by_sender: true }),
      await dm([othello.id], 'from a script'),
      await dm([othello.id], 'explicitly unread', { client: 'website', read_by_sender: false }),
    ];
    expect(await delivery().deliverDue(at(due))).toBe(5);
    const sent: number[] = [];
    for (const id of ids) sent.push((await row(id)).delivered_message_id);
    expect(await Promise.all(sent.map((m) => flagsOf(hamlet, m)))).toEqual([['read'], [], ['read'], [], []]);
    const group = await messageOf(iago, sent[0]);
    expect(group).toMatchObject({ type: 'private', sender_id: hamlet.id, content: 'group from the web', timestamp: due });
    expect((group.display_recipient as { id: number }[]).map((u) => u.id)).toEqual([hamlet.id, othello.id, iago.id].sort((a, b) => a - b));
    expect(await flagsOf(othello, sent[0])).toEqual([]);
    expect((await messageOf(hamlet, sent[1])).display_recipient).toEqual([expect.objectContaining({ id: hamlet.id })]);
  });

  it('sends due messages oldest first (then in id order), each dated when it is sent', async () => {
    const base = nowSeconds() + 300;
    const parts = ['First part', 'Second part', 'Third part'];
    const ids = [await schedule(toVerona('order', base + 2, { content: parts[2] })), await schedule(toVerona('order', base, { content: parts[0] })), await schedule(toVerona('order', base, { content: parts[1] }))];
    expect(await delivery().deliverDue(at(base + 60))).toBe(3);
    const messageIds: number[] = [];
    for (const id of [ids[1], ids[2], ids[0]]) messageIds.push((await row(id)).delivered_message_id);
    expect(messageIds).toEqual([...messageIds].sort((a, b) => a - b));
    expect(await Promise.all(messageIds.map(async (m) => (await messageOf(hamlet, m)).content))).toEqual(parts);
  });

  it('renders and checks the message again when it is sent', async () => {
    const due = nowSeconds() + 60;
    const id = await schedule(toVerona('mentions', due, { content: 'Welcome @**Newcomer**' }));
    expect((await list())[0].rendered_content).toBe('<p>Welcome @<strong>Newcomer</strong></p>');
    const newcomer = await t.createUser({ fullName: 'Newcomer' });
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'Verona' }], principals: [newcomer.id] } });
    expect(await delivery().deliverDue(at(due))).toBe(1);
    const messageId = (await row(id)).delivered_message_id;
    const rendered = (await t.get(`messages/${messageId}`, { as: newcomer })).body.message.content as string;
    expect(rendered).toContain(`data-user-id="${newcomer.id}"`);
    expect(await flagsOf(newcomer, messageId)).toEqual(['mentioned']);
  });

  it('marks a message failed when its owner may no longer send there: not sent, not retried, the owner told', async () => {
    const due = nowSeconds() + 60;
    const id = await schedule({ type: 'stream', to: secret, topic: 'plans', content: 'secret plans', scheduled_delivery_timestamp: due }, othello);
    expectSuccess(await t.delete('users/me/subscriptions', { as: othello, form: { subscriptions: ['secret'] } }));
    const mine = await EventClient.register(t, othello);
    const before = (await botMessages(othello)).length;

    expect(await delivery().deliverDue(at(due + 5))).toBe(1);
    const error = "Not authorized to send to channel 'secret'";
    expect(await row(id)).toEqual({ delivered: false, delivered_message_id: null, failed: true, failure_message: error });
    expect(await countMessages('secret plans')).toBe(0);
    expect(await list(othello)).toEqual([expect.objectContaining({ scheduled_message_id: id, failed: true, to: secret, topic: 'plans' })]);
    const [update, message] = await mine.next();
    expect(update).toEqual({
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: {
        scheduled_message_id: id,
        to: secret,
        type: 'stream',
        content: 'secret plans',
        rendered_content: '<p>secret plans</p>',
        topic: 'plans',
        scheduled_delivery_timestamp: due,
        failed: true,
      },
      // Heartbeats (which next() skips) may come first on a loaded machine: the first event that is not one.
      id: expect.any(Number),
    });
    expect(message).toMatchObject({ type: 'message', id: (update.id as number) + 1, message: { sender_full_name: 'Notification Bot', type: 'private' } });
    const received = (await botMessages(othello)).slice(before);
    expect(received).toEqual([expect.objectContaining({ content: notice(due, error), timestamp: due + 5, flags: [] })]);

    expect(await delivery().deliverDue(at(due + 5))).toBe(0);
    // Editing a failed message needs a new time; it is then pending again, and sent where allowed.
    expectError(await t.patch(`scheduled_messages/${id}`, { as: othello, form: { topic: 'Failed to send' } }), 400, 'Scheduled delivery time must be in the future.');
    expectError(await t.patch(`scheduled_messages/${id}`, { as: othello, form: { content: 'again', scheduled_delivery_timestamp: due + 120 } }), 400, error);
    expectSuccess(await t.patch(`scheduled_messages/${id}`, { as: othello, form: { to: verona, scheduled_delivery_timestamp: due + 120 } }));
    expect(await list(othello)).toEqual([expect.objectContaining({ scheduled_message_id: id, failed: false, to: verona, topic: 'plans' })]);
    expect(await delivery().deliverDue(at(due + 120))).toBe(1);
    expect(await row(id)).toMatchObject({ delivered: true, failed: false, failure_message: null });
    expect(await countMessages('secret plans')).toBe(1);
  });

  it('fails a message whose recipient was deactivated, telling the owner', async () => {
    const leaving = await t.createUser({ fullName: 'Leaving' });
    const due = nowSeconds() + 60;
    const id = await schedule({ type: 'direct', to: [leaving.id], content: 'bye', scheduled_delivery_timestamp: due });
    expectSuccess(await t.delete(`users/${leaving.id}`));
    const before = (await botMessages(hamlet)).length;
    expect(await delivery().deliverDue(at(due))).toBe(1);
    const error = `'${leaving.email}' is no longer using Zulip.`;
    expect(await row(id)).toMatchObject({ failed: true, failure_message: error });
    expect((await botMessages(hamlet)).slice(before).map((m) => m.content)).toEqual([notice(due, error)]);
  });

  it('fails a message more than ten minutes late (the server was down), telling the owner', async () => {
    const due = nowSeconds() + 60;
    const onTime = await schedule(toVerona('late', due, { content: 'just in time' }));
    const late = await schedule(toVerona('late', due - 1, { content: 'too late' }));
    const before = (await botMessages(hamlet)).length;
    expect(await delivery().deliverDue(at(due + 600))).toBe(2);
    expect(await row(onTime)).toMatchObject({ delivered: true, failed: false });
    const error = 'Message could not be sent at the scheduled time.';
    expect(await row(late)).toMatchObject({ delivered: false, failed: true, failure_message: error });
    expect(await countMessages('too late')).toBe(0);
    expect((await botMessages(hamlet)).slice(before).map((m) => m.content)).toEqual([notice(due - 1, error)]);
  });

  it('sends nothing for a deactivated owner or organization: failed, nobody told', async () => {
    const leaving = await t.createUser({ fullName: 'Leaving Owner' });
    const due = nowSeconds() + 60;
    const id = await schedule({ type: 'direct', to: [othello.id], content: 'from the departed', scheduled_delivery_timestamp: due }, leaving);
    expectSuccess(await t.delete(`users/${leaving.id}`));
    const closing = await t.createOrganization('closing', 'boss@closing.example.com');
    const theirs = await schedule({ type: 'direct', to: [closing.id], content: 'from the closed', scheduled_delivery_timestamp: due }, closing);
    await t.sql(`UPDATE realms SET deactivated = true WHERE string_id = 'closing'`);
    const bot = await db.query(`SELECT count(*)::int AS n FROM messages`);

    expect(await delivery().deliverDue(at(due))).toBe(2);
    expect(await row(id)).toEqual({ delivered: false, delivered_message_id: null, failed: true, failure_message: 'Account is deactivated' });
    expect(await row(theirs)).toEqual({ delivered: false, delivered_message_id: null, failed: true, failure_message: 'This organization has been deactivated' });
    expect((await db.query(`SELECT count(*)::int AS n FROM messages`)).rows[0]).toEqual(bot.rows[0]);
    expect(await delivery().deliverDue(at(due))).toBe(0);
  });

  it('undoes whatever a failed send wrote (and its events), and records the failure as Zulip’s internal error', async () => {
    const due = nowSeconds() + 60;
    const id = await schedule(toVerona('crash', due, { content: 'half sent' }));
    const theirs = await EventClient.register(t, othello);
    const sender = t.app.get(MessageSender);
    const send = sender.send.bind(sender);
    const spy = vi.spyOn(sender, 'send').mockImplementationOnce(async (...args) => {
      await send(...args);
      throw new Error('boom');
    });
    const before = (await botMessages(hamlet)).length;
    try {
      expect(await delivery().deliverDue(at(due))).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(await row(id)).toEqual({ delivered: false, delivered_message_id: null, failed: true, failure_message: 'Internal server error' });
    expect(await countMessages('half sent')).toBe(0);
    expect((await botMessages(hamlet)).slice(before).map((m) => m.content)).toEqual([notice(due, 'Internal server error')]);
    expect(await theirs.drain()).toEqual([]);
  });

  it('leaves a message pending when its transaction fails before COMMIT, goes on with the others, and sends it once on the next pass', async () => {
    const due = nowSeconds() + 60;
    const id = await schedule(toVerona('rollback', due, { content: 'sent once' }));
    const next = await schedule(toVerona('rollback', due, { content: 'not held up' }));
    const spy = vi.spyOn(TypeOrmScheduledMessageRepository.prototype, 'save').mockRejectedValueOnce(new Error('connection lost'));
    try {
      expect(await delivery().deliverDue(at(due))).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(await row(id)).toEqual({ delivered: false, delivered_message_id: null, failed: false, failure_message: null });
    expect(await countMessages('sent once')).toBe(0);
    expect(await row(next)).toMatchObject({ delivered: true });
    expect(await delivery().deliverDue(at(due))).toBe(1);
    expect(await countMessages('sent once')).toBe(1);
    expect(await row(id)).toMatchObject({ delivered: true, failed: false });
  });

  it('skips a message another transaction holds, and takes it once that one ends', async () => {
    const due = nowSeconds() + 60;
    const held = await schedule(toVerona('locks', due, { content: 'held' }));
    await schedule(toVerona('locks', due + 1, { content: 'free' }));
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM scheduled_messages WHERE id = $1 FOR UPDATE', [held]);
      expect(await delivery().deliverDue(at(due + 1))).toBe(1);
      expect((await list()).map((m) => m.scheduled_message_id)).toEqual([held]);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    expect(await delivery().deliverDue(at(due + 1))).toBe(1);
    expect(await list()).toEqual([]);
  });

  it('delivers the scheduled messages of every organization of the database', async () => {
    const outsider = await t.createOrganization('third', 'boss@third.example.com');
    const due = nowSeconds() + 60;
    const id = await schedule({ type: 'direct', to: [outsider.id], content: 'note from the third org', scheduled_delivery_timestamp: due }, outsider);
    expect(await delivery().deliverDue(at(due))).toBe(1);
    expect(await messageOf(outsider, (await row(id)).delivered_message_id)).toMatchObject({ content: 'note from the third org', sender_id: outsider.id });
  });

  describe('with a second server on the same database', () => {
    let second: NestExpressApplication;
    beforeAll(async () => {
      second = await startSecondServer(t, { REMINDER_POLL_INTERVAL_MS: '0' });
    });
    afterAll(() => second.close());

    it('never sends a scheduled message twice when both deliver at once', async () => {
      const users = [hamlet, othello, iago];
      const due = nowSeconds() + 60;
      for (let i = 0; i < 30; i += 1) {
        await schedule(toVerona('race', due + (i % 4), { content: `race ${i}` }), users[i % 3]);
      }
      const when = at(due + 10);
      const counts = await Promise.all([
        t.app.get(ScheduledMessageDelivery).deliverDue(when),
        second.get(ScheduledMessageDelivery).deliverDue(when),
        t.app.get(ScheduledMessageDelivery).deliverDue(when),
        second.get(ScheduledMessageDelivery).deliverDue(when),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      const { rows } = await db.query(
        `SELECT count(*)::int AS n, count(DISTINCT delivered_message_id)::int AS messages FROM scheduled_messages WHERE delivered AND NOT failed`,
      );
      expect(rows[0]).toEqual({ n: 30, messages: 30 });
      const sent = await db.query(`SELECT content, count(*)::int AS n FROM messages WHERE content LIKE 'race %' GROUP BY content`);
      expect(sent.rows).toHaveLength(30);
      expect(sent.rows.every((r) => r.n === 1)).toBe(true);
      for (const u of users) expect(await list(u)).toEqual([]);
    });
  });

  it('runs in the background with the reminders when a poll interval is set, and stops with the server', async () => {
    const due = nowSeconds() + 60;
    const id = await schedule(toVerona('worker', due, { content: 'from the worker' }));
    t.clock.advance(61); // the second server shares this clock
    const worker = await startSecondServer(t, { REMINDER_POLL_INTERVAL_MS: '20' });
    try {
      await vi.waitFor(async () => expect(await list()).toEqual([]), { timeout: 5000, interval: 20 });
      expect(await row(id)).toMatchObject({ delivered: true });
      expect(await countMessages('from the worker')).toBe(1);
    } finally {
      await worker.close();
    }
  });
});
