import { DataSource } from 'typeorm';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { fetchNarrow } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * The Notification Bot's automatic messages (issue 12 capability 9): channel creation notices,
 * new-channel announcements, "you were subscribed" direct messages, sign-up announcements, and
 * the organization's channel settings that turn them on and off (PATCH /realm).
 */

let t: TestApp;
let owner: { id: number; fullName: string };
let admin: Account;
let member: Account;
let bob: Account;
let bot: Account;
let otherOwner: Account;
let ids: Record<string, number>;
let otherChannel: number;

const db = () => t.app.get(DataSource);
const mention = (u: { id: number; fullName: string }) => `@_**${u.fullName}|${u.id}**`;
const messageCount = async () => (await db().query('SELECT count(*)::int AS n FROM messages'))[0].n as number;
const realmColumns = async () =>
  (
    await db().query(
      `SELECT new_stream_announcements_stream_id AS n, signup_announcements_stream_id AS s, update_announcements_stream_id AS u, moderation_request_channel_id AS m
       FROM realms ORDER BY id LIMIT 1`,
    )
  )[0];
const patchRealm = (form: Record<string, unknown>, as?: Account) => t.patch('realm', { as, form });
/** The Notification Bot's messages a user can read in a narrow, oldest first. */
const botMessages = async (as: Account | undefined, narrow: unknown[]) =>
  (await fetchNarrow(t, as, narrow, { apply_markdown: false, allow_empty_topic_name: true })).filter((m) => (m as unknown as { sender_full_name: string }).sender_full_name === 'Notification Bot');

beforeAll(async () => {
  t = await TestApp.start();
  const me = await t.get('users/me');
  owner = { id: me.body.user_id, fullName: me.body.full_name };
  admin = await t.createUser({ role: 200, fullName: 'Ada Admin' });
  member = await t.createUser({ fullName: 'Mia Member' });
  bob = await t.createUser({ fullName: 'Bob' });
  bot = await t.createBot(member, 'helper');
  otherOwner = await t.createOrganization('other');
  ids = await createChannels(t, ['announcements', 'signups-here', 'general', 'attic'], { form: { principals: [owner.id, admin.id] } });
  expectSuccess(await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  otherChannel = (await db().query(`SELECT id FROM channels WHERE name = 'elsewhere'`))[0].id;
  expectSuccess(await t.delete(`streams/${ids.attic}`));
});
afterAll(() => t.close());

describe('PATCH /realm: the channel settings', () => {
  it('sets the new-channel announcements channel: reported, stored, in register and announced', async () => {
    const queue = await EventClient.register(t, member, { event_types: ['realm'] });
    const res = await patchRealm({ new_stream_announcements_stream_id: ids.announcements });
    expectSuccess(res, { new_stream_announcements_stream_id: ids.announcements });
    expect((await realmColumns()).n).toBe(ids.announcements);
    expect(await queue.ofType('realm')).toEqual([
      { id: expect.any(Number), type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: ids.announcements },
    ]);
    const reg = await t.post('register', { as: member, form: { fetch_event_types: ['realm'] } });
    expect(reg.body.realm_new_stream_announcements_stream_id).toBe(ids.announcements);
    // The same value again changes nothing and reports nothing.
    const again = await patchRealm({ new_stream_announcements_stream_id: ids.announcements });
    expect(again.body).toEqual({ result: 'success', msg: '' });
  });

  it('sets the sign-up and update channels; the update channel answers under both names with ZULIP_CLIENT_COMPAT', async () => {
    // A new organization starts with "general" as its update channel.
    expect((await t.post('register', { as: member, form: { fetch_event_types: ['realm'] } })).body.realm_svc_update_announcements_stream_id).toBe(ids.general);
    const res = await patchRealm({ signup_announcements_stream_id: ids['signups-here'], zulip_update_announcements_stream_id: ids.announcements });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      signup_announcements_stream_id: ids['signups-here'],
      svc_update_announcements_stream_id: ids.announcements,
      zulip_update_announcements_stream_id: ids.announcements,
    });
    const reg = await t.post('register', { as: member, form: { fetch_event_types: ['realm'] } });
    expect(reg.body).toMatchObject({
      realm_signup_announcements_stream_id: ids['signups-here'],
      realm_svc_update_announcements_stream_id: ids.announcements,
      realm_zulip_update_announcements_stream_id: ids.announcements,
      realm_moderation_request_channel_id: -1,
    });
  });

  it('a negative value disables a setting (-1 in register)', async () => {
    const moderation = (await createChannels(t, ['moderation'], { form: { invite_only: true } })).moderation;
    expectSuccess(await patchRealm({ moderation_request_channel_id: moderation }));
    expect((await realmColumns()).m).toBe(moderation);
    expectSuccess(await patchRealm({ moderation_request_channel_id: -1 }), { moderation_request_channel_id: -1 });
    expect((await realmColumns()).m).toBeNull();
    const reg = await t.post('register', { as: member, form: { fetch_event_types: ['realm'] } });
    expect(reg.body.realm_moderation_request_channel_id).toBe(-1);
  });

  it.each([
    ['an unknown channel', () => 987654],
    ["another organization's channel", () => otherChannel],
    ['an archived channel', () => ids.attic],
    ['an id beyond the integer range', () => 2 ** 40],
  ])('refuses %s with "Invalid channel ID" and changes nothing', async (_what, id) => {
    const before = await realmColumns();
    expectError(await patchRealm({ new_stream_announcements_stream_id: id(), signup_announcements_stream_id: -1 }), 400, 'Invalid channel ID');
    expect(await realmColumns()).toEqual(before);
  });

  it('refuses a public moderation request channel (Zulip: "must be private") and changes nothing', async () => {
    const before = await realmColumns();
    expectError(await patchRealm({ moderation_request_channel_id: ids.general, signup_announcements_stream_id: -1 }), 400, 'Moderation request channel must be private.');
    expect(await realmColumns()).toEqual(before);
  });

  it('refuses wrong types and non-administrators', async () => {
    expectError(await patchRealm({ new_stream_announcements_stream_id: '"general"' }), 400, 'new_stream_announcements_stream_id is not an integer');
    expectError(await patchRealm({ signup_announcements_stream_id: 1.5 }), 400, 'signup_announcements_stream_id is not an integer');
    expectError(await patchRealm({ new_stream_announcements_stream_id: -1 }, member), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expect((await realmColumns()).n).toBe(ids.announcements);
  });
});

