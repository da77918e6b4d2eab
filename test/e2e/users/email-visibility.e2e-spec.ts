import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// email_address_visibility (Zulip 7.0+, zerver/models/users.py): each user chooses who sees
// their real address. Every surface that shows a user's email is checked here for each value
// × each viewer role, from one table: `email` is the API email (the real address only for
// "everyone", else `user<id>@<realm host>`), `delivery_email` is the real address for the
// user and for the roles allowed to see it, else null; the real address of a hidden user
// names nobody (DMs, narrows, principals), as in Zulip, whose API lookups go by `email`.

const VALUES = { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 } as const;
type Value = (typeof VALUES)[keyof typeof VALUES];
const ROLES = ['owner', 'admin', 'moderator', 'member', 'guest'] as const;
type RoleName = (typeof ROLES)[number];
/** Zulip's ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS. */
const SEES: Record<RoleName, readonly number[]> = {
  owner: [1, 2, 3, 5],
  admin: [1, 2, 3, 5],
  moderator: [1, 2, 5],
  member: [1, 2],
  guest: [1],
};
const ROLE_IDS: Record<RoleName, number> = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 };
const DOMAIN = 'chat.example.com';

interface Target {
  account: Account;
  value: Value;
  real: string;
  api: string;
}

let t: TestApp;
const viewers = {} as Record<RoleName, Account>;
const active = new Map<Value, Target>();
const gone = new Map<Value, Target>();
/** Per target: the group DM it sent to every viewer. */
const dmOf = new Map<Value, number>();
const queues = {} as Record<RoleName, EventClient>;
const events = {} as Record<RoleName, Record<string, unknown>[]>;

const apiEmail = (id: number, real: string, v: Value) => (v === VALUES.everyone ? real : `user${id}@${DOMAIN}`);
const setVisibility = async (as: Account, value: number) =>
  expectSuccess(await t.patch('settings', { as, form: { email_address_visibility: value } }));
const strip = (es: Record<string, unknown>[]) => es.map(({ id: _id, ...e }) => e);
/** The user's avatar URL as GET /users/{id} shows it when the client does not compute Gravatars. */
const avatarOf = async (u: Target) =>
  (await t.get(`users/${u.account.id}`, { query: { client_gravatar: false } })).body.user.avatar_url as string;
/** Per target value: its avatar URL. */
const avatars = new Map<Value, string>();

async function makeTarget(name: string, v: Value): Promise<Target> {
  const account = await t.createUser({ email: `${name}@example.com`, fullName: `Target ${name}` });
  await setVisibility(account, v);
  return { account, value: v, real: `${name}@example.com`, api: apiEmail(account.id, `${name}@example.com`, v) };
}

/** What `role` must see of `target`: its API email, and its real address or null. */
const shown = (role: RoleName, target: Target) => ({
  email: target.api,
  delivery_email: SEES[role].includes(target.value) ? target.real : null,
});

const CASES = ROLES.flatMap((role) => Object.entries(VALUES).map(([name, v]) => [role, name, v] as [RoleName, string, Value]));

beforeAll(async () => {
  t = await TestApp.start();
  viewers.owner = t.owner;
  for (const role of ROLES.slice(1)) viewers[role] = await t.createUser({ role: ROLE_IDS[role], fullName: `Viewer ${role}` });
  for (const v of Object.values(VALUES)) {
    active.set(v, await makeTarget(`shown${v}`, v));
    const g = await makeTarget(`gone${v}`, v);
    expectSuccess(await t.delete(`users/${g.account.id}`));
    gone.set(v, g);
  }
  for (const role of ROLES) {
    queues[role] = await EventClient.register(t, viewers[role], { event_types: ['message', 'reaction', 'typing', 'presence'] });
  }
  // Every target writes to all viewers, reacts, types and comes online: each viewer's queue
  // then holds one event of each kind per target.
  const everyone = ROLES.map((r) => viewers[r].id);
  for (const target of active.values()) {
    const sent = await t.post('messages', { as: target.account, form: { type: 'direct', to: everyone, content: `from ${target.value}` } });
    expectSuccess(sent);
    dmOf.set(target.value, sent.body.id);
    expectSuccess(await t.post(`messages/${sent.body.id}/reactions`, { as: target.account, form: { emoji_name: 'smile' } }));
    expectSuccess(await t.post('typing', { as: target.account, form: { op: 'start', to: everyone } }));
    expectSuccess(await t.post('users/me/presence', { as: target.account, form: { status: 'active' } }));
  }
  for (const target of active.values()) avatars.set(target.value, await avatarOf(target));
  const want = active.size * 4;
  for (const role of ROLES) {
    const got: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && got.length < want; i++) got.push(...(await queues[role].next()));
    events[role] = got;
  }
});
afterAll(() => t.close());

