import { channelIds, createChannels, systemGroups } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { message, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /streams/{stream_id}/delete_topic (Zulip's delete_in_topic): who may, what goes (only
 * what the deleter can read), in batches of 100 newest first, the `delete_message` and
 * `stream` events and their audience, and the users' visibility policies for the topic.
 */

let t: TestApp;
let admin: Account;
let moderator: Account;
let alice: Account;
let bob: Account;
let carol: Account;
let other: Account;
let ids: Record<string, number>;
let groups: Record<string, number>;
let otherChannel: number;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  moderator = await t.createUser({ role: 300, fullName: 'Moderator' });
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' }); // subscribed to nothing
  other = await t.createOrganization('other');
  await createChannels(t, ['lounge', 'batches', 'archived', 'delegated', 'firsts']);
  await createChannels(t, ['vault'], { form: { invite_only: true, history_public_to_subscribers: false } });
  await createChannels(t, ['hidden'], { form: { invite_only: true } });
  const everyone = [admin.id, moderator.id, alice.id, bob.id];
  await t.post('users/me/subscriptions', { form: { subscriptions: ['lounge', 'batches', 'archived', 'delegated', 'firsts'].map((name) => ({ name })), principals: everyone } });
  expectSuccess(await t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  otherChannel = (await t.get('streams', { as: other })).body.streams.find((c: { name: string }) => c.name === 'elsewhere').stream_id;
  ids = await channelIds(t, ['lounge', 'batches', 'archived', 'delegated', 'firsts', 'vault', 'hidden']);
  groups = await systemGroups(t);
});
afterAll(() => t.close());

const deleteTopic = (channelId: number | string, form: Record<string, unknown>, as: Account = admin) => t.post(`streams/${channelId}/delete_topic`, { as, form });
const exists = async (id: number) => (await t.get(`messages/${id}`)).status === 200;
const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

