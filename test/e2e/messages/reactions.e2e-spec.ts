import { DataSource } from 'typeorm';
import { RealmEmojiService } from '../../../src/emoji/application/realm-emoji.service.js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { CredentialCache } from '../../../src/users/application/credential-cache.js';
import { createChannels } from '../../support/channels.js';
import { fetchNarrow, message, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** POST and DELETE /messages/{id}/reactions, and reactions on message objects. */

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let guest: Account;
let otherOwner: Account;
let realmId: number;
let greenTick: number;
let oldLogo: number;
let otherMessage: number;

const db = () => t.app.get(DataSource);
const addEmoji = (realm: number, name: string) =>
  t.app.get(RealmEmojiService).addRealmEmoji({ realmId: realm, authorId: null, name, fileName: (id) => `e${id}.png` });

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' }); // subscribed to nothing
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  otherOwner = await t.createOrganization('other');
  await createChannels(t, ['lounge', 'attic']);
  await createChannels(t, ['secret'], { form: { invite_only: true, history_public_to_subscribers: false } });
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'lounge' }, { name: 'attic' }], principals: [alice.id, bob.id, guest.id] } });
  [{ realm_id: realmId }] = await db().query('SELECT realm_id FROM users WHERE id = $1', [alice.id]);
  greenTick = await addEmoji(realmId, 'green_tick');
  oldLogo = await addEmoji(realmId, 'old_logo');
  await t.app.get(RealmEmojiService).deactivateRealmEmoji(realmId, 'old_logo');
  const [{ realm_id: otherRealm }] = await db().query('SELECT realm_id FROM users WHERE id = $1', [otherOwner.id]);
  await addEmoji(otherRealm, 'other_tick');
  expectSuccess(await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  otherMessage = await sendToChannel(t, otherOwner, 'elsewhere', 'hi', 'in another organization');
});
afterAll(() => t.close());

const react = (id: number, form: Record<string, unknown>, as: Account = alice) => t.post(`messages/${id}/reactions`, { as, form });
const unreact = (id: number, form: Record<string, unknown>, as: Account = alice) => t.delete(`messages/${id}/reactions`, { as, form });
const reactionsOn = async (id: number, as: Account = alice) => (await message(t, as, id)).reactions;
const storedCount = async (id: number) => (await db().query('SELECT count(*)::int AS n FROM reactions WHERE message_id = $1', [id]))[0].n;
const thumbs = (userId: number, name = 'thumbs_up') => ({ emoji_name: name, emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: userId });

