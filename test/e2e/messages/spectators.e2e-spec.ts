import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { json, someToken } from '../../support/sessions.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Web-public channels read without an account (Zulip's spectators): GET /json/messages with a
 * `channels:web-public` narrow, only where the server switch, the organization's spectator access
 * and a web-public channel are all there; nothing else is readable (after zerver/tests/
 * test_message_fetch.py's test_unauthenticated_* tests).
 */
let t: TestApp;
let member: Account;
let ids: Record<string, number>;
const msg: Record<string, number> = {};
const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';
const WEB_PUBLIC = { operator: 'channels', operand: 'web-public' };

beforeAll(async () => {
  t = await TestApp.start({ WEB_PUBLIC_STREAMS_ENABLED: 'true' });
  member = await t.createUser({ fullName: 'Member' });
  expectSuccess(await t.patch('realm', { form: { enable_spectator_access: true } }));
  ids = await createChannels(t, ['open-house'], { form: { is_web_public: true, principals: [t.owner.id, member.id] } });
  Object.assign(ids, await createChannels(t, ['internal'], { form: { principals: [t.owner.id, member.id] } }));
  msg.web1 = await sendToChannel(t, member, 'open-house', 'welcome', 'web-public message');
  msg.internal = await sendToChannel(t, member, 'internal', 'secret', 'internal message');
  msg.dm = await sendDirect(t, member, [t.owner.id], 'direct message');
  msg.web2 = await sendToChannel(t, member, 'open-house', 'later', 'another web-public message');
  await t.settled();
});
afterAll(() => t.close());

/** As a browser without a session does: /json, no cookie, no credentials. */
const spectator = (query: Record<string, unknown>) => t.http.get('/json/messages').query(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])));
const fetchQuery = (narrow: unknown[], extra: Record<string, unknown> = {}) => ({ anchor: 'newest', num_before: 50, num_after: 0, narrow, ...extra });