describe('deleting a topic', () => {
  it('deletes its messages whatever their topic case, answers complete: true, and tells subscribers and the deleter', async () => {
    const m1 = await sendToChannel(t, alice, 'lounge', 'Doomed', 'one');
    const m2 = await sendToChannel(t, bob, 'lounge', 'doomed', 'two');
    const kept = await sendToChannel(t, alice, 'lounge', 'kept', 'three');
    const [aliceQ, carolQ] = await Promise.all([alice, carol].map((a) => EventClient.register(t, a, { event_types: ['delete_message'], client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } })));
    const legacyQ = await EventClient.register(t, bob, { event_types: ['delete_message'] });
    const res = await deleteTopic(ids.lounge, { topic_name: 'DOOMED' });
    expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
    const event = { type: 'delete_message', message_ids: [m1, m2], message_type: 'stream', stream_id: ids.lounge, topic: 'doomed' };
    expect(strip(await aliceQ.next())).toEqual([event]);
    // Clients without bulk_message_deletion get one event per message.
    const { message_ids: _ids, ...single } = event;
    expect(strip(await legacyQ.next())).toEqual([
      { ...single, message_id: m1 },
      { ...single, message_id: m2 },
    ]);
    expect(await carolQ.drain()).toEqual([]);
    expect(await exists(m1)).toBe(false);
    expect(await exists(m2)).toBe(false);
    expect(await exists(kept)).toBe(true);
    expect((await t.get(`users/me/${ids.lounge}/topics`, { as: alice })).body.topics.map((x: { name: string }) => x.name)).toEqual(['kept', 'channel events']);
  });

  it('takes "general chat" for the empty topic, and succeeds with nothing to delete', async () => {
    const empty = await sendToChannel(t, alice, 'lounge', '', 'no topic');
    expectSuccess(await deleteTopic(ids.lounge, { topic_name: 'general chat' }), { complete: true });
    expect(await exists(empty)).toBe(false);
    expectSuccess(await deleteTopic(ids.lounge, { topic_name: 'nothing here' }), { complete: true });
  });

  it('deletes in batches of 100, newest first, one delete_message event per batch', async () => {
    const seed = await sendToChannel(t, alice, 'batches', 'big', 'seed');
    const inserted = await sql(
      `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client)
       SELECT realm_id, sender_id, recipient_id, channel_id, topic, 'copy', '<p>copy</p>', date_sent, sending_client
       FROM messages, generate_series(1, 149) WHERE id = $1 RETURNING id`,
      [seed],
    );
    const all = [seed, ...inserted.map((r) => r.id as number)].sort((a, b) => a - b);
    const q = await EventClient.register(t, alice, { event_types: ['delete_message'], client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } });
    expectSuccess(await deleteTopic(ids.batches, { topic_name: 'big' }), { complete: true });
    const events = await q.ofType('delete_message', 2);
    expect(events.map((e) => e.message_ids)).toEqual([all.slice(50), all.slice(0, 50)]);
    expect((await sql(`SELECT count(*)::int AS n FROM messages WHERE channel_id = $1 AND topic = 'big'`, [ids.batches]))[0].n).toBe(0);
  });

  it('updates the channel’s first_message_id when its oldest messages go, telling the same audience first', async () => {
    // Without the creation notice, which would stay the channel's first message.
    expectSuccess(await deleteTopic(ids.firsts, { topic_name: 'channel events' }));
    const first = await sendToChannel(t, alice, 'firsts', 'early', 'first ever');
    const next = await sendToChannel(t, alice, 'firsts', 'later', 'second');
    const q = await EventClient.register(t, bob, { event_types: ['stream', 'delete_message'], client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } });
    expectSuccess(await deleteTopic(ids.firsts, { topic_name: 'early' }));
    expect(strip(await q.next())).toEqual([
      { type: 'stream', op: 'update', property: 'first_message_id', value: next, stream_id: ids.firsts, name: 'firsts' },
      { type: 'delete_message', message_ids: [first], message_type: 'stream', stream_id: ids.firsts, topic: 'early' },
    ]);
    expect((await t.get(`streams/${ids.firsts}`)).body.stream.first_message_id).toBe(next);
    // Deleting a later topic leaves first_message_id alone: no stream event.
    await sendToChannel(t, alice, 'firsts', 'last', 'third');
    expectSuccess(await deleteTopic(ids.firsts, { topic_name: 'last' }));
    expect(strip(await q.next()).map((e) => e.type)).toEqual(['delete_message']);
  });

  it('with protected history deletes only what the deleter received, and keeps the policies of users who still read the topic', async () => {
    const early = await sendToChannel(t, undefined, 'vault', 'secrets', 'before the admin joined');
    await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'vault' }], principals: [admin.id, alice.id] } });
    const late = await sendToChannel(t, undefined, 'vault', 'secrets', 'after');
    // The owner (who read everything) follows the topic; Alice (who joined with the admin) mutes it.
    expectSuccess(await t.post('user_topics', { form: { stream_id: ids.vault, topic: 'secrets', visibility_policy: 3 } }));
    expectSuccess(await t.post('user_topics', { as: alice, form: { stream_id: ids.vault, topic: 'secrets', visibility_policy: 1 } }));
    const aliceQ = await EventClient.register(t, alice, { event_types: ['user_topic', 'delete_message'], client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } });
    const ownerQ = await EventClient.register(t, t.owner, { event_types: ['user_topic', 'delete_message'], client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } });
    expectSuccess(await deleteTopic(ids.vault, { topic_name: 'secrets' }), { complete: true });
    expect(await exists(early)).toBe(true);
    expect(await exists(late)).toBe(false);
    expect(strip(await aliceQ.next())).toEqual([
      { type: 'delete_message', message_ids: [late], message_type: 'stream', stream_id: ids.vault, topic: 'secrets' },
      { type: 'user_topic', stream_id: ids.vault, topic_name: 'secrets', last_updated: expect.any(Number), visibility_policy: 0 },
    ]);
    expect(strip(await ownerQ.next())).toEqual([{ type: 'delete_message', message_ids: [late], message_type: 'stream', stream_id: ids.vault, topic: 'secrets' }]);
    expect(await sql(`SELECT user_id, visibility_policy FROM user_topics WHERE channel_id = $1`, [ids.vault])).toEqual([{ user_id: t.owner.id, visibility_policy: 3 }]);
  });

  it('drops every policy for the topic in a channel with shared history', async () => {
    await sendToChannel(t, alice, 'lounge', 'muted', 'noise');
    expectSuccess(await t.post('user_topics', { as: bob, form: { stream_id: ids.lounge, topic: 'muted', visibility_policy: 1 } }));
    const q = await EventClient.register(t, bob, { event_types: ['muted_topics', 'user_topic'] });
    const legacy = await EventClient.register(t, bob, { event_types: ['muted_topics'] });
    expectSuccess(await deleteTopic(ids.lounge, { topic_name: 'muted' }));
    expect(strip(await q.next())).toEqual([
      { type: 'user_topic', stream_id: ids.lounge, topic_name: 'muted', last_updated: expect.any(Number), visibility_policy: 0 },
    ]);
    expect(strip(await legacy.next())).toEqual([{ type: 'muted_topics', muted_topics: [] }]);
    expect(await sql(`SELECT 1 FROM user_topics WHERE channel_id = $1 AND topic_name = 'muted'`, [ids.lounge])).toEqual([]);
  });
});

