import { createChannels } from '../../support/channels.js';
import { EventClient, registerAll } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// POST / DELETE /default_streams (Zulip's add_default_stream / remove_default_stream) and the
// `default_streams` event (ids at this feature level) to the organization's non-guests.
let t: TestApp;
let admin: Account;
let member: Account;
let moderator: Account;
let guest: Account;
let otherOwner: Account;
let ch: Record<string, number>;
let otherChannel: number;

beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, moderator, guest, otherOwner } = await t.createRoleAccounts());
  ch = await createChannels(t, ['alpha', 'beta', 'gamma']);
  ch = { ...ch, ...(await createChannels(t, ['secret'], { form: { invite_only: true } })) };
  ch = { ...ch, ...(await createChannels(t, ['hidden'], { as: member, form: { invite_only: true } })) };
  const other = await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'elsewhere' }] } });
  expectSuccess(other);
  const streams = await t.get('streams', { as: otherOwner });
  otherChannel = streams.body.streams.find((s: { name: string }) => s.name === 'elsewhere').stream_id;
});
afterAll(() => t.close());

const defaults = async (as: Account = t.owner): Promise<number[]> =>
  (await t.post('register', { as, form: { fetch_event_types: ['default_streams'] } })).body.realm_default_streams;

describe('POST /default_streams', () => {
  it('makes a public channel default; every non-guest hears the new list; register agrees', async () => {
    const before = await defaults();
    const listeners = await registerAll(t, [t.owner, member, moderator]);
    const guestQueue = await EventClient.register(t, guest);
    const otherQueue = await EventClient.register(t, otherOwner);
    expectSuccess(await t.post('default_streams', { as: admin, form: { stream_id: ch.alpha } }));
    const expected = [...before, ch.alpha].sort((a, b) => a - b);
    for (const c of listeners) {
      const [e] = await c.ofType('default_streams');
      expect({ ...e, id: undefined }).toEqual({ type: 'default_streams', default_streams: expected, id: undefined });
    }
    expect(await defaults()).toEqual(expected);
    expect(await defaults(member)).toEqual(expected);
    expect(await defaults(guest)).toEqual([]);
    expect((await guestQueue.drain()).filter((e) => e.type === 'default_streams')).toEqual([]);
    expect((await otherQueue.drain()).filter((e) => e.type === 'default_streams')).toEqual([]);
    const listed = await t.get('streams', { query: { include_default: true } });
    expect(listed.body.streams.find((s: { stream_id: number }) => s.stream_id === ch.alpha).is_default).toBe(true);
  });

  it('adding a channel that is already default succeeds and tells nobody', async () => {
    const [c] = await registerAll(t, [member]);
    const before = await defaults();
    expectSuccess(await t.post('default_streams', { as: admin, form: { stream_id: ch.alpha } }));
    expect(await defaults()).toEqual(before);
    expect((await c.drain()).filter((e) => e.type === 'default_streams')).toEqual([]);
  });

  it('refuses bad input with Zulip’s errors and writes nothing', async () => {
    const before = await defaults();
    const [c] = await registerAll(t, [member]);
    // The owner is subscribed to 'secret'; an administrator who is not cannot read it, so it looks unknown.
    expectError(await t.post('default_streams', { form: { stream_id: ch.secret } }), 400, 'Private channels cannot be made default.');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: ch.secret } }), 400, 'Invalid channel ID');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: ch.hidden } }), 400, 'Invalid channel ID');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: 999_999 } }), 400, 'Invalid channel ID');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: otherChannel } }), 400, 'Invalid channel ID');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: '"abc"' } }), 400, 'stream_id is not an integer');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: 'abc' } }), 400, 'stream_id is not valid JSON');
    expectError(await t.post('default_streams', { as: admin, form: { stream_id: 2 ** 40 } }), 400, 'Invalid channel ID');
    expectError(await t.post('default_streams', { as: admin, form: {} }), 400, 'Missing \'stream_id\' argument', 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' });
    for (const as of [moderator, member, guest]) {
      expectError(await t.post('default_streams', { as, form: { stream_id: ch.beta } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    expect(await defaults()).toEqual(before);
    expect((await c.drain()).filter((e) => e.type === 'default_streams')).toEqual([]);
  });
});

describe('DELETE /default_streams', () => {
  it('removes a default channel and sends the new list', async () => {
    expectSuccess(await t.post('default_streams', { form: { stream_id: ch.beta } }));
    const before = await defaults();
    const [c] = await registerAll(t, [member]);
    expectSuccess(await t.delete('default_streams', { as: admin, query: { stream_id: ch.beta } }));
    const expected = before.filter((id) => id !== ch.beta);
    const [e] = await c.ofType('default_streams');
    expect(e).toMatchObject({ type: 'default_streams', default_streams: expected });
    expect(await defaults()).toEqual(expected);
  });

  it('removing a channel that is not default is no error (Zulip still sends the list)', async () => {
    const before = await defaults();
    const [c] = await registerAll(t, [member]);
    expectSuccess(await t.delete('default_streams', { as: admin, query: { stream_id: ch.gamma } }));
    const [e] = await c.ofType('default_streams');
    expect(e).toMatchObject({ type: 'default_streams', default_streams: before });
    // Metadata access is enough: an administrator may name a private channel they are not in.
    expectSuccess(await t.delete('default_streams', { as: admin, query: { stream_id: ch.hidden } }));
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await defaults();
    expectError(await t.delete('default_streams', { as: admin, query: { stream_id: 999_999 } }), 400, 'Invalid channel ID');
    expectError(await t.delete('default_streams', { as: admin, query: { stream_id: otherChannel } }), 400, 'Invalid channel ID');
    expectError(await t.delete('default_streams', { as: admin, query: { stream_id: '[1]' } }), 400, 'stream_id is not an integer');
    expectError(await t.delete('default_streams', { as: member, query: { stream_id: ch.alpha } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expect(await defaults()).toEqual(before);
  });

  it('Zulip has no GET /default_streams: the path answers 405 with the methods it has', async () => {
    const res = await t.get('default_streams');
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ result: 'error', msg: 'Method Not Allowed' });
  });
});

describe('default channels elsewhere', () => {
  it('archiving a default channel removes it from the defaults, with a default_streams event first', async () => {
    expectSuccess(await t.post('default_streams', { form: { stream_id: ch.gamma } }));
    const before = await defaults();
    const c = await EventClient.register(t, member, { event_types: ['default_streams', 'stream'] });
    expectSuccess(await t.delete(`streams/${ch.gamma}`));
    const events = await c.next();
    expect(events[0]).toMatchObject({ type: 'default_streams', default_streams: before.filter((id) => id !== ch.gamma) });
    expect(await defaults()).toEqual(before.filter((id) => id !== ch.gamma));
    expectError(await t.post('default_streams', { form: { stream_id: ch.gamma } }), 400, 'Invalid channel ID');
  });

  it('PATCH is_default_stream and creation with is_default_stream send the event too', async () => {
    const [c] = await registerAll(t, [member]);
    expectSuccess(await t.patch(`streams/${ch.beta}`, { form: { is_default_stream: true } }));
    const [e] = await c.ofType('default_streams');
    expect(e.default_streams).toContain(ch.beta);
    const created = await createChannels(t, ['delta'], { form: { is_default_stream: true } });
    const [e2] = await c.ofType('default_streams');
    expect(e2.default_streams).toContain(created.delta);
    expect(await defaults()).toEqual(e2.default_streams);
  });

  it('a user who joins is subscribed to the default channels', async () => {
    const ids = await defaults();
    const newcomer = await t.createUser();
    const subs = (await t.get('users/me/subscriptions', { as: newcomer })).body.subscriptions.map((s: { stream_id: number }) => s.stream_id);
    expect([...subs].sort((a: number, b: number) => a - b)).toEqual(ids);
  });
});

describe('a new organization', () => {
  it('starts with Zulip’s three public default channels, its owner subscribed to them', async () => {
    const fresh = await t.createOrganization('fresh', 'founder@example.com');
    const streams = ((await t.get('streams', { as: fresh })).body.streams as Record<string, unknown>[]).sort(
      (a, b) => (a.stream_id as number) - (b.stream_id as number),
    );
    // Created in Zulip's order: Zulip, sandbox, general.
    expect(streams.map((s) => [s.name, s.description, s.invite_only, s.is_web_public, s.history_public_to_subscribers, s.creator_id])).toEqual([
      ['Zulip', 'Questions and discussion about using Zulip.', false, false, true, null],
      ['sandbox', 'Experiment with Zulip here. :test_tube:', false, false, true, null],
      ['general', 'For team-wide conversations', false, false, true, null],
    ]);
    const byName = Object.fromEntries(streams.map((s) => [s.name, s.stream_id as number]));
    const state = (await t.post('register', { as: fresh, form: { fetch_event_types: ['default_streams', 'subscription'] } })).body;
    expect(state.realm_default_streams).toEqual([byName.Zulip, byName.sandbox, byName.general]);
    expect(state.subscriptions.map((s: { stream_id: number }) => s.stream_id).sort((a: number, b: number) => a - b)).toEqual(
      state.realm_default_streams,
    );
    // Nobody administers them but the organization's administrators (no creator).
    const nobody = (await t.get('user_groups', { as: fresh })).body.user_groups.find((g: { name: string }) => g.name === 'role:nobody').id;
    expect(streams.every((s) => s.can_administer_channel_group === nobody)).toBe(true);
    // Nothing leaks into the first organization.
    const mine = (await t.get('streams', { query: { include_all: true } })).body.streams.map((s: { stream_id: number }) => s.stream_id);
    for (const id of Object.values(byName)) expect(mine).not.toContain(id);
  });
});
