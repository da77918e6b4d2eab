import { EventClient } from '../../support/events.js';
import { cookieHeader, logIn } from '../../support/sessions.js';
import { type Account, expectError, expectSuccess, OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/**
 * POST /realm/deactivate (issue 25, Zulip's deactivate_realm): owners only; the organization is
 * deactivated (deletion_delay_days schedules its data's deletion), its browser sessions end,
 * its owners are emailed, the `realm` `deactivated` event flushes the open long-polls, and every
 * later request of the organization is refused. Each deactivation here uses an organization of
 * its own.
 */
let t: TestApp;
let orgs = 0;
const PASSWORD = 'Deactivation-correct-horse-battery';
const DEACTIVATED = 'This organization has been deactivated';

beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

interface Org {
  realmId: number;
  host: string;
  owner: Account;
  owner2: Account;
  admin: Account;
  member: Account;
  guest: Account;
  bot: Account;
}

/** A fresh organization with two owners, an administrator, a member, a guest and a bot. */
async function organization(): Promise<Org> {
  orgs += 1;
  const stringId = `gone${orgs}`;
  const host = `${stringId}.chat.example.com`;
  const owner = await t.createOrganization(stringId, `founder${orgs}@example.com`);
  const realmId = (await t.sql(`SELECT id FROM realms WHERE string_id = $1`, [stringId]))[0].id as number;
  const make = async (name: string, role: number) => {
    const email = `${name}${orgs}@example.com`;
    const res = await t.post('users', { as: owner, form: { email, password: PASSWORD, full_name: `${name} ${orgs}` } });
    expectSuccess(res);
    if (role !== 400) expectSuccess(await t.patch(`users/${res.body.user_id}`, { as: owner, form: { role } }));
    return t.login(email, PASSWORD, host);
  };
  const owner2 = await make('cofounder', 100);
  const admin = await make('admin', 200);
  const member = await make('member', 400);
  const guest = await make('guest', 600);
  const b = await t.post('bots', { as: member, form: { full_name: `bot ${orgs}`, short_name: `gonebot${orgs}` } });
  expectSuccess(b);
  const bot = { id: b.body.user_id, email: `gonebot${orgs}-bot@${host}`, apiKey: b.body.api_key, host };
  return { realmId, host, owner, owner2, admin, member, guest, bot };
}

const deactivate = (as: Account, form: Record<string, unknown> = {}) => t.post('realm/deactivate', { as, form });
const isDeactivated = async (realmId: number) =>
  (await t.sql(`SELECT deactivated, scheduled_deletion_date FROM realms WHERE id = $1`, [realmId]))[0] as { deactivated: boolean; scheduled_deletion_date: Date | null };
const outbox = async (realmId: number) =>
  (await t.sql(`SELECT to_address, subject, body FROM email_outbox WHERE realm_id = $1 AND kind = 'realm_deactivated' ORDER BY to_address`, [realmId])) as {
    to_address: string;
    subject: string;
    body: string;
  }[];

describe('POST /realm/deactivate', () => {
  it('deactivates the organization: the event to every open queue, sessions ended, owners emailed, then every request refused', async () => {
    const o = await organization();
    const session = await logIn(t, o.member.email, PASSWORD, o.host);
    expect((await t.http.get('/json/users/me').set('Host', o.host).set('Cookie', cookieHeader(session))).status).toBe(200);
    const watcher = await EventClient.register(t, o.member, { event_types: ['realm'] });
    // A long-poll open when the organization goes is answered with the event.
    const guestQueue = (await EventClient.register(t, o.guest, { event_types: ['realm'] })).queueId;
    // (A supertest request is sent when awaited: then() sends it now.)
    const poll = t.get('events', { as: o.guest, query: { queue_id: guestQueue, last_event_id: -1 } }).then((r) => r);
    await new Promise((r) => setTimeout(r, 200));

    const res = await deactivate(o.owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });

    const flushed = await poll;
    expect(flushed.status).toBe(200);
    expect(flushed.body.events.filter((e: { type: string }) => e.type !== 'heartbeat').map(({ id: _id, ...e }: { id: number }) => e)).toEqual([
      { type: 'realm', op: 'deactivated', realm_id: o.realmId },
    ]);
    expect(await isDeactivated(o.realmId)).toEqual({ deactivated: true, scheduled_deletion_date: null });
    expect(await t.sql(`SELECT count(*)::int AS n FROM sessions WHERE realm_id = $1`, [o.realmId])).toEqual([{ n: 0 }]);

    // Every later request of the organization is refused: its queues, its API, its browser sessions.
    await vi.waitFor(async () => {
      const r = await t.get('events', { as: o.member, query: { queue_id: watcher.queueId, last_event_id: -1, dont_block: true } });
      expectError(r, 401, DEACTIVATED, 'UNAUTHORIZED');
    });
    for (const as of [o.owner, o.admin, o.bot]) expectError(await t.get('users/me', { as }), 401, DEACTIVATED, 'UNAUTHORIZED');
    expect((await t.http.get('/json/users/me').set('Host', o.host).set('Cookie', cookieHeader(session))).status).toBe(401);
    expect((await t.post('fetch_api_key', { as: null, host: o.host, form: { username: o.member.email, password: PASSWORD } })).body.code).toBe('REALM_DEACTIVATED');

    // Each active human owner is told; the deactivating owner in the first person.
    const mails = await outbox(o.realmId);
    expect(mails.map((m) => m.to_address)).toEqual([`cofounder${orgs}@example.com`, `founder${orgs}@example.com`]);
    for (const m of mails) expect(m.subject).toBe(`Your Zulip organization Org gone${orgs} has been deactivated`);
    expect(mails[1].body).toMatch(new RegExp(`^You have deactivated your Zulip organization, Org gone${orgs}, on [A-Z][a-z]+\\.? \\d{1,2}, \\d{4}\\.\n`));
    const [{ full_name: founder }] = await t.sql(`SELECT full_name FROM users WHERE id = $1`, [o.owner.id]);
    expect(mails[0].body.startsWith(`Your Zulip organization, Org gone${orgs}, was deactivated by ${founder} on `)).toBe(true);
    expect(mails[0].body).toContain('If you have any questions or concerns, please reply to this email as soon as possible.');
    expect(mails[0].body).not.toContain('permanently deleted');
  });

  it('schedules the data’s deletion: deletion_delay_days, at least 14 days, told in the email', async () => {
    const o = await organization();
    const before = Date.now();
    expectSuccess(await deactivate(o.owner, { deletion_delay_days: 30 }));
    const { scheduled_deletion_date: at } = await isDeactivated(o.realmId);
    const days = (at!.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(29.9);
    expect(days).toBeLessThan(30.1);
    for (const m of await outbox(o.realmId)) expect(m.body).toMatch(/All data associated with this organization will be permanently deleted on [A-Z][a-z]+\.? \d{1,2}, \d{4}\./);

    const o2 = await organization();
    expectSuccess(await deactivate(o2.owner, { deletion_delay_days: null }));
    expect(await isDeactivated(o2.realmId)).toEqual({ deactivated: true, scheduled_deletion_date: null });
  });

  it.each([
    [{ deletion_delay_days: 13 }, 'Data deletion time must be at least 14 days in the future.'],
    [{ deletion_delay_days: 0 }, 'Data deletion time must be at least 14 days in the future.'],
    [{ deletion_delay_days: -30 }, 'Data deletion time must be at least 14 days in the future.'],
    [{ deletion_delay_days: 'soon' }, 'deletion_delay_days is not valid JSON'],
    [{ deletion_delay_days: '"30"' }, 'deletion_delay_days is not an integer'],
    [{ deletion_delay_days: 30.5 }, 'deletion_delay_days is not an integer'],
    // Oversized: a date no layer can hold.
    [{ deletion_delay_days: 10 ** 12 }, 'deletion_delay_days is too large'],
    [{ deletion_delay_days: '1'.repeat(5000) }, 'deletion_delay_days is not an integer'],
  ])('refuses deletion_delay_days=%#, with %s, and the organization stays', async (form, msg) => {
    const o = await organization();
    expectError(await deactivate(o.owner, form), 400, msg);
    expect(await isDeactivated(o.realmId)).toEqual({ deactivated: false, scheduled_deletion_date: null });
    expectSuccess(await t.get('users/me', { as: o.member }));
    expect(await outbox(o.realmId)).toEqual([]);
  });

  it('is for owners only: administrators and everyone below are refused, and nothing changes', async () => {
    const o = await organization();
    for (const as of [o.admin, o.member, o.guest, o.bot]) {
      expectError(await deactivate(as), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    }
    expectError(await t.post('realm/deactivate', { as: null, host: o.host }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    expect(await isDeactivated(o.realmId)).toEqual({ deactivated: false, scheduled_deletion_date: null });
    expectSuccess(await t.get('users/me', { as: o.member }));
  });

  it('deactivates only the caller’s organization', async () => {
    const o = await organization();
    const root = await EventClient.register(t, t.owner, { event_types: ['realm'] });
    expectSuccess(await deactivate(o.owner));
    expectSuccess(await t.get('users/me'));
    expect(await isDeactivated(1)).toEqual({ deactivated: false, scheduled_deletion_date: null });
    expect(await root.drain()).toEqual([]);
    expect((await t.login(OWNER_EMAIL, OWNER_PASSWORD)).id).toBe(t.owner.id);
  });
});