describe.each(CASES)('%s looking at a user whose email_address_visibility is %s (%i)', (role, _name, v) => {
  const viewer = () => viewers[role];
  const target = () => active.get(v)!;
  const deactivated = () => gone.get(v)!;

  it('GET /users and GET /users/{id}', async () => {
    const members = (await t.get('users', { as: viewer() })).body.members as Record<string, unknown>[];
    for (const u of [target(), deactivated()]) {
      expect(members.find((m) => m.user_id === u.account.id)).toMatchObject(shown(role, u));
      const one = await t.get(`users/${u.account.id}`, { as: viewer() });
      expectSuccess(one);
      expect(one.body.user).toMatchObject(shown(role, u));
    }
  });

  it('GET /users/{email}: by the API email always, by the real address only when the viewer may see it', async () => {
    for (const u of [target(), deactivated()]) {
      const byApi = await t.get(`users/${encodeURIComponent(u.api)}`, { as: viewer() });
      expectSuccess(byApi);
      expect(byApi.body.user).toMatchObject({ user_id: u.account.id, ...shown(role, u) });
      const byReal = await t.get(`users/${encodeURIComponent(u.real)}`, { as: viewer() });
      if (SEES[role].includes(v)) expect(byReal.body.user).toMatchObject({ user_id: u.account.id, ...shown(role, u) });
      else expectError(byReal, 400, 'No such user');
    }
  });

  it('POST /register: realm_users and realm_non_active_users', async () => {
    const res = await t.post('register', { as: viewer(), form: { fetch_event_types: ['realm_user'] } });
    expectSuccess(res);
    const find = (list: Record<string, unknown>[], id: number) => list.find((u) => u.user_id === id);
    expect(find(res.body.realm_users, target().account.id)).toMatchObject(shown(role, target()));
    expect(find(res.body.realm_non_active_users, deactivated().account.id)).toMatchObject(shown(role, deactivated()));
  });

  it('messages: sender_email, the direct message participants and the avatar', async () => {
    const res = await t.get(`messages/${dmOf.get(v)}`, { as: viewer() });
    expectSuccess(res);
    expect(res.body.message.sender_email).toBe(target().api);
    const participant = (res.body.message.display_recipient as { id: number; email: string }[]).find((p) => p.id === target().account.id);
    expect(participant?.email).toBe(target().api);
    // The sender's avatar is the user's own (a Gravatar of the real address, as GET /users shows
    // it); with client_gravatar the client computes it only when it can: when the address is public.
    const avatar = await avatarOf(target());
    expect(res.body.message.avatar_url).toBe(v === VALUES.everyone ? null : avatar);
    for (const clientGravatar of [false, true]) {
      const [fetched] = (
        await t.get('messages', {
          as: viewer(),
          query: { anchor: dmOf.get(v), num_before: 0, num_after: 0, client_gravatar: clientGravatar },
        })
      ).body.messages as { id: number; avatar_url: string | null }[];
      expect(fetched.id).toBe(dmOf.get(v));
      expect(fetched.avatar_url, `client_gravatar: ${clientGravatar}`).toBe(clientGravatar && v === VALUES.everyone ? null : avatar);
    }
  });

  it('events: message, reaction, typing and presence name the user by the API email', () => {
    const id = target().account.id;
    const mine = events[role];
    const message = mine.find((e) => e.type === 'message' && (e.message as { id: number }).id === dmOf.get(v))?.message as Record<string, unknown>;
    expect(message.sender_email).toBe(target().api);
    expect((message.display_recipient as { id: number; email: string }[]).find((p) => p.id === id)?.email).toBe(target().api);
    // The queues use client_gravatar (register's default): only public addresses leave it to the client.
    expect(message.avatar_url).toBe(v === VALUES.everyone ? null : avatars.get(v));
    expect(mine.find((e) => e.type === 'reaction' && e.user_id === id)).toMatchObject({ user: { user_id: id, email: target().api } });
    expect(mine.find((e) => e.type === 'typing' && (e.sender as { user_id: number }).user_id === id)).toMatchObject({
      sender: { user_id: id, email: target().api },
    });
    expect(mine.find((e) => e.type === 'presence' && e.user_id === id)).toMatchObject({ email: target().api });
  });

  it('presence: GET /realm/presence keys the user by the API email, GET /users/{email}/presence finds them by it', async () => {
    const res = await t.get('realm/presence', { as: viewer() });
    expectSuccess(res);
    expect(Object.keys(res.body.presences)).toContain(target().api);
    if (v !== VALUES.everyone) expect(Object.keys(res.body.presences)).not.toContain(target().real);
    // GET /users/{email}/presence goes by the API email (Zulip's get_active_user).
    expectSuccess(await t.get(`users/${encodeURIComponent(target().api)}/presence`, { as: viewer() }));
    const byReal = await t.get(`users/${encodeURIComponent(target().real)}/presence`, { as: viewer() });
    if (v === VALUES.everyone) expectSuccess(byReal);
    else expectError(byReal, 400, 'No such user');
  });

  it('a direct message to the API email arrives; one to a hidden real address is refused like an unknown one', async () => {
    expectSuccess(await t.post('messages', { as: viewer(), form: { type: 'direct', to: [target().api], content: 'by API email' } }));
    const byReal = await t.post('messages', { as: viewer(), form: { type: 'direct', to: [target().real], content: 'by real address' } });
    if (v === VALUES.everyone) expectSuccess(byReal);
    else expectError(byReal, 400, `Invalid email '${target().real}'`);
    // Exactly what an address nobody has gets.
    expectError(
      await t.post('messages', { as: viewer(), form: { type: 'direct', to: ['nobody-at-all@example.com'], content: 'x' } }),
      400,
      "Invalid email 'nobody-at-all@example.com'",
    );
  });

  it('narrows: sender and dm by the API email; a hidden real address is an unknown user', async () => {
    const narrow = (operator: string, operand: string) =>
      t.get('messages', { as: viewer(), query: { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator, operand }] } });
    for (const operator of ['sender', 'dm']) {
      const byApi = await narrow(operator, target().api);
      expectSuccess(byApi);
      expect((byApi.body.messages as { id: number }[]).length).toBeGreaterThan(0);
      const byReal = await narrow(operator, target().real);
      if (v === VALUES.everyone) expectSuccess(byReal);
      else expectError(byReal, 400, `Invalid narrow operator: unknown user ${target().real}`, 'BAD_NARROW', { desc: `unknown user ${target().real}` });
    }
  });
});