describe('creating channels', () => {
  it('opens every new channel with a notice in "channel events", read for the creator only', async () => {
    await createChannels(t, ['fresh'], { as: admin, form: { principals: [admin.id, bob.id] } });
    const [notice] = await botMessages(bob, [{ operator: 'channel', operand: 'fresh' }]);
    expect(notice).toMatchObject({
      subject: 'channel events',
      content: `**Public** channel created by ${mention({ id: admin.id, fullName: 'Ada Admin' })}. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``,
    });
    expect(notice.flags).not.toContain('read');
    const [mine] = await botMessages(admin, [{ operator: 'channel', operand: 'fresh' }]);
    expect(mine.flags).toContain('read');
  });

  it('describes private channels and quotes the description', async () => {
    await createChannels(t, ['vault'], { as: admin, form: { subscriptions: [{ name: 'vault', description: 'Keys *only*' }], invite_only: true } });
    const [notice] = await botMessages(admin, [{ operator: 'channel', operand: 'vault' }]);
    expect(notice.content).toBe(
      `**Private, protected history** channel created by ${mention({ id: admin.id, fullName: 'Ada Admin' })}. **Description:**\n\`\`\`\` quote\nKeys *only*\n\`\`\`\``,
    );
  });

  it('puts the notice in the empty topic of a channel that allows only that', async () => {
    await createChannels(t, ['plain'], { as: admin, form: { topics_policy: JSON.stringify('empty_topic_only') } });
    const [notice] = await botMessages(admin, [{ operator: 'channel', operand: 'plain' }]);
    expect(notice.subject).toBe('');
  });

  it('announces new channels with announce=true in the announcements channel, topic "new channels"', async () => {
    await createChannels(t, ['launch'], { as: admin, form: { announce: true } });
    const [one] = await botMessages(admin, [{ operator: 'channel', operand: 'announcements' }, { operator: 'topic', operand: 'new channels' }]);
    expect(one).toMatchObject({ subject: 'new channels', content: `${mention({ id: admin.id, fullName: 'Ada Admin' })} created a new channel #**launch**.` });
    expect(one.flags).toContain('read');
    await createChannels(t, ['alpha', 'beta'], { as: admin, form: { announce: true } });
    const all = await botMessages(admin, [{ operator: 'channel', operand: 'announcements' }, { operator: 'topic', operand: 'new channels' }]);
    expect(all[1].content).toBe(`${mention({ id: admin.id, fullName: 'Ada Admin' })} created the following channels: #**alpha**, #**beta**.`);
    // POST /channels/create announces the same way.
    expectSuccess(await t.post('channels/create', { as: admin, form: { name: 'gamma', subscribers: [admin.id], announce: true } }));
    const after = await botMessages(admin, [{ operator: 'channel', operand: 'announcements' }, { operator: 'topic', operand: 'new channels' }]);
    expect(after[2].content).toBe(`${mention({ id: admin.id, fullName: 'Ada Admin' })} created a new channel #**gamma**.`);
  });

  it('announces nothing without announce, or when the announcements channel is disabled or archived', async () => {
    const before = (await botMessages(admin, [{ operator: 'channel', operand: 'announcements' }, { operator: 'topic', operand: 'new channels' }])).length;
    await createChannels(t, ['quiet-one'], { as: admin });
    expectSuccess(await patchRealm({ new_stream_announcements_stream_id: -1 }));
    await createChannels(t, ['quiet-two'], { as: admin, form: { announce: true } });
    expect((await botMessages(admin, [{ operator: 'channel', operand: 'announcements' }, { operator: 'topic', operand: 'new channels' }])).length).toBe(before);
    // An archived announcements channel stays the setting (as in Zulip) but receives nothing.
    const { closing } = await createChannels(t, ['closing'], { as: admin });
    expectSuccess(await patchRealm({ new_stream_announcements_stream_id: closing }));
    expectSuccess(await t.delete(`streams/${closing}`));
    const total = await messageCount();
    await createChannels(t, ['quiet-three'], { as: admin, form: { announce: true } });
    expect((await messageCount()) - total).toBe(1); // the creation notice only
    expectSuccess(await patchRealm({ new_stream_announcements_stream_id: ids.announcements }));
  });
});

describe('subscribing other users', () => {
  it('sends each newly subscribed user a direct message, one channel inline', async () => {
    const queue = await EventClient.register(t, bob, { event_types: ['message'] });
    const res = await t.post('users/me/subscriptions', { as: admin, form: { subscriptions: [{ name: 'signups-here' }], principals: [bob.id] } });
    expectSuccess(res, { subscribed: { [bob.id]: ['signups-here'] }, new_subscription_messages_sent: true });
    const [event] = await queue.ofType('message');
    expect(event.message).toMatchObject({
      sender_full_name: 'Notification Bot',
      type: 'private',
      content: expect.stringContaining('subscribed you to'),
    });
    const [dm] = await botMessages(bob, [{ operator: 'is', operand: 'dm' }]);
    expect(dm.content).toBe(`${mention({ id: admin.id, fullName: 'Ada Admin' })} subscribed you to #**signups-here**.`);
    expect(dm.flags).not.toContain('read');
  });

  it('lists several channels, sorted; the caller, bots and channels created by the request get nothing', async () => {
    const before = await messageCount();
    const res = await t.post('users/me/subscriptions', {
      as: admin,
      form: { subscriptions: [{ name: 'launch' }, { name: 'announcements' }, { name: 'brand-new' }], principals: [member.id, admin.id, bot.id] },
    });
    expectSuccess(res, { new_subscription_messages_sent: true });
    // One direct message (the member), one creation notice (brand-new).
    expect((await messageCount()) - before).toBe(2);
    const dms = await botMessages(member, [{ operator: 'is', operand: 'dm' }]);
    expect(dms.at(-1)!.content).toBe(`${mention({ id: admin.id, fullName: 'Ada Admin' })} subscribed you to the following channels:\n\n* #**announcements**\n* #**launch**`);
  });

  it('sends nothing with send_new_subscription_messages=false, and says so only when asked', async () => {
    const before = await messageCount();
    const off = await t.post('users/me/subscriptions', { as: admin, form: { subscriptions: [{ name: 'alpha' }], principals: [bob.id], send_new_subscription_messages: false } });
    expectSuccess(off);
    expect(off.body).not.toHaveProperty('new_subscription_messages_sent');
    const added = await db().query('SELECT topic, content FROM messages ORDER BY id DESC LIMIT 1');
    expect(await messageCount(), JSON.stringify(added)).toBe(before);
  });

  it('refuses bad input before sending anything', async () => {
    const before = await messageCount();
    expectError(
      await t.post('users/me/subscriptions', { as: admin, form: { subscriptions: [{ name: 'beta' }], principals: [bob.id], send_new_subscription_messages: '"sometimes"' } }),
      400,
      'send_new_subscription_messages is not a boolean',
    );
    expectError(await t.post('users/me/subscriptions', { as: admin, form: { subscriptions: [{ name: 'beta' }], announce: '"yes"' } }), 400, 'announce is not a boolean');
    expect(await messageCount()).toBe(before);
  });
});

describe('new users', () => {
  it('are announced in the sign-up channel, topic "signups"', async () => {
    const newcomer = await t.createUser({ fullName: 'Nora New' });
    const [notice] = await botMessages(admin, [{ operator: 'channel', operand: 'signups-here' }, { operator: 'topic', operand: 'signups' }]);
    expect(notice).toMatchObject({ subject: 'signups', content: `${mention({ id: newcomer.id, fullName: 'Nora New' })} joined this organization.` });
  });

  it('are not announced when the setting is disabled', async () => {
    expectSuccess(await patchRealm({ signup_announcements_stream_id: -1 }));
    const before = await messageCount();
    await t.createUser({ fullName: 'Quiet Quinn' });
    expect(await messageCount()).toBe(before);
  });
});

describe('changing channels', () => {
  const channelEvents = (as: Account | undefined, channel: string) =>
    botMessages(as, [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: 'channel events' },
    ]);

  it('posts a notice per change: privacy, retention, topics policy, description, name', async () => {
    const { renamed } = await createChannels(t, ['renamed'], { form: { subscriptions: [{ name: 'renamed', description: 'Old text' }] } });
    expectSuccess(
      await t.patch(`streams/${renamed}`, {
        form: { is_private: true, message_retention_days: 30, topics_policy: 'disable_empty_topic', description: '', new_name: 'renamed-2' },
      }),
    );
    const notices = (await channelEvents(undefined, 'renamed-2')).map((m) => m.content);
    const me = mention(owner);
    expect(notices.slice(1)).toEqual([
      `${me} changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, protected history**.`,
      `${me} has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: Forever\n* **New retention period**: 30 days\n\nMessages in this channel will now be automatically deleted 30 days after they are sent.`,
      `${me} changed the "Allow posting to the *general chat* topic?" setting from **Automatic** to **No *general chat* topic**.`,
      `${me} changed the description for this channel.\n\n* **Old description:**\n\`\`\`\` quote\nOld text\n\`\`\`\`\n* **New description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``,
      `${me} renamed channel **renamed** to **renamed-2**.`,
    ]);
  });

  it('posts the archiving notice read for every subscriber, and the unarchiving one', async () => {
    const { shelved } = await createChannels(t, ['shelved'], { form: { principals: [owner.id, bob.id] } });
    expectSuccess(await t.delete(`streams/${shelved}`));
    const [, archived] = await channelEvents(bob, 'shelved');
    expect(archived.content).toBe('Channel #**shelved** has been archived.');
    expect(archived.flags).toContain('read');
    expectSuccess(await t.patch(`streams/${shelved}`, { form: { is_archived: false } }));
    const all = await channelEvents(undefined, 'shelved');
    expect(all.at(-1)!.content).toBe('Channel #**shelved** has been unarchived.');
  });

  it('posts none of them, nor creation notices, when send_channel_events_messages is off', async () => {
    const queue = await EventClient.register(t, member, { event_types: ['realm'] });
    expectSuccess(await patchRealm({ send_channel_events_messages: false }), { send_channel_events_messages: false });
    expect(await queue.ofType('realm')).toEqual([{ id: expect.any(Number), type: 'realm', op: 'update', property: 'send_channel_events_messages', value: false }]);
    expect((await t.post('register', { as: member, form: { fetch_event_types: ['realm'] } })).body.realm_send_channel_events_messages).toBe(false);
    const before = await messageCount();
    const { silent } = await createChannels(t, ['silent']);
    expectSuccess(await t.patch(`streams/${silent}`, { form: { description: 'changed', new_name: 'silent-2' } }));
    expectSuccess(await t.delete(`streams/${silent}`));
    expect(await messageCount()).toBe(before);
    expectError(await patchRealm({ send_channel_events_messages: '"no"' }), 400, 'send_channel_events_messages is not a boolean');
    expectSuccess(await patchRealm({ send_channel_events_messages: true }));
  });
});