describe('GET /json/messages without an account', () => {
  it('answers the web-public channels’ messages, read, with avatar URLs, and nothing else', async () => {
    const res = await spectator(fetchQuery([WEB_PUBLIC]));
    expectSuccess(res, { found_newest: true, found_oldest: true });
    const web = res.body.messages.filter((m: { id: number }) => m.id === msg.web1 || m.id === msg.web2);
    expect(web).toHaveLength(2);
    expect(res.body.messages.map((m: { display_recipient: string }) => m.display_recipient)).toEqual(res.body.messages.map(() => 'open-house'));
    for (const m of web) expect(m).toMatchObject({ flags: ['read'], avatar_url: expect.any(String), sender_id: member.id });
    expect(JSON.stringify(res.body)).not.toMatch(/internal message|direct message/);
  });

  it('takes the legacy streams:web-public, a channel and a topic, and reads first_unread as the newest', async () => {
    const res = await spectator(fetchQuery([{ operator: 'streams', operand: 'web-public' }, { operator: 'channel', operand: 'open-house' }, { operator: 'topic', operand: 'later' }]));
    expectSuccess(res);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([msg.web2]);
    const first = await spectator(fetchQuery([WEB_PUBLIC], { anchor: 'first_unread', num_before: 1, num_after: 0 }));
    expectSuccess(first);
    expect(first.body.messages.map((m: { id: number }) => m.id)).toEqual([msg.web2]);
  });

  it('refuses a channel that is not web-public by name, as Zulip does', async () => {
    expectError(await spectator(fetchQuery([WEB_PUBLIC, { operator: 'channel', operand: 'internal' }])), 400, 'Invalid narrow operator: unknown web-public channel internal', 'BAD_NARROW', {
      desc: 'unknown web-public channel internal',
    });
  });

  it.each([
    ['no narrow', []],
    ['a channel without channels:web-public', [{ operator: 'channel', operand: 'open-house' }]],
    ['is:dm', [{ operator: 'is', operand: 'dm' }]],
    ['channels:web-public with is:dm', [WEB_PUBLIC, { operator: 'is', operand: 'dm' }]],
    ['channels:web-public with a dm narrow', [WEB_PUBLIC, { operator: 'dm', operand: [1] }]],
    ['a negated channels:web-public', [{ ...WEB_PUBLIC, negated: true }]],
  ])('answers "not logged in" to %s', async (_name, narrow) => {
    const res = await spectator(fetchQuery(narrow));
    expectError(res, 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Session realm="zulip"');
  });

  it('keeps /api/v1 and message_ids narrowed the same way', async () => {
    expectError(await t.get('messages', { as: null, query: fetchQuery([WEB_PUBLIC]) }), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    const byIds = await spectator({ message_ids: [msg.web1, msg.internal, msg.dm], narrow: [WEB_PUBLIC] });
    expectSuccess(byIds);
    expect(byIds.body.messages.map((m: { id: number }) => m.id)).toEqual([msg.web1]);
  });

  it('is closed when the organization turns spectator access off, or has no web-public channel left', async () => {
    expectSuccess(await t.patch('realm', { form: { enable_spectator_access: false } }));
    await t.settled();
    expectError(await spectator(fetchQuery([WEB_PUBLIC])), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    expect((await t.get('server_settings', { as: null })).body.realm_web_public_access_enabled).toBe(false);
    expectSuccess(await t.patch('realm', { form: { enable_spectator_access: true } }));
    await t.settled();
    expect((await t.get('server_settings', { as: null })).body.realm_web_public_access_enabled).toBe(true);
    expectSuccess(await t.patch(`streams/${ids['open-house']}`, { form: { is_web_public: false } }));
    await t.settled();
    expect((await t.get('server_settings', { as: null })).body.realm_web_public_access_enabled).toBe(false);
    expectError(await spectator(fetchQuery([WEB_PUBLIC])), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    expectSuccess(await t.patch(`streams/${ids['open-house']}`, { form: { is_web_public: true } }));
    await t.settled();
    expectSuccess(await spectator(fetchQuery([WEB_PUBLIC])));
  });

  it('shows another organization nothing of this one', async () => {
    const other = await t.createOrganization('elsewhere');
    const res = await t.http.get('/json/messages').set('Host', other.host!).query({ anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([WEB_PUBLIC]) });
    expectError(res, 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
  });
});

describe('POST /json/register without an account', () => {
  /** As a browser without a session: its CSRF cookie and header, no session cookie. */
  const register = (form: Record<string, unknown>, host?: string) => json(t, 'post', 'register', { csrftoken: someToken('spectator') }, { form, host });

  it('answers no queue, the organization’s settings and its web-public channels as subscriptions', async () => {
    const res = await register({ client_gravatar: false, fetch_event_types: ['realm', 'subscription'] });
    expectSuccess(res, { queue_id: null, last_event_id: -1, realm_enable_spectator_access: true, unsubscribed: [], never_subscribed: [] });
    expect(res.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['open-house']);
    expect(res.body.subscriptions[0]).toMatchObject({ stream_id: ids['open-house'], is_web_public: true, is_muted: false, color: expect.stringMatching(/^#/) });
    expect(res.body.subscriptions[0]).not.toHaveProperty('subscribers');
    expect(res.body).not.toHaveProperty('realm_users');
    expect(res.body).not.toHaveProperty('unread_msgs');
  });

  it('refuses client_gravatar and include_subscribers, as Zulip does', async () => {
    expectError(await register({}), 400, "Invalid 'client_gravatar' parameter for anonymous request");
    expectError(await register({ client_gravatar: false, include_subscribers: true }), 400, "Invalid 'include_subscribers' parameter for anonymous request");
  });

  it('is "not logged in" where spectators are not allowed, and under /api/v1', async () => {
    const other = await t.createOrganization('closed');
    expectError(await register({ client_gravatar: false }, other.host), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    expectError(await json(t, 'post', 'register', null, { form: { client_gravatar: false } }), 403, 'CSRF error: CSRF cookie not set.', 'CSRF_FAILED', { reason: 'CSRF cookie not set.' });
    expectError(await t.post('register', { as: null, form: { client_gravatar: false } }), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
  });
});

describe('GET /json/messages/{id} without an account', () => {
  it('answers a message of a web-public channel, read; any other is "not logged in"', async () => {
    const res = await json(t, 'get', `messages/${msg.web1}`, null);
    expectSuccess(res, { raw_content: 'web-public message' });
    expect(res.body.message).toMatchObject({ id: msg.web1, flags: ['read'], display_recipient: 'open-house' });
    for (const id of [msg.internal, msg.dm, 999_999]) expectError(await json(t, 'get', `messages/${id}`, null), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
    expectError(await t.get(`messages/${msg.web1}`, { as: null }), 401, NOT_LOGGED_IN, 'UNAUTHORIZED');
  });
});