describe('who may delete a topic', () => {
  it('refuses members and moderators with Zulip’s administrator error, before reading anything else', async () => {
    const m = await sendToChannel(t, alice, 'lounge', 'protected', 'stays');
    for (const as of [alice, moderator]) {
      expectError(await deleteTopic(ids.lounge, { topic_name: 'protected' }, as), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await deleteTopic(424242, { topic_name: 'protected' }, as), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await deleteTopic(ids.lounge, {}, as), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    expect(await exists(m)).toBe(true);
  });

  it('lets the organization’s can_delete_any_message_group delete topics anywhere', async () => {
    expectSuccess(await t.patch('realm', { form: { can_delete_any_message_group: { new: groups['role:moderators'] } } }));
    try {
      const m = await sendToChannel(t, alice, 'lounge', 'moderated', 'x');
      expectSuccess(await deleteTopic(ids.lounge, { topic_name: 'moderated' }, moderator), { complete: true });
      expect(await exists(m)).toBe(false);
    } finally {
      expectSuccess(await t.patch('realm', { form: { can_delete_any_message_group: { new: groups['role:administrators'] } } }));
    }
  });

  it('lets a channel’s can_delete_any_message_group delete topics of that channel only', async () => {
    expectSuccess(await t.patch(`streams/${ids.delegated}`, { form: { can_delete_any_message_group: { new: { direct_members: [bob.id], direct_subgroups: [] } } } }));
    const here = await sendToChannel(t, alice, 'delegated', 'bob cleans', 'x');
    const there = await sendToChannel(t, alice, 'lounge', 'bob cleans', 'y');
    expectSuccess(await deleteTopic(ids.delegated, { topic_name: 'bob cleans' }, bob), { complete: true });
    expect(await exists(here)).toBe(false);
    expectError(await deleteTopic(ids.lounge, { topic_name: 'bob cleans' }, bob), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expect(await exists(there)).toBe(true);
  });
});

describe('refused requests', () => {
  it('answers "Invalid channel ID" for unknown, foreign, inaccessible and archived channels, deleting nothing', async () => {
    const m = await sendToChannel(t, alice, 'archived', 'old', 'x');
    expectSuccess(await t.delete(`streams/${ids.archived}`));
    for (const id of [424242, otherChannel, ids.hidden, ids.archived, 999_999_999]) {
      expectError(await deleteTopic(id, { topic_name: 'old' }), 400, 'Invalid channel ID');
    }
    expect((await sql(`SELECT count(*)::int AS n FROM messages WHERE id = $1`, [m]))[0].n).toBe(1);
    expectError(await deleteTopic('abc', { topic_name: 'old' }), 404, 'Not Found', 'NOT_FOUND');
  });

  it('needs topic_name', async () => {
    expectError(await deleteTopic(ids.lounge, {}), 400, "Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'topic_name' });
  });

  it('is not another organization’s way in: its owner is refused on our channels', async () => {
    const m = await sendToChannel(t, alice, 'lounge', 'ours', 'x');
    expectError(await deleteTopic(ids.lounge, { topic_name: 'ours' }, other), 400, 'Invalid channel ID');
    expect((await message(t, alice, m)).id).toBe(m);
  });
});
