import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import { DomainError } from '@app/domain/shared';
import { RemindersService } from '../../../src/drafts/application/reminders.service.js';
import { NotificationBot } from '../../../src/messages/index.js';
import { createChannels } from '../../support/channels.js';
import { startSecondServer } from '../../support/second-server.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let db: pg.Client;
let member: Account;
let other: Account;
let guest: Account;
let admin: Account;
let verona: number;
let secret: number;
const NOW = 1_760_000_000;
const DAY = 86_400;
const REALM = 'http://chat.example.com';

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000);
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  ({ Verona: verona } = await createChannels(t, ['Verona']));
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'Verona' }], principals: [member.id, other.id, admin.id] } });
  ({ secret } = await createChannels(t, ['secret'], { as: member, form: { invite_only: true } }));
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const remind = (as: Account, form: Record<string, unknown>) => t.post('reminders', { as, form });
const list = async (as: Account) => {
  const res = await t.get('reminders', { as });
  expect(res.status).toBe(200);
  return res.body.reminders as Record<string, unknown>[];
};
const service = () => t.app.get(RemindersService);
/** Notification Bot direct messages the user received, oldest first. */
const botMessages = async (as: Account) => {
  const res = await t.get('messages', {
    as,
    query: { anchor: 'oldest', num_before: 0, num_after: 1000, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as Record<string, unknown>[]).filter((m) => String(m.sender_email).startsWith('notification-bot@'));
};
const said = (a: { id: number; name: string }, url: string, quoted: string) => `@_**${a.name}|${a.id}** [said](${url}):\n\`\`\`quote\n${quoted}\n\`\`\``;

describe('POST /reminders', () => {
  it('schedules a reminder for a channel message, listed with Zulip’s reminder shape', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'test', 'Test message');
    const res = await remind(member, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY });
    expectSuccess(res);
    expect(Object.keys(res.body).sort()).toEqual(['msg', 'reminder_id', 'result']);
    const content =
      `You requested a reminder for #**Verona>test@${msg}**.\n\n` +
      said({ id: member.id, name: 'Member' }, `${REALM}/#narrow/channel/${verona}-Verona/topic/test/near/${msg}`, 'Test message');
    const reminders = await list(member);
    expect(reminders).toEqual([
      {
        reminder_id: res.body.reminder_id,
        type: 'private',
        to: [member.id],
        content,
        rendered_content: expect.stringContaining(`<span class="user-mention silent" data-user-id="${member.id}">Member</span>`),
        scheduled_delivery_timestamp: NOW + DAY,
        failed: false,
        reminder_target_message_id: msg,
      },
    ]);
    expect(reminders[0].rendered_content).toMatch(/^<p>You requested a reminder for/);
    expect(await list(other)).toEqual([]);
    await t.delete(`reminders/${res.body.reminder_id}`, { as: member });
  });

  it('quotes direct messages with a link to the conversation, and adds the note', async () => {
    const msg = await sendDirect(t, member, [other.id], 'See you at 5');
    const ids = [member.id, other.id].sort((a, b) => a - b).join(',');
    const url = `${REALM}/#narrow/dm/${ids}/near/${msg}`;
    const a = await remind(other, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY, note: '\n\nbring the slides  \n' });
    expectSuccess(a);
    const [r] = await list(other);
    expect(r.content).toBe(
      `You requested a reminder for the following direct message. Note:\n > bring the slides\n\n${said({ id: member.id, name: 'Member' }, url, 'See you at 5')}`,
    );
    const self = await sendDirect(t, member, [member.id], 'note to self');
    expectSuccess(await remind(member, { message_id: self, scheduled_delivery_timestamp: NOW + DAY, note: '   ' }));
    const [s] = await list(member);
    expect(s.content).toBe(
      `You requested a reminder for the following direct message.\n\n${said({ id: member.id, name: 'Member' }, `${REALM}/#narrow/dm/${member.id}/near/${self}`, 'note to self')}`,
    );
    await t.delete(`reminders/${a.body.reminder_id}`, { as: other });
    await t.delete(`reminders/${s.reminder_id}`, { as: member });
  });

  it('lists one’s reminders by delivery time', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'order', 'x');
    const late = (await remind(member, { message_id: msg, scheduled_delivery_timestamp: NOW + 3 * DAY })).body.reminder_id;
    const early = (await remind(member, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY })).body.reminder_id;
    expect((await list(member)).map((r) => r.reminder_id)).toEqual([early, late]);
    for (const id of [early, late]) expectSuccess(await t.delete(`reminders/${id}`, { as: member }));
  });

  it.each([
    [{ scheduled_delivery_timestamp: NOW + DAY }, "Missing 'message_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'message_id' }],
    [{ message_id: 1 }, "Missing 'scheduled_delivery_timestamp' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'scheduled_delivery_timestamp' }],
    [{}, "Missing 'message_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'message_id' }],
    [{ message_id: 'abc', scheduled_delivery_timestamp: NOW + DAY }, 'message_id is not valid JSON', 'BAD_REQUEST', {}],
    [{ message_id: '"1"', scheduled_delivery_timestamp: NOW + DAY }, 'message_id is not an integer', 'BAD_REQUEST', {}],
    [{ message_id: 1, scheduled_delivery_timestamp: `${NOW + DAY}.5` }, 'scheduled_delivery_timestamp is not an integer', 'BAD_REQUEST', {}],
    [{ message_id: 1, scheduled_delivery_timestamp: 'tomorrow' }, 'scheduled_delivery_timestamp is not valid JSON', 'BAD_REQUEST', {}],
  ])('refuses malformed parameters %j', async (form, msg, code, extra) => {
    expectError(await remind(member, form), 400, msg, code, extra);
  });

  it('wants a delivery time strictly in the future, checked before the message', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'time', 'x');
    const past = 'Scheduled delivery time must be in the future.';
    expectError(await remind(member, { message_id: msg, scheduled_delivery_timestamp: nowSeconds() }), 400, past);
    expectError(await remind(member, { message_id: msg, scheduled_delivery_timestamp: nowSeconds() - DAY }), 400, past);
    expectError(await remind(member, { message_id: msg, scheduled_delivery_timestamp: -5 }), 400, past);
    expectError(await remind(member, { message_id: 999_999, scheduled_delivery_timestamp: nowSeconds() - 1 }), 400, past);
    expectError(await remind(member, { message_id: msg, scheduled_delivery_timestamp: 253_402_300_800 }), 400, 'scheduled_delivery_timestamp is too large');
    expectSuccess(await remind(member, { message_id: msg, scheduled_delivery_timestamp: nowSeconds() + 1 }));
    expect(await list(member)).toHaveLength(1);
    await db.query('DELETE FROM reminders');
  });

  it('needs a message the caller can read', async () => {
    const invalid = 'Invalid message(s)';
    const at = NOW + DAY;
    const inSecret = await sendToChannel(t, member, secret, 'plans', 'secret plans');
    const theirDm = await sendDirect(t, member, [other.id], 'between us');
    expectError(await remind(member, { message_id: 999_999, scheduled_delivery_timestamp: at }), 400, invalid);
    expectError(await remind(member, { message_id: 2 ** 40, scheduled_delivery_timestamp: at }), 400, invalid);
    expectError(await remind(member, { message_id: -1, scheduled_delivery_timestamp: at }), 400, invalid);
    // Private channel content: not for non-subscribers, administrators included.
    expectError(await remind(other, { message_id: inSecret, scheduled_delivery_timestamp: at }), 400, invalid);
    expectError(await remind(t.owner, { message_id: inSecret, scheduled_delivery_timestamp: at }), 400, invalid);
    expectError(await remind(admin, { message_id: theirDm, scheduled_delivery_timestamp: at }), 400, invalid);
    expectError(await remind(guest, { message_id: theirDm, scheduled_delivery_timestamp: at }), 400, invalid);
    // Access is checked before the note.
    expectError(await remind(other, { message_id: inSecret, scheduled_delivery_timestamp: at, note: 'x'.repeat(1001) }), 400, invalid);
    for (const as of [other, guest, admin, t.owner]) expect(await list(as)).toEqual([]);
  });

  it('limits notes to 1000 characters after trimming', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'notes', 'x');
    const at = NOW + DAY;
    expectError(await remind(member, { message_id: msg, scheduled_delivery_timestamp: at, note: 'x'.repeat(1001) }), 400, 'Maximum reminder note length: 1000 characters');
    expectError(await remind(member, { message_id: msg, scheduled_delivery_timestamp: at, note: 'a\0b' }), 400, 'Message must not contain null bytes');
    expectSuccess(await remind(member, { message_id: msg, scheduled_delivery_timestamp: at, note: `${'😀'.repeat(1000)}\n \n` }));
    const [r] = await list(member);
    expect(r.content).toContain(`Note:\n > ${'😀'.repeat(1000)}\n\n`);
    await db.query('DELETE FROM reminders');
  });

  it('is open to every role and to bots, for messages they can read', async () => {
    const bot = await t.createBot(member, 'remindme');
    const inVerona = await sendToChannel(t, member, 'Verona', 'roles', 'public');
    const toGuest = await sendDirect(t, member, [guest.id], 'hi guest');
    const toBot = await sendDirect(t, member, [bot.id], 'hi bot');
    for (const [as, msg] of [
      [t.owner, inVerona],
      [admin, inVerona],
      [other, inVerona],
      [guest, toGuest],
      [bot, toBot],
    ] as const) {
      const res = await remind(as, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY });
      expectSuccess(res);
      expect(await list(as)).toEqual([expect.objectContaining({ reminder_id: res.body.reminder_id, to: [as.id], reminder_target_message_id: msg })]);
    }
    // A guest does not see public channels it is not subscribed to.
    expectError(await remind(guest, { message_id: inVerona, scheduled_delivery_timestamp: NOW + DAY }), 400, 'Invalid message(s)');
    // Public channel history is readable without a subscription.
    const unsubscribed = await t.createUser({ fullName: 'Newcomer' });
    expectSuccess(await remind(unsubscribed, { message_id: inVerona, scheduled_delivery_timestamp: NOW + DAY }));
    await db.query('DELETE FROM reminders');
  });

  it('rejects unauthenticated calls', async () => {
    for (const [method, path] of [['get', 'reminders'], ['post', 'reminders'], ['delete', 'reminders/1']] as const) {
      const res = await t.call(method, path, { as: null });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
  });
});

