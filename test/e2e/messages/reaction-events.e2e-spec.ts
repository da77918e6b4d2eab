import type { AddressInfo } from 'node:net';
import zulip from 'zulip-js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { message, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** The `reaction` events of POST/DELETE /messages/{id}/reactions, their audience, and zulip-js. */

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let guest: Account;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' }); // subscribed to nothing
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  await createChannels(t, ['lounge']);
  await createChannels(t, ['vault'], { form: { invite_only: true, history_public_to_subscribers: false } });
  await createChannels(t, ['club'], { form: { invite_only: true, history_public_to_subscribers: true } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [alice.id, bob.id, guest.id] } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'vault' }, { name: 'club' }], principals: [alice.id] } });
});
afterAll(() => t.close());

const react = (id: number, form: Record<string, unknown>, as: Account) => t.post(`messages/${id}/reactions`, { as, form });
const unreact = (id: number, form: Record<string, unknown>, as: Account) => t.delete(`messages/${id}/reactions`, { as, form });
const named = (a: Account, fullName: string) => ({ user_id: a.id, email: a.email, full_name: fullName });
const reactionEvent = (op: 'add' | 'remove', by: Account, fullName: string, messageId: number, emoji = { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }) => ({
  type: 'reaction',
  op,
  user_id: by.id,
  user: named(by, fullName),
  message_id: messageId,
  ...emoji,
});

/** Registers a queue per account for reaction events; after `act`, returns who got which events (ids dropped). */
async function heard(accounts: Account[], act: () => Promise<void>): Promise<Map<number, Record<string, unknown>[]>> {
  const queues = await Promise.all(accounts.map((a) => EventClient.register(t, a, { event_types: ['reaction'] })));
  await act();
  // a last event everyone hears marks the end of what the act caused
  const marker = await sendDirect(t, t.owner, accounts.map((a) => a.id), 'marker');
  expectSuccess(await react(marker, { emoji_name: 'zulip' }, t.owner));
  const out = new Map<number, Record<string, unknown>[]>();
  for (const q of queues) {
    const got: Record<string, unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      const batch = (await q.next()).map(({ id: _id, ...e }) => e);
      got.push(...batch);
      if (got.some((e) => e.message_id === marker)) break;
    }
    out.set(q.as.id, got.filter((e) => e.message_id !== marker));
  }
  return out;
}

describe('reaction events', () => {
  it('go to the participants of a direct message with Zulip’s shape, for adding and removing', async () => {
    const dm = await sendDirect(t, alice, [bob.id], 'psst');
    const got = await heard([alice, bob, carol], async () => {
      expectSuccess(await react(dm, { emoji_name: 'thumbs_up' }, bob));
      expectSuccess(await unreact(dm, { emoji_name: 'thumbs_up' }, bob));
    });
    const expected = [reactionEvent('add', bob, 'Bob', dm), reactionEvent('remove', bob, 'Bob', dm)];
    expect(got.get(alice.id)).toEqual(expected);
    expect(got.get(bob.id)).toEqual(expected);
    expect(got.get(carol.id)).toEqual([]);
  });

  it('carry the stored reaction: a vote’s first name, a removed reaction’s stored name', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'events', 'names');
    const got = await heard([alice], async () => {
      expectSuccess(await react(id, { emoji_name: '+1' }, bob));
      expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, alice));
      expectSuccess(await unreact(id, { emoji_name: 'anything', emoji_code: '1f44d' }, alice));
      expectSuccess(await react(id, { emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' }, alice));
    });
    const plusOne = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    expect(got.get(alice.id)).toEqual([
      reactionEvent('add', bob, 'Bob', id, plusOne),
      reactionEvent('add', alice, 'Alice', id, plusOne),
      reactionEvent('remove', alice, 'Alice', id, plusOne),
      reactionEvent('add', alice, 'Alice', id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }),
    ]);
  });

  it('in a public channel go to subscribers and to non-guests holding a row (who reacted without subscribing), not to other users', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'events', 'public');
    let got = await heard([alice, bob, guest, carol], async () => {
      expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, bob));
    });
    expect(got.get(alice.id)).toEqual([reactionEvent('add', bob, 'Bob', id)]);
    expect(got.get(bob.id)).toEqual([reactionEvent('add', bob, 'Bob', id)]);
    expect(got.get(guest.id)).toEqual([reactionEvent('add', bob, 'Bob', id)]);
    expect(got.get(carol.id)).toEqual([]);
    // carol reacts from the channel's history: she now holds a row and hears about the message
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, carol));
    // the guest leaves: a guest's old row does not give access to a public channel
    expectSuccess(await t.delete('users/me/subscriptions', { form: { subscriptions: ['lounge'], principals: [guest.id] } }));
    got = await heard([alice, guest, carol], async () => {
      expectSuccess(await unreact(id, { emoji_name: 'thumbs_up' }, bob));
    });
    expect(got.get(carol.id)).toEqual([reactionEvent('remove', bob, 'Bob', id)]);
    expect(got.get(alice.id)).toEqual([reactionEvent('remove', bob, 'Bob', id)]);
    expect(got.get(guest.id)).toEqual([]);
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }], principals: [guest.id] } });
  });

  it('with protected history go to subscribers who received the message; with shared history to every subscriber', async () => {
    const vaultOld = await sendToChannel(t, alice, 'vault', 'events', 'before bob');
    const clubOld = await sendToChannel(t, alice, 'club', 'events', 'before bob');
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'vault' }, { name: 'club' }], principals: [bob.id] } });
    const vaultNew = await sendToChannel(t, alice, 'vault', 'events', 'after bob');
    const got = await heard([alice, bob, carol], async () => {
      expectSuccess(await react(vaultOld, { emoji_name: 'thumbs_up' }, alice));
      expectSuccess(await react(vaultNew, { emoji_name: 'thumbs_up' }, alice));
      expectSuccess(await react(clubOld, { emoji_name: 'thumbs_up' }, alice));
    });
    expect(got.get(alice.id)).toEqual([reactionEvent('add', alice, 'Alice', vaultOld), reactionEvent('add', alice, 'Alice', vaultNew), reactionEvent('add', alice, 'Alice', clubOld)]);
    expect(got.get(bob.id)).toEqual([reactionEvent('add', alice, 'Alice', vaultNew), reactionEvent('add', alice, 'Alice', clubOld)]);
    expect(got.get(carol.id)).toEqual([]);
  });

  it('are not sent for a refused request, nor to queues that did not ask for them', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'events', 'refusals');
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, alice));
    const messagesOnly = await EventClient.register(t, bob, { event_types: ['message'] });
    const got = await heard([alice, bob], async () => {
      expectError(await react(id, { emoji_name: 'thumbs_up' }, alice), 400, 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
      expectError(await unreact(id, { emoji_name: 'green_tick' }, alice), 400, "Emoji 'green_tick' does not exist");
      expectError(await unreact(id, { emoji_name: 'hamburger' }, bob), 400, "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      expectSuccess(await react(id, { emoji_name: 'hamburger' }, bob));
    });
    const hamburger = { emoji_name: 'hamburger', emoji_code: '1f354', reaction_type: 'unicode_emoji' };
    expect(got.get(alice.id)).toEqual([reactionEvent('add', bob, 'Bob', id, hamburger)]);
    expect((await messagesOnly.drain()).filter((e) => e.type === 'reaction')).toEqual([]);
  });

  it('leave the message event of a new message with no reactions', async () => {
    const q = await EventClient.register(t, bob, { event_types: ['message'] });
    const id = await sendToChannel(t, alice, 'lounge', 'events', 'brand new');
    const [event] = await q.ofType('message');
    expect(event.message).toMatchObject({ id, reactions: [] });
  });
});

