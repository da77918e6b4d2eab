import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * PATCH /users/me/subscriptions (issue 25, Zulip's update_subscriptions_backend): the caller's
 * own subscribe (`add`, POST's defaults) and unsubscribe (`delete`) in one transaction, answered
 * with the union of both answers; any error leaves everything as it was.
 */
let t: TestApp;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser({ fullName: 'Member' });
  guest = await t.createUser({ role: 600 });
  bot = await t.createBot(member, 'subscriber');
  ids = await createChannels(t, ['alpha', 'beta', 'gamma', 'delta']);
  Object.assign(ids, await createChannels(t, ['secret'], { form: { invite_only: true } }));
  expectSuccess(await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'alpha' }, { name: 'beta' }], principals: [member.id, guest.id, bot.id] } }));
  otherOwner = await t.createOrganization('bulkother');
});
afterAll(() => t.close());

const update = (form: Record<string, unknown>, as: Account = member) => t.patch('users/me/subscriptions', { as, form });
const mine = async (as: Account = member) =>
  ((await t.get('users/me/subscriptions', { as })).body.subscriptions as { name: string }[]).map((s) => s.name).sort();
const channelCount = async () => (await t.sql(`SELECT count(*)::int AS n FROM channels`))[0].n as number;

describe('PATCH /users/me/subscriptions', () => {
  it('subscribes and unsubscribes in one request, answering both answers and telling the caller both', async () => {
    const q = await EventClient.register(t, member, { event_types: ['subscription'] });
    const res = await update({ add: [{ name: 'gamma' }, { name: 'Fresh room', color: '#ff0000', description: 'new' }, { name: 'alpha' }], delete: ['beta'] });
    expectSuccess(res);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [String(member.id)]: ['gamma', 'Fresh room'] },
      already_subscribed: { [String(member.id)]: ['alpha'] },
      new_subscription_messages_sent: expect.any(Boolean),
      removed: ['beta'],
      not_removed: [],
    });
    const now = await mine();
    expect(now).toEqual(expect.arrayContaining(['Fresh room', 'alpha', 'gamma']));
    expect(now).not.toContain('beta');
    const events = await q.ofType('subscription', 2);
    expect(events.map((e) => e.op)).toEqual(['add', 'remove']);
    expect((events[0].subscriptions as { name: string; color: string }[]).map((s) => s.name)).toEqual(['gamma', 'Fresh room']);
    expect((events[0].subscriptions as { name: string; color: string }[])[1].color).toBe('#ff0000');
  });

  it('takes either list alone, and says what it could not remove', async () => {
    const added = await update({ add: [{ name: 'delta' }] });
    expectSuccess(added, { subscribed: { [String(member.id)]: ['delta'] }, already_subscribed: {}, removed: [], not_removed: [] });
    const removed = await update({ delete: ['delta', 'beta'] });
    expectSuccess(removed, { subscribed: {}, already_subscribed: {}, removed: ['delta'], not_removed: ['beta'] });
    // A bot manages its own subscriptions too.
    expectSuccess(await update({ delete: ['alpha'], add: [{ name: 'gamma' }] }, bot), { removed: ['alpha'], subscribed: { [String(bot.id)]: ['gamma'] } });
  });

  it('needs something to do', async () => {
    for (const form of [{}, { add: [], delete: [] }, { add: [] }]) {
      expectError(await update(form), 400, 'Nothing to do. Specify at least one of "add" or "delete".');
    }
  });

  it('is all or nothing: a channel that does not exist undoes the subscriptions and the new channel', async () => {
    const before = { subs: await mine(), channels: await channelCount() };
    const q = await EventClient.register(t, member, { event_types: ['subscription', 'stream'] });
    expectError(await update({ add: [{ name: 'beta' }, { name: 'Never made' }], delete: ['gamma', 'nope'] }), 400, "Channel 'nope' does not exist", 'STREAM_DOES_NOT_EXIST', {
      stream: 'nope',
      channel_name: 'nope',
    });
    expect({ subs: await mine(), channels: await channelCount() }).toEqual(before);
    expect(await q.drain()).toEqual([]);
  });

  it('refuses a private channel the caller cannot reach, and changes nothing', async () => {
    const before = await mine();
    expectError(await update({ add: [{ name: 'secret' }], delete: ['gamma'] }), 400, 'Unable to access channel (secret).');
    expect(await mine()).toEqual(before);
  });

  it.each([
    [{ add: 'nope' }, 'add is not valid JSON'],
    [{ add: { name: 'x' } }, 'add is not a list'],
    [{ add: [{}] }, 'add[0]["name"] field is missing: Field required'],
    [{ add: [{ name: 'x', color: 'blue' }] }, 'Invalid add[0]: Value error, add.color is not a valid hex color code'],
    [{ add: [{ name: 7 }] }, 'add[0]["name"] is not a string'],
    [{ delete: 'beta' }, 'delete is not valid JSON'],
    [{ delete: [1] }, 'delete[0] is not a string'],
    // The parameters in Zulip's order: delete before add.
    [{ add: [{}], delete: [1] }, 'delete[0] is not a string'],
    [{ add: [{ name: '' }] }, 'Channel name can\'t be empty.'],
  ])('refuses %j with %s, and changes nothing', async (form, msg) => {
    const before = { subs: await mine(), channels: await channelCount() };
    expectError(await update({ delete: ['gamma'], ...form }), 400, msg);
    expect({ subs: await mine(), channels: await channelCount() }).toEqual(before);
  });

  it('refuses oversized names and descriptions, changing nothing', async () => {
    const before = { subs: await mine(), channels: await channelCount() };
    expectError(await update({ add: [{ name: 'x'.repeat(61) }], delete: ['gamma'] }), 400, 'Channel name too long (limit: 60 characters).');
    expectError(await update({ add: [{ name: 'd', description: 'x'.repeat(1025) }] }), 400, 'add[0]["description"] is too long (limit: 1024 characters)');
    expectError(await update({ delete: ['y'.repeat(61)] }), 400, 'Channel name too long (limit: 60 characters).');
    expect({ subs: await mine(), channels: await channelCount() }).toEqual(before);
  });

  it('is not for guests (the subscribe step is require_non_guest_user), even to only leave', async () => {
    expectError(await update({ delete: ['alpha'] }, guest), 400, 'Not allowed for guest users');
    expectError(await update({ add: [{ name: 'alpha' }] }, guest), 400, 'Not allowed for guest users');
    // Zulip checks for nothing to do first.
    expectError(await update({}, guest), 400, 'Nothing to do. Specify at least one of "add" or "delete".');
    expect(await mine(guest)).toEqual(expect.arrayContaining(['alpha', 'beta']));
    expectError(await t.patch('users/me/subscriptions', { as: null, form: { delete: ['alpha'] } }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });

  it('names channels of the caller’s organization only', async () => {
    const before = await mine();
    expectError(await update({ delete: ['alpha'] }, otherOwner), 400, "Channel 'alpha' does not exist", 'STREAM_DOES_NOT_EXIST', { stream: 'alpha', channel_name: 'alpha' });
    const res = await update({ add: [{ name: 'alpha' }] }, otherOwner);
    expectSuccess(res, { subscribed: { [String(otherOwner.id)]: ['alpha'] }, removed: [] });
    const theirs = (await t.get('get_stream_id', { as: otherOwner, query: { stream: 'alpha' } })).body.stream_id;
    expect(theirs).not.toBe(ids.alpha);
    expect(await mine()).toEqual(before);
  });
});