describe('DELETE /reminders/{id}', () => {
  it('cancels one’s own reminder once; others’ reminders do not exist for the caller', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'delete', 'x');
    const id = (await remind(member, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY })).body.reminder_id;
    for (const as of [other, t.owner, admin, guest]) {
      expectError(await t.delete(`reminders/${id}`, { as }), 404, 'Reminder does not exist');
    }
    expect(await list(member)).toHaveLength(1);
    const res = await t.delete(`reminders/${id}`, { as: member });
    expectSuccess(res);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await list(member)).toEqual([]);
    expectError(await t.delete(`reminders/${id}`, { as: member }), 404, 'Reminder does not exist');
    expectError(await t.delete('reminders/999999', { as: member }), 404, 'Reminder does not exist');
    expectError(await t.delete('reminders/abc', { as: member }), 404, 'Not Found', 'NOT_FOUND');
  });
});

describe('organizations', () => {
  it('keep their messages and reminders apart', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'orgs', 'x');
    const id = (await remind(member, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY })).body.reminder_id;
    const outsider = await t.createOrganization('elsewhere', 'boss@elsewhere.example.com');
    expectError(await remind(outsider, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY }), 400, 'Invalid message(s)');
    expectError(await t.delete(`reminders/${id}`, { as: outsider }), 404, 'Reminder does not exist');
    expect(await list(outsider)).toEqual([]);
    const own = await sendDirect(t, outsider, [outsider.id], 'mine');
    expectSuccess(await remind(outsider, { message_id: own, scheduled_delivery_timestamp: NOW + DAY }));
    const [r] = await list(outsider);
    expect(r.content).toContain(`(http://elsewhere.chat.example.com/#narrow/dm/${outsider.id}/near/${own})`);
    expect(await list(member)).toEqual([expect.objectContaining({ reminder_id: id })]);
    await db.query('DELETE FROM reminders');
  });
});