describe.each(Object.entries(VALUES))('the user themself, with email_address_visibility %s (%i)', (_name, v) => {
  it('sees both addresses in GET /users/me and register', async () => {
    const me = active.get(v as Value)!;
    expectSuccess(await t.get('users/me', { as: me.account }), { email: me.api, delivery_email: me.real });
    const res = await t.post('register', { as: me.account, form: { fetch_event_types: ['realm_user', 'user_settings'] } });
    expectSuccess(res, { email: me.api, delivery_email: me.real });
    expect(res.body.user_settings.email_address_visibility).toBe(v);
    expect(res.body.realm_users.find((u: { user_id: number }) => u.user_id === me.account.id)).toMatchObject({ email: me.api, delivery_email: me.real });
  });

});

describe.each(Object.entries(VALUES))('principals naming a user whose email_address_visibility is %s (%i)', (_name, v) => {
  it('go by the API email; a hidden real address is "No such user", as an unknown one', async () => {
    const u = active.get(v as Value)!;
    const subscribe = (principal: string) =>
      t.post('users/me/subscriptions', { form: { subscriptions: [{ name: `principals-${v}` }], principals: [principal] } });
    expectSuccess(await subscribe(u.api));
    const byReal = await subscribe(u.real);
    if (v === VALUES.everyone) expectSuccess(byReal);
    else expectError(byReal, 400, 'No such user');
    expectError(await subscribe('nobody-at-all@example.com'), 400, 'No such user');
  });
});

describe('changing email_address_visibility', () => {
  it('tells each viewer of a gained or lost real address, and everyone of the API email when "everyone" is involved', async () => {
    const u = await t.createUser({ email: 'mover@example.com', fullName: 'Mover' });
    const watch = async (as: Account) => EventClient.register(t, as, { event_types: ['realm_user'] });
    const own = await watch(u);
    const watching = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await watch(viewers[r])] as const))) as Record<RoleName, EventClient>;
    const values = Object.values(VALUES);
    let current: Value = VALUES.everyone;
    const go = async (next: Value) => {
      const before = current;
      await setVisibility(u, next);
      current = next;
      const api = apiEmail(u.id, 'mover@example.com', next);
      const avatar = expect.stringContaining('gravatar');
      const emailChange =
        before === VALUES.everyone || next === VALUES.everyone
          ? [
              { type: 'realm_user', op: 'update', person: { user_id: u.id, new_email: api } },
              { type: 'realm_user', op: 'update', person: { avatar_source: 'G', avatar_url: avatar, avatar_url_medium: avatar, avatar_version: 1, user_id: u.id } },
            ]
          : [];
      for (const role of ROLES) {
        const was = SEES[role].includes(before);
        const is = SEES[role].includes(next);
        const delivery = was === is ? [] : [{ type: 'realm_user', op: 'update', person: { user_id: u.id, delivery_email: is ? 'mover@example.com' : null } }];
        const expected = [...delivery, ...emailChange];
        const got = expected.length === 0 ? await watching[role].drain() : await watching[role].next();
        expect(strip(got), `${role}: ${before} → ${next}`).toEqual(expected);
      }
      expect(strip(emailChange.length > 0 ? await own.next() : await own.drain()), `self: ${before} → ${next}`).toEqual(emailChange);
      // Every surface agrees with the events.
      for (const role of ROLES) {
        const seen = (await t.get(`users/${u.id}`, { as: viewers[role] })).body.user;
        expect(seen, `${role} after ${before} → ${next}`).toMatchObject({
          email: api,
          delivery_email: SEES[role].includes(next) ? 'mover@example.com' : null,
        });
      }
    };
    // Every ordered pair of distinct values, each transition checked.
    for (const from of values) {
      for (const to of values) {
        if (from === to) continue;
        if (current !== from) await go(from);
        await go(to);
      }
    }
  });
});