describe('POST /messages/{id}/reactions', () => {
  it('adds a reaction by name and answers with the bare envelope; message objects list it', async () => {
    const id = await sendToChannel(t, bob, 'lounge', 'adding', 'react to me');
    const res = await react(id, { emoji_name: 'thumbs_up' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(id)).toEqual([thumbs(alice.id)]);
    // GET /messages shows the same, for every reader
    const [fetched] = await fetchNarrow(t, bob, [{ operator: 'id', operand: id }]);
    expect((fetched as unknown as { reactions: unknown[] }).reactions).toEqual([thumbs(alice.id)]);
  });

  it('takes the code and type when sent, keeps a non-canonical name, and lists reactions oldest first', async () => {
    const id = await sendToChannel(t, bob, 'lounge', 'adding', 'many reactions');
    expectSuccess(await react(id, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    expectSuccess(await react(id, { emoji_name: 'green_tick' }, bob));
    expectSuccess(await react(id, { emoji_name: 'zulip' }, bob));
    expectSuccess(await react(id, { emoji_name: 'car', emoji_code: '1f697' }));
    expect(await reactionsOn(id, bob)).toEqual([
      thumbs(alice.id, '+1'),
      { emoji_name: 'green_tick', emoji_code: String(greenTick), reaction_type: 'realm_emoji', user_id: bob.id },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji', user_id: bob.id },
      { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji', user_id: alice.id },
    ]);
  });

  it('reads Zulip’s zulip_extra_emoji as svc_extra_emoji (ZULIP_CLIENT_COMPAT on by default)', async () => {
    const id = await sendToChannel(t, bob, 'lounge', 'adding', 'extra');
    expectSuccess(await react(id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
    expect(await reactionsOn(id)).toEqual([{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji', user_id: alice.id }]);
    expectError(await react(id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }), 400, 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
  });

  it('counts the same emoji under another name as a vote for the first reaction (its name wins)', async () => {
    const id = await sendToChannel(t, bob, 'lounge', 'adding', 'votes');
    expectSuccess(await react(id, { emoji_name: '+1' }, bob));
    expectSuccess(await react(id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    expect(await reactionsOn(id)).toEqual([thumbs(bob.id, '+1'), thumbs(alice.id, '+1')]);
  });

  it('lets users vote for a reaction whose custom emoji was deactivated since, not start one', async () => {
    const id = await sendToChannel(t, bob, 'lounge', 'adding', 'old emoji');
    const retired = await addEmoji(realmId, 'retired');
    const form = { emoji_name: 'retired', emoji_code: String(retired), reaction_type: 'realm_emoji' };
    expectSuccess(await react(id, form, bob));
    await t.app.get(RealmEmojiService).deactivateRealmEmoji(realmId, 'retired');
    expectSuccess(await react(id, form));
    expect(await storedCount(id)).toBe(2);
    const fresh = await sendToChannel(t, bob, 'lounge', 'adding', 'no votes yet');
    expectError(await react(fresh, form), 400, 'This custom emoji has been deactivated.');
    expectError(await react(fresh, { emoji_name: 'retired' }), 400, "Emoji 'retired' does not exist");
    expect(await storedCount(fresh)).toBe(0);
  });

  describe('refuses, changing nothing', () => {
    let id: number;
    beforeAll(async () => {
      id = await sendToChannel(t, bob, 'lounge', 'refusals', 'try me');
      expectSuccess(await react(id, { emoji_name: 'hamburger' }));
    });
    afterEach(async () => {
      expect(await reactionsOn(id)).toEqual([{ emoji_name: 'hamburger', emoji_code: '1f354', reaction_type: 'unicode_emoji', user_id: alice.id }]);
    });

    it.each([
      [{ emoji_name: 'hamburger' }, 'Reaction already exists.', 'REACTION_ALREADY_EXISTS'],
      // the duplicate is found before the name is checked
      [{ emoji_name: 'non-existent', emoji_code: '1f354', reaction_type: 'unicode_emoji' }, 'Reaction already exists.', 'REACTION_ALREADY_EXISTS'],
      [{ emoji_name: 'foo' }, "Emoji 'foo' does not exist", 'BAD_REQUEST'],
      [{ emoji_name: '' }, "Emoji '' does not exist", 'BAD_REQUEST'],
      [{ emoji_name: 'old_logo', reaction_type: 'realm_emoji' }, "Emoji 'old_logo' does not exist", 'BAD_REQUEST'],
      [{ emoji_name: 'hamburger', emoji_code: 'TBD', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.', 'BAD_REQUEST'],
      [{ emoji_name: 'non-existent', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.', 'BAD_REQUEST'],
      [{ emoji_name: 'green_tick', emoji_code: '9999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.', 'BAD_REQUEST'],
      [{ emoji_name: 'bogus_name', emoji_code: 'GREEN', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.', 'BAD_REQUEST'],
      [{ emoji_name: 'extra_emoji', emoji_code: 'extra_emoji', reaction_type: 'svc_extra_emoji' }, 'Invalid emoji code.', 'BAD_REQUEST'],
      [{ emoji_name: 'zulip_invalid', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji name.', 'BAD_REQUEST'],
      [{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'nonexistent_emoji_type' }, 'Invalid emoji type.', 'BAD_REQUEST'],
    ])('%j: %s', async (form, msg, code) => {
      expectError(await react(id, form), 400, msg, code);
    });

    it('custom emoji by the wrong name, a deactivated one, or another organization’s', async () => {
      expectError(await react(id, { emoji_name: 'bogus_name', emoji_code: String(greenTick), reaction_type: 'realm_emoji' }), 400, 'Invalid custom emoji name.');
      expectError(await react(id, { emoji_name: 'old_logo', emoji_code: String(oldLogo), reaction_type: 'realm_emoji' }), 400, 'This custom emoji has been deactivated.');
      const [{ id: foreign }] = await db().query(`SELECT id FROM realm_emoji WHERE name = 'other_tick'`);
      expectError(await react(id, { emoji_name: 'other_tick' }), 400, "Emoji 'other_tick' does not exist");
      expectError(await react(id, { emoji_name: 'other_tick', emoji_code: String(foreign), reaction_type: 'realm_emoji' }), 400, 'Invalid custom emoji.');
    });

    it('a missing emoji_name, and an oversized one', async () => {
      expectError(await react(id, {}), 400, "Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'emoji_name' });
      expectError(await react(id, { emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), 400, "Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING', {
        var_name: 'emoji_name',
      });
      const long = 'x'.repeat(5000);
      expectError(await react(id, { emoji_name: long }), 400, `Emoji '${long}' does not exist`);
      expectError(await react(id, { emoji_name: long, emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), 400, 'Invalid emoji name.');
    });

    it('a message ID that is not a number', async () => {
      expectError(await t.post('messages/abc/reactions', { as: alice, form: { emoji_name: 'thumbs_up' } }), 404, 'Not Found', 'NOT_FOUND');
      expectError(await t.post('messages/-1/reactions', { as: alice, form: { emoji_name: 'thumbs_up' } }), 404, 'Not Found', 'NOT_FOUND');
    });
  });

  describe('needs a message the caller can read and change', () => {
    it('refuses unknown messages and another organization’s, before looking at the emoji', async () => {
      for (const form of [{ emoji_name: 'thumbs_up' }, { emoji_name: 'foo' }]) {
        expectError(await react(999_999, form), 400, 'Invalid message(s)');
        expectError(await react(otherMessage, form), 400, 'Invalid message(s)');
      }
      expect(await storedCount(otherMessage)).toBe(0);
    });

    it('refuses direct messages between others and protected history sent before the caller joined', async () => {
      const dm = await sendDirect(t, bob, [carol.id], 'between us');
      expectError(await react(dm, { emoji_name: 'thumbs_up' }), 400, 'Invalid message(s)');
      expectSuccess(await react(dm, { emoji_name: 'thumbs_up' }, carol));
      const before = await sendToChannel(t, t.owner, 'secret', 'history', 'before you came');
      await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'secret' }], principals: [alice.id] } });
      expectError(await react(before, { emoji_name: 'thumbs_up' }), 400, 'Invalid message(s)');
      expectError(await react(before, { emoji_name: 'thumbs_up' }, bob), 400, 'Invalid message(s)');
      const after = await sendToChannel(t, t.owner, 'secret', 'history', 'now you are here');
      expectSuccess(await react(after, { emoji_name: 'thumbs_up' }));
      expect(await storedCount(before)).toBe(0);
    });

    it('lets guests react only where they can read: not an unsubscribed public channel', async () => {
      const id = await sendToChannel(t, t.owner, 'lounge', 'guests', 'guests are subscribed here');
      expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, guest));
      await createChannels(t, ['lobby']);
      const lobby = await sendToChannel(t, t.owner, 'lobby', 'guests', 'no guests here');
      expectError(await react(lobby, { emoji_name: 'thumbs_up' }, guest), 400, 'Invalid message(s)');
      expectError(await unreact(lobby, { emoji_name: 'thumbs_up' }, guest), 400, 'Invalid message(s)');
    });

    it('refuses adding and removing in an archived channel', async () => {
      const id = await sendToChannel(t, bob, 'attic', 'old', 'soon archived');
      expectSuccess(await react(id, { emoji_name: 'thumbs_up' }));
      const [{ id: attic }] = await db().query(`SELECT id FROM channels WHERE name = 'attic'`);
      expectSuccess(await t.delete(`streams/${attic}`));
      expectError(await react(id, { emoji_name: 'green_tick' }), 400, 'Invalid message(s)');
      expectError(await unreact(id, { emoji_name: 'thumbs_up' }), 400, 'Invalid message(s)');
      expect(await storedCount(id)).toBe(1);
    });
  });

  it('gives a reader of a public channel’s history a read, historical row for the message', async () => {
    const id = await sendToChannel(t, bob, 'lounge', 'history', 'carol never got this');
    expect((await message(t, carol, id)).flags).toEqual(['read', 'historical']);
    expect(await db().query('SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2', [carol.id, id])).toEqual([]);
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, carol));
    expect(await db().query('SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2', [carol.id, id])).toEqual([{ flags: 1 | 1024 }]);
    // the message is now among hers, as after starring it
    expect((await fetchNarrow(t, carol, [])).map((m) => m.id)).toContain(id);
    // a row already there is left alone (the sender's copy, unread as sent through the API)
    const rowOfBob = () => db().query('SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2', [bob.id, id]);
    expect(await rowOfBob()).toEqual([{ flags: 0 }]);
    expectSuccess(await react(id, { emoji_name: 'green_tick' }, bob));
    expect(await rowOfBob()).toEqual([{ flags: 0 }]);
  });
});

describe('DELETE /messages/{id}/reactions', () => {
  let id: number;
  beforeEach(async () => {
    id = await sendToChannel(t, bob, 'lounge', 'removing', 'remove from me');
  });

  it('removes the caller’s reaction by name, by code and type, or by code alone (unicode_emoji by default)', async () => {
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }));
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, bob));
    const res = await unreact(id, { emoji_name: 'thumbs_up' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(id)).toEqual([thumbs(bob.id)]);
    expectSuccess(await react(id, { emoji_name: 'hamburger' }));
    expectSuccess(await unreact(id, { emoji_code: '1f354' }));
    expectSuccess(await react(id, { emoji_name: 'green_tick' }));
    expectSuccess(await unreact(id, { emoji_name: 'whatever', emoji_code: String(greenTick), reaction_type: 'realm_emoji' }));
    expectSuccess(await react(id, { emoji_name: 'zulip' }));
    expectSuccess(await unreact(id, { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
    expect(await reactionsOn(id)).toEqual([thumbs(bob.id)]);
  });

  it('reads the query string too (as zulip-js sends DELETE parameters)', async () => {
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }));
    expectSuccess(await t.delete(`messages/${id}/reactions`, { as: alice, query: { emoji_name: 'thumbs_up' } }));
    expect(await storedCount(id)).toBe(0);
  });

  it('removes a reaction whose custom emoji was deactivated since', async () => {
    const fading = await addEmoji(realmId, 'fading');
    expectSuccess(await react(id, { emoji_name: 'fading' }));
    await t.app.get(RealmEmojiService).deactivateRealmEmoji(realmId, 'fading');
    expectSuccess(await unreact(id, { emoji_name: 'fading', emoji_code: String(fading), reaction_type: 'realm_emoji' }));
    expect(await storedCount(id)).toBe(0);
  });

  it('refuses what is not there, changing nothing', async () => {
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, bob));
    expectSuccess(await react(id, { emoji_name: 'green_tick' }));
    const missing = ["Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST'] as const;
    expectError(await unreact(id, { emoji_name: 'thumbs_up' }), 400, ...missing); // bob's, not alice's
    expectError(await unreact(id, { emoji_code: 'TBD', emoji_name: 'non_existent', reaction_type: 'realm_emoji' }), 400, ...missing);
    // a bare name gives the code only: the type stays unicode_emoji unless sent
    expectError(await unreact(id, { emoji_name: 'green_tick' }), 400, ...missing);
    expectError(await unreact(id, { emoji_name: 'foo' }), 400, "Emoji 'foo' does not exist");
    expectError(await unreact(id, {}), 400, 'At least one of the following arguments must be present: emoji_name, emoji_code');
    expectError(await unreact(id, { reaction_type: 'unicode_emoji' }), 400, 'At least one of the following arguments must be present: emoji_name, emoji_code');
    expectError(await unreact(999_999, {}), 400, 'Invalid message(s)');
    expectError(await unreact(otherMessage, { emoji_name: 'thumbs_up' }), 400, 'Invalid message(s)');
    expectError(await unreact(id, { emoji_name: 'thumbs_up' }, otherOwner), 400, 'Invalid message(s)');
    expect(await storedCount(id)).toBe(2);
    expectSuccess(await unreact(id, { emoji_name: 'green_tick', reaction_type: 'realm_emoji' }));
    expectError(await unreact(id, { emoji_name: 'green_tick', reaction_type: 'realm_emoji' }), 400, ...missing);
  });
});

describe('reactions and the rest of the message', () => {
  it('go with a deleted message', async () => {
    const id = await sendToChannel(t, alice, 'lounge', 'deleting', 'gone soon');
    expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, bob));
    expectSuccess(await t.delete(`messages/${id}`));
    expect(await storedCount(id)).toBe(0);
  });

  it('make has:reaction match', async () => {
    const plain = await sendToChannel(t, alice, 'lounge', 'has reaction', 'plain');
    const liked = await sendToChannel(t, alice, 'lounge', 'has reaction', 'liked');
    expectSuccess(await react(liked, { emoji_name: 'thumbs_up' }, bob));
    const narrow = [{ operator: 'channel', operand: 'lounge' }, { operator: 'topic', operand: 'has reaction' }];
    expect((await fetchNarrow(t, alice, [...narrow, { operator: 'has', operand: 'reaction' }])).map((m) => m.id)).toEqual([liked]);
    expect((await fetchNarrow(t, alice, [...narrow, { operator: 'has', operand: 'reaction', negated: true }])).map((m) => m.id)).toEqual([plain]);
  });

  it('cost the same statements to add and remove whatever the audience (set-based)', async () => {
    await createChannels(t, ['crowd']);
    const [{ id: crowd }] = await db().query(`SELECT id FROM channels WHERE name = 'crowd'`);
    await db().query(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
       SELECT $1, 'crowd' || g || '@example.com', 'crowd' || g || '@example.com', 'Crowd ' || g, md5('crowd' || g), 400
       FROM generate_series(1, 300) AS g`,
      [realmId],
    );
    await db().query(
      `INSERT INTO subscriptions (realm_id, user_id, channel_id, color) SELECT $1, id, $2, '#c2c2c2' FROM users WHERE email LIKE 'crowd%'`,
      [realmId, crowd],
    );
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'crowd' }], principals: [alice.id] } });
    const counter = t.app.get(StatementCounter);
    const statements = async (request: () => Promise<{ status: number }>) => {
      t.app.get(CredentialCache).all(); // each counts its auth statement (a warm credential cache would spare it to some)
      const before = counter.count;
      expect((await request()).status).toBe(200);
      return counter.count - before;
    };
    const cost = async (channel: string) => {
      const id = await sendToChannel(t, t.owner, channel, 'cost', 'react');
      return [await statements(() => react(id, { emoji_name: 'thumbs_up' })), await statements(() => unreact(id, { emoji_name: 'thumbs_up' }))];
    };
    const few = await cost('lounge');
    const many = await cost('crowd');
    expect(many).toEqual(few);
    // today 17 each: access (5), reactions, custom emoji, the write, audience, reactor, journal and transaction
    expect(few.every((n) => n <= 17)).toBe(true);
  });

  it('cost one statement however many messages are fetched', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await sendToChannel(t, alice, 'lounge', 'counted', `message ${i}`);
      expectSuccess(await react(id, { emoji_name: 'thumbs_up' }, bob));
      expectSuccess(await react(id, { emoji_name: 'zulip' }));
      ids.push(id);
    }
    const counter = t.app.get(StatementCounter);
    const statements = async (n: number) => {
      const before = counter.count;
      const res = await t.get('messages', { as: alice, query: { anchor: ids[0], num_before: 0, num_after: n - 1, narrow: [{ operator: 'topic', operand: 'counted' }] } });
      expect(res.status).toBe(200);
      expect(res.body.messages).toHaveLength(n);
      expect(res.body.messages.every((m: { reactions: unknown[] }) => m.reactions.length === 2)).toBe(true);
      return counter.count - before;
    };
    expect(await statements(12)).toBe(await statements(1));
  });
});