describe('POST /register', () => {
  it('has the undelivered reminders of the user in `reminders`', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'register', 'x');
    await remind(member, { message_id: msg, scheduled_delivery_timestamp: NOW + DAY });
    const res = await t.post('register', { as: member, form: { fetch_event_types: ['reminders'] } });
    expectSuccess(res);
    expect(res.body.reminders).toEqual(await list(member));
    expect(res.body.reminders).toHaveLength(1);
    const theirs = await t.post('register', { as: other, form: { fetch_event_types: ['reminders'] } });
    expect(theirs.body.reminders).toEqual([]);
    const all = await t.post('register', { as: member });
    expect(all.body.reminders).toHaveLength(1);
    expect(all.body.max_reminder_note_length).toBe(1000);
    const without = await t.post('register', { as: member, form: { fetch_event_types: ['realm_emoji'] } });
    expect(without.body).not.toHaveProperty('reminders');
    await db.query('DELETE FROM reminders');
  });
});

describe('delivery', () => {
  beforeEach(async () => {
    await db.query('DELETE FROM reminders');
  });

  it('sends the Notification Bot’s direct message at the scheduled time, once', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'deliver', 'Test content');
    const due = nowSeconds() + 3600;
    const id = (await remind(other, { message_id: msg, scheduled_delivery_timestamp: due, note: 'check this' })).body.reminder_id;
    const later = (await remind(other, { message_id: msg, scheduled_delivery_timestamp: due + 3600 })).body.reminder_id;
    const before = (await botMessages(other)).length;

    expect(await service().deliverDue(new Date((due - 1) * 1000))).toBe(0);
    expect(await service().deliverDue(new Date(due * 1000 + 500))).toBe(1);
    const received = (await botMessages(other)).slice(before);
    expect(received).toEqual([
      expect.objectContaining({
        type: 'private',
        content:
          `You requested a reminder for #**Verona>deliver@${msg}**. Note:\n > check this\n\n` +
          said({ id: member.id, name: 'Member' }, `${REALM}/#narrow/channel/${verona}-Verona/topic/deliver/near/${msg}`, 'Test content'),
        timestamp: due,
        client: 'Internal',
        sender_full_name: 'Notification Bot',
        flags: [],
      }),
    ]);
    expect((received[0].display_recipient as { id: number; full_name: string }[]).map((u) => u.full_name).sort()).toEqual(['Notification Bot', 'Other']);
    expect((await list(other)).map((r) => r.reminder_id)).toEqual([later]);
    const row = (await db.query('SELECT delivered, delivered_message_id FROM reminders WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ delivered: true, delivered_message_id: received[0].id });

    expect(await service().deliverDue(new Date(due * 1000 + 500))).toBe(0);
    expect((await botMessages(other)).length).toBe(before + 1);
    expectError(await t.delete(`reminders/${later}`, { as: member }), 404, 'Reminder does not exist');
    expect(await service().deliverDue(new Date((due + 3600) * 1000))).toBe(1);
    expect((await botMessages(other)).length).toBe(before + 2);
    expect(await list(other)).toEqual([]);
    // As Zulip's access_reminder: a delivered reminder of one's own can still be deleted.
    expectSuccess(await t.delete(`reminders/${id}`, { as: other }));
    expectError(await t.delete(`reminders/${id}`, { as: other }), 404, 'Reminder does not exist');
  });

  it('shows the message as it is at delivery, or as it was when it can no longer be read', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'changing', 'first version');
    const due = nowSeconds() + 60;
    await remind(other, { message_id: msg, scheduled_delivery_timestamp: due });
    expectSuccess(await t.patch(`messages/${msg}`, { as: member, form: { content: 'second version', topic: 'changed' } }));
    const gone = await sendDirect(t, member, [other.id], 'soon deleted');
    await remind(other, { message_id: gone, scheduled_delivery_timestamp: due });
    const stored = (await list(other))[1].content;
    expectSuccess(await t.delete(`messages/${gone}`, { as: member }));
    const before = (await botMessages(other)).length;

    expect(await service().deliverDue(new Date(due * 1000))).toBe(2);
    const [edited, deleted] = (await botMessages(other)).slice(before);
    expect(edited.content).toBe(
      `You requested a reminder for #**Verona>changed@${msg}**.\n\n` +
        said({ id: member.id, name: 'Member' }, `${REALM}/#narrow/channel/${verona}-Verona/topic/changed/near/${msg}`, 'second version'),
    );
    expect(deleted.content).toBe(stored);
  });

  it('delivers nothing to a deactivated owner, and does not try again', async () => {
    const leaving = await t.createUser({ fullName: 'Leaving' });
    const msg = await sendToChannel(t, member, 'Verona', 'leaving', 'x');
    const due = nowSeconds() + 60;
    const id = (await remind(leaving, { message_id: msg, scheduled_delivery_timestamp: due })).body.reminder_id;
    expectSuccess(await t.delete(`users/${leaving.id}`));
    expect(await service().deliverDue(new Date(due * 1000))).toBe(1);
    const row = (await db.query('SELECT delivered, delivered_message_id, failed FROM reminders WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ delivered: true, delivered_message_id: null, failed: false });
    expect(await service().deliverDue(new Date(due * 1000))).toBe(0);
  });

  it('marks a reminder failed when delivery fails: listed as failed, not retried', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'failing', 'x');
    const due = nowSeconds() + 60;
    const crash = (await remind(other, { message_id: msg, scheduled_delivery_timestamp: due })).body.reminder_id;
    const refused = (await remind(other, { message_id: msg, scheduled_delivery_timestamp: due + 1 })).body.reminder_id;
    const before = (await botMessages(other)).length;
    const spy = vi
      .spyOn(t.app.get(NotificationBot), 'postDirectNotice')
      .mockRejectedValueOnce(new Error('boom'))
      .mockRejectedValueOnce(new DomainError('Not today'));
    try {
      expect(await service().deliverDue(new Date((due + 1) * 1000))).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(await list(other)).toEqual([
      expect.objectContaining({ reminder_id: crash, failed: true }),
      expect.objectContaining({ reminder_id: refused, failed: true }),
    ]);
    const { rows } = await db.query('SELECT failure_message, delivered FROM reminders ORDER BY id');
    expect(rows).toEqual([
      { failure_message: 'Internal server error', delivered: false },
      { failure_message: 'Not today', delivered: false },
    ]);
    expect(await service().deliverDue(new Date((due + 1) * 1000))).toBe(0);
    expect((await botMessages(other)).length).toBe(before);
    expectSuccess(await t.delete(`reminders/${crash}`, { as: other }));
  });

  it('delivers reminders of every organization of the database', async () => {
    const outsider = await t.createOrganization('third', 'boss@third.example.com');
    const own = await sendDirect(t, outsider, [outsider.id], 'mine');
    const due = nowSeconds() + 60;
    await remind(outsider, { message_id: own, scheduled_delivery_timestamp: due });
    expect(await service().deliverDue(new Date(due * 1000))).toBe(1);
    const received = await botMessages(outsider);
    expect(received).toHaveLength(1);
    expect(received[0].content).toContain(`(http://third.chat.example.com/#narrow/dm/${outsider.id}/near/${own})`);
    expect(await list(outsider)).toEqual([]);
  });

  it('skips a reminder another transaction holds, and takes it once that one ends', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'locks', 'x');
    const due = nowSeconds() + 60;
    const held = (await remind(other, { message_id: msg, scheduled_delivery_timestamp: due })).body.reminder_id;
    await remind(other, { message_id: msg, scheduled_delivery_timestamp: due + 1 });
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM reminders WHERE id = $1 FOR UPDATE', [held]);
      expect(await service().deliverDue(new Date((due + 1) * 1000))).toBe(1);
      expect((await list(other)).map((r) => r.reminder_id)).toEqual([held]);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    expect(await service().deliverDue(new Date((due + 1) * 1000))).toBe(1);
    expect(await list(other)).toEqual([]);
  });

  describe('with a second server on the same database', () => {
    let second: NestExpressApplication;
    beforeAll(async () => {
      second = await startSecondServer(t, { REMINDER_POLL_INTERVAL_MS: '0' });
    });
    afterAll(() => second.close());

    it('never delivers a reminder twice when both deliver at once', async () => {
      const users = [member, other, admin];
      const msg = await sendToChannel(t, member, 'Verona', 'race', 'x');
      const due = nowSeconds() + 60;
      const before = new Map<number, number>();
      for (const u of users) before.set(u.id, (await botMessages(u)).length);
      for (let i = 0; i < 30; i += 1) {
        expectSuccess(await remind(users[i % 3], { message_id: msg, scheduled_delivery_timestamp: due + (i % 4) }));
      }
      const at = new Date((due + 10) * 1000);
      const counts = await Promise.all([
        t.app.get(RemindersService).deliverDue(at),
        second.get(RemindersService).deliverDue(at),
        t.app.get(RemindersService).deliverDue(at),
        second.get(RemindersService).deliverDue(at),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      for (const u of users) {
        expect((await botMessages(u)).length - before.get(u.id)!).toBe(10);
        expect(await list(u)).toEqual([]);
      }
      const { rows } = await db.query(
        'SELECT count(*)::int AS n, count(DISTINCT delivered_message_id)::int AS messages FROM reminders WHERE delivered',
      );
      expect(rows[0]).toEqual({ n: 30, messages: 30 });
    });
  });

  it('runs in the background when a poll interval is set, and stops with the server', async () => {
    const msg = await sendToChannel(t, member, 'Verona', 'worker', 'x');
    const due = nowSeconds() + 60;
    await remind(other, { message_id: msg, scheduled_delivery_timestamp: due });
    const before = (await botMessages(other)).length;
    t.clock.advance(61); // the second server shares this clock
    const worker = await startSecondServer(t, { REMINDER_POLL_INTERVAL_MS: '20' });
    try {
      await vi.waitFor(async () => expect(await list(other)).toEqual([]), { timeout: 5000, interval: 20 });
      expect((await botMessages(other)).length).toBe(before + 1);
    } finally {
      await worker.close();
    }
  });
});
