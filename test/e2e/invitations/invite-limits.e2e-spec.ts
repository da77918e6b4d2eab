import pg from 'pg';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let member: Account;
let foreign: Account;
const DAY = 86_400;
const LIMIT_MSG =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';
const limitReached = { errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true };

beforeAll(async () => {
  t = await TestApp.start({ INVITES_DEFAULT_REALM_DAILY_MAX: '3', INVITATION_LINK_VALIDITY_MINUTES: '90' });
  member = await t.createUser({ fullName: 'Member' });
  foreign = await t.createOrganization('limits-elsewhere');
});
afterAll(() => t.close());

const invite = (as: Account, emails: string) => t.post('invites', { as, form: { invitee_emails: emails, stream_ids: [] } });
const outboxCount = async () => {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    return (await c.query(`SELECT count(*)::int AS n FROM email_outbox WHERE kind = 'invitation'`)).rows[0].n as number;
  } finally {
    await c.end();
  }
};

describe('the daily invitation limit', () => {
  it('counts the addresses of a request plus what was sent in the last day', async () => {
    expectSuccess(await invite(member, 'a@example.com, b@example.com'));
    // Two more would make four: refused as a whole, even the one that would fit.
    expectError(await invite(member, 'c@example.com, d@example.com'), 400, LIMIT_MSG, 'INVITATION_FAILED', limitReached);
    // Empty entries count too (Zulip counts the parsed set).
    expectError(await invite(member, 'c@example.com,'), 400, LIMIT_MSG, 'INVITATION_FAILED', limitReached);
    expect(await outboxCount()).toBe(2);
    expectSuccess(await invite(member, 'c@example.com'));
    expect(await outboxCount()).toBe(3);
  });

  it('counts resends, and is checked before the addresses', async () => {
    const list = (await t.get('invites', { as: member })).body.invites;
    expect(list).toHaveLength(3);
    expect(list[0].expiry_date - list[0].invited).toBe(90 * 60);
    expectError(await t.post(`invites/${list[0].id}/resend`, { as: member }), 400, LIMIT_MSG, 'INVITATION_FAILED', limitReached);
    expectError(await invite(member, 'not an address'), 400, LIMIT_MSG, 'INVITATION_FAILED', limitReached);
  });

  it('is per organization', async () => {
    expectSuccess(await invite(foreign, 'x@example.com, y@example.com, z@example.com'));
  });

  it('leaves reusable links alone', async () => {
    expectSuccess(await t.post('invites/multiuse', { as: t.owner }));
  });

  it('frees up as the day rolls on', async () => {
    t.clock.advance(DAY - 1);
    expectError(await invite(member, 'e@example.com'), 400, LIMIT_MSG, 'INVITATION_FAILED', limitReached);
    t.clock.advance(1);
    expectSuccess(await invite(member, 'e@example.com, f@example.com, g@example.com'));
    const first = (await t.get('invites', { as: t.owner })).body.invites.find((i: { email?: string }) => i.email === 'e@example.com');
    expectError(await t.post(`invites/${first.id}/resend`, { as: t.owner }), 400, LIMIT_MSG, 'INVITATION_FAILED', limitReached);
  });
});