describe('zulip-js', () => {
  it('adds and removes reactions through reactions.add, reactions.remove and messages.deleteReactionById', async () => {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    // zulip-js's reaction methods are not in the local type declarations
    type Call = (p: Record<string, unknown>) => Promise<Record<string, unknown>>;
    const client = (await zulip({ username: bob.email, apiKey: bob.apiKey, realm: `http://127.0.0.1:${port}` })) as unknown as {
      reactions: { add: Call; remove: Call };
      messages: { deleteReactionById: Call };
    };
    const id = await sendToChannel(t, alice, 'lounge', 'zulip-js', 'from a real client');
    expect(await client.reactions.add({ message_id: id, emoji_name: 'thumbs_up' })).toEqual({ result: 'success', msg: '' });
    expect(await client.reactions.add({ message_id: id, emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' })).toEqual({ result: 'success', msg: '' });
    expect(await client.reactions.add({ message_id: id, emoji_name: 'thumbs_up' })).toEqual({ result: 'error', msg: 'Reaction already exists.', code: 'REACTION_ALREADY_EXISTS' });
    expect((await message(t, alice, id)).reactions).toEqual([
      { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: bob.id },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji', user_id: bob.id },
    ]);
    expect(await client.reactions.remove({ message_id: id, emoji_name: 'thumbs_up' })).toEqual({ result: 'success', msg: '' });
    expect(await client.messages.deleteReactionById({ message_id: id, emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' })).toEqual({ result: 'success', msg: '' });
    expect(await client.reactions.remove({ message_id: id, emoji_name: 'thumbs_up' })).toEqual({ result: 'error', msg: "Reaction doesn't exist.", code: 'REACTION_DOES_NOT_EXIST' });
    expect((await message(t, alice, id)).reactions).toEqual([]);
  });
});

describe('with ZULIP_CLIENT_COMPAT off', () => {
  it('takes only the neutral svc_extra_emoji', async () => {
    const neutral = await TestApp.start({ ZULIP_CLIENT_COMPAT: 'false' });
    try {
      await createChannels(neutral, ['compat']);
      const id = await sendToChannel(neutral, undefined, 'compat', 'compat', 'neutral');
      const zulipType = { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
      expectError(await neutral.post(`messages/${id}/reactions`, { form: zulipType }), 400, 'Invalid emoji type.');
      expectSuccess(await neutral.post(`messages/${id}/reactions`, { form: { ...zulipType, reaction_type: 'svc_extra_emoji' } }));
      expectError(await neutral.delete(`messages/${id}/reactions`, { form: zulipType }), 400, "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      expectSuccess(await neutral.delete(`messages/${id}/reactions`, { form: { ...zulipType, reaction_type: 'svc_extra_emoji' } }));
    } finally {
      await neutral.close();
    }
  });
});
