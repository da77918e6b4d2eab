import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { deliverAllEmail, SmtpTestServer } from '../../support/smtp-test-server.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Issue 16: joining from an invitation. The invitation is sent over SMTP to a real server in
 * this process; the link in the received email opens the sign-up form, whose POST creates the
 * account with the invitation's role and channels; then the new user logs in.
 */
let t: TestApp;
let smtp: SmtpTestServer;
let ch: Record<string, number>;
let groupId: number;
let n = 0;
const PASSWORD = 'Joined-correct-horse-battery-staple';
const DEAD = 'This confirmation link has expired or been deactivated.';

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  t = await TestApp.start({ SMTP_URL: smtp.url(), EMAIL_POLL_INTERVAL_MS: '0' });
  ch = await createChannels(t, ['signup-room', 'other-room']);
  // 'welcome' is a default channel besides the organization's initial ones.
  Object.assign(ch, await createChannels(t, ['welcome'], { form: { is_default_stream: true } }));
  groupId = (await t.post('user_groups/create', { form: { name: 'joiners', description: 'new people', members: [] } })).body.group_id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const deliverAll = () => deliverAllEmail(t.app);
const fresh = () => `joiner${++n}@example.com`;
const path = (link: string) => new URL(link).pathname;
const open = (link: string, host?: string) => t.get(path(link), { as: null, host });
const submit = (link: string, form: Record<string, string>, host?: string) => t.post(path(link), { as: null, host, form });
const userCount = async () => (await t.sql(`SELECT count(*)::int AS n FROM users`))[0].n as number;
const invitationStatus = async (email: string) => (await t.sql(`SELECT status FROM invitations WHERE email = $1 ORDER BY id`, [email])).map((r) => r.status);

/** Invites `email` as `as` (the owner by default) and returns the link of the email it received over SMTP. */
async function invite(email: string, form: Record<string, unknown> = {}, as: Account = t.owner): Promise<string> {
  expectSuccess(await t.post('invites', { as, form: { invitee_emails: email, stream_ids: [ch['signup-room']], ...form } }));
  await deliverAll();
  const mail = smtp.to(email).at(-1)!;
  const link = /https?:\/\/[^\s<>]+\/accounts\/do_confirm\/[a-z2-7]{24}/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeDefined();
  return link!;
}

async function subscribedNames(a: Account): Promise<string[]> {
  const res = await t.get('users/me/subscriptions', { as: a });
  return res.body.subscriptions.map((s: { name: string }) => s.name).sort();
}

it('signs up through the emailed link: the invitation’s role and channels, then a login with the password', async () => {
  const email = fresh();
  const link = await invite(email, { invite_as: 300, group_ids: [groupId] });
  expect(smtp.to(email)[0].headers.subject).toMatch(/has invited you to join/);

  const form = await open(link);
  expect(form.status).toBe(200);
  expect(form.headers['content-type']).toMatch(/^text\/html/);
  expect(form.text).toContain(email);
  expect(form.text).toContain('name="full_name"');
  expect(form.text).toContain('name="password"');
  expect(form.text).not.toContain('name="email"');

  expectSuccess(await t.patch('realm', { form: { signup_announcements_stream_id: ch['signup-room'] } }));
  const events = await EventClient.register(t, t.owner, { event_types: ['realm_user'] });
  const done = await submit(link, { full_name: 'Joe Joiner', password: PASSWORD });
  expect(done.status, done.text).toBe(200);
  expect(done.text).toContain('Your account is ready');
  expect(done.text).toContain('http://chat.example.com');

  const me = await t.login(email, PASSWORD);
  const profile = await t.get('users/me', { as: me });
  expect(profile.body).toMatchObject({ result: 'success', email, full_name: 'Joe Joiner', role: 300, is_bot: false });
  expect(await subscribedNames(me)).toEqual(['signup-room']);
  expect(await invitationStatus(email)).toEqual([1]);
  // What our user creation sends: the realm_user event, the Notification Bot's announcement.
  const [added] = await events.ofType('realm_user');
  expect(added).toMatchObject({ op: 'add', person: { user_id: me.id, full_name: 'Joe Joiner', role: 300 } });
  const narrow = [{ operator: 'channel', operand: 'signup-room' }, { operator: 'topic', operand: 'signups' }];
  const announced = await t.get('messages', { query: { anchor: 'newest', num_before: 5, num_after: 0, narrow } });
  expect(announced.body.messages.at(-1).content).toContain('joined this organization.');
  expect(announced.body.messages.at(-1).content).toContain('Joe Joiner');
  // The invitation's group, and the inviter's notice (notify_referrer_on_join, on by default).
  expect((await t.get(`user_groups/${groupId}/members`)).body.members).toContain(me.id);
  const dms = await t.get('messages', { query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] } });
  const notice = dms.body.messages.at(-1);
  expect(notice.content).toContain('accepted your invitation to join');
  expect(notice.content).toContain('Joe Joiner');
  expect(notice.sender_full_name).toBe('Notification Bot');
  // The welcome email our user creation sends, delivered too.
  await deliverAll();
  expect(smtp.to(email).map((m) => m.headers.subject).some((s) => !/has invited you/.test(s))).toBe(true);
});

it('adds the organization’s default channels when the invitation says so', async () => {
  const email = fresh();
  const link = await invite(email, { include_realm_default_subscriptions: true });
  expect((await submit(link, { full_name: 'Default Joiner', password: PASSWORD })).status).toBe(200);
  const names = await subscribedNames(await t.login(email, PASSWORD));
  expect(names).toContain('signup-room');
  expect(names).toContain('welcome');
  expect(names).not.toContain('other-room');
});

it('an email invitation works once; another organization’s or an unknown key is the same dead link', async () => {
  const email = fresh();
  const link = await invite(email);
  expect((await submit(link, { full_name: 'Once', password: PASSWORD })).status).toBe(200);
  const owner2 = await t.createOrganization('signupother', 'owner2@example.com');
  const before = await userCount();

  const reused = await submit(link, { full_name: 'Twice', password: PASSWORD });
  expect(reused.status).toBe(404);
  expect(reused.text).toContain(DEAD);
  expect((await open(link)).status).toBe(404);

  const unknown = await open(link.replace(/[a-z2-7]{24}$/, 'a'.repeat(24)));
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain(DEAD);
  expect((await open(link.replace(/[a-z2-7]{24}$/, 'not-a-key'))).status).toBe(404);

  const theirs = fresh();
  expectSuccess(await t.post('invites', { as: owner2, form: { invitee_emails: theirs, stream_ids: [] } }));
  await deliverAll();
  const theirLink = /https?:\/\/[^\s<>]+\/accounts\/do_confirm\/[a-z2-7]{24}/.exec(smtp.to(theirs).at(-1)!.text)![0];
  expect(theirLink).toContain('signupother.chat.example.com');
  const here = await open(theirLink);
  expect(here.status).toBe(404);
  expect(here.text).toBe(unknown.text);
  expect((await submit(theirLink, { full_name: 'Wrong Org', password: PASSWORD })).status).toBe(404);
  expect(await userCount()).toBe(before);
  // Under its own organization's host, it works.
  expect((await open(theirLink, 'signupother.chat.example.com')).status).toBe(200);
});

it('refuses a revoked invitation and an expired one (INVITATION_LINK_VALIDITY_MINUTES), writing nothing', async () => {
  const revoked = fresh();
  const link = await invite(revoked);
  const id = (await t.get('invites')).body.invites.find((i: { email?: string }) => i.email === revoked).id;
  expectSuccess(await t.delete(`invites/${id}`));
  const before = await userCount();
  expect((await open(link)).status).toBe(404);
  expect((await submit(link, { full_name: 'Revoked', password: PASSWORD })).status).toBe(404);

  const late = fresh();
  const lateLink = await invite(late, { invite_expires_in_minutes: 60 });
  expect((await open(lateLink)).status).toBe(200);
  t.clock.advance(3601);
  const expired = await submit(lateLink, { full_name: 'Late', password: PASSWORD });
  expect(expired.status).toBe(404);
  expect(expired.text).toContain(DEAD);
  expect((await open(lateLink)).status).toBe(404);
  expect(await userCount()).toBe(before);
  expect(await invitationStatus(late)).toEqual([0]);
});

it('answers a weak password, a missing full name or a taken address with the form again (400), and the link still works', async () => {
  const email = fresh();
  const link = await invite(email);
  const before = await userCount();
  const outbox = (await t.sql(`SELECT count(*)::int AS n FROM email_outbox`))[0].n;

  const weak = await submit(link, { full_name: 'Weak', password: 'abc123' });
  expect(weak.status).toBe(400);
  expect(weak.text).toContain('The password is too weak.');
  expect(weak.text).toContain('name="password"');
  expect(weak.text).toContain('value="Weak"');
  const nameless = await submit(link, { password: PASSWORD });
  expect(nameless.status).toBe(400);
  expect(nameless.text).toContain('Name must not be empty!');
  const badName = await submit(link, { full_name: 'a<b>\u0007', password: PASSWORD });
  expect(badName.status).toBe(400);
  expect(badName.text).toContain('Invalid characters in name!');
  expect(badName.text).not.toContain('<b>');

  expect(await userCount()).toBe(before);
  expect(await invitationStatus(email)).toEqual([0]);
  expect((await t.sql(`SELECT count(*)::int AS n FROM email_outbox`))[0].n).toBe(outbox);

  // Taken meanwhile (an administrator created the account): refused, nothing written.
  expectSuccess(await t.post('users', { form: { email, password: PASSWORD, full_name: 'Made By Admin' } }));
  const taken = await submit(link, { full_name: 'Taken', password: PASSWORD });
  expect(taken.status).toBe(400);
  expect(taken.text).toContain(`Email &#39;${email}&#39; already in use`);
  expect(await invitationStatus(email)).toEqual([0]);
});

it('a reusable link asks for the address, works for several people, and follows the organization’s address rules', async () => {
  const res = await t.post('invites/multiuse', { form: { invite_as: 600, stream_ids: [ch['other-room']] } });
  expectSuccess(res);
  const link: string = res.body.invite_link;
  expect(link).toMatch(/\/join\/[a-z2-7]{24}\/$/);

  const form = await open(link);
  expect(form.status).toBe(200);
  expect(form.text).toContain('name="email"');

  const [a, b] = [fresh(), fresh()];
  expect((await submit(link, { email: a, full_name: 'Multi A', password: PASSWORD })).status).toBe(200);
  expect((await submit(link, { email: b, full_name: 'Multi B', password: PASSWORD })).status).toBe(200);
  for (const email of [a, b]) {
    const me = await t.login(email, PASSWORD);
    expect((await t.get('users/me', { as: me })).body.role).toBe(600);
    expect(await subscribedNames(me)).toEqual(['other-room']);
  }

  const before = await userCount();
  const bad = await submit(link, { email: 'not-an-address', full_name: 'Bad', password: PASSWORD });
  expect(bad.status).toBe(400);
  expect(bad.text).toContain('Enter a valid email address.');
  expect(bad.text).toContain('value="not-an-address"');
  expectSuccess(await t.post('realm/domains', { form: { domain: 'example.com', allow_subdomains: false } }));
  expectSuccess(await t.patch('realm', { form: { emails_restricted_to_domains: true } }));
  try {
    const outside = await submit(link, { email: 'someone@elsewhere.org', full_name: 'Outside', password: PASSWORD });
    expect(outside.status).toBe(400);
    expect(outside.text).toMatch(/not allowed|outside/i);
  } finally {
    expectSuccess(await t.patch('realm', { form: { emails_restricted_to_domains: false } }));
    expectSuccess(await t.delete('realm/domains/example.com'));
  }
  const dup = await submit(link, { email: a, full_name: 'Again', password: PASSWORD });
  expect(dup.status).toBe(400);
  expect(await userCount()).toBe(before);

  // An emailed link is not a reusable one, and the other way round.
  expect((await open(link.replace('/join/', '/accounts/do_confirm/').replace(/\/$/, ''))).status).toBe(404);

  const id = (await t.get('invites')).body.invites.find((i: { is_multiuse: boolean; link_url?: string }) => i.is_multiuse && i.link_url === link).id;
  expectSuccess(await t.delete(`invites/multiuse/${id}`));
  expect((await open(link)).status).toBe(404);
  expect((await submit(link, { email: fresh(), full_name: 'After Revoke', password: PASSWORD })).status).toBe(404);
  expect(await userCount()).toBe(before);
});

it('a sign-up ends the address’s other pending invitations', async () => {
  const email = fresh();
  const first = await invite(email);
  const second = await invite(email);
  expect((await submit(second, { full_name: 'Second Link', password: PASSWORD })).status).toBe(200);
  expect(await invitationStatus(email)).toEqual([2, 1]);
  expect((await open(first)).status).toBe(404);
});

it('two simultaneous sign-ups through one invitation: one account, the other gets the dead link', async () => {
  const email = fresh();
  const link = await invite(email);
  const answers = await Promise.all([
    submit(link, { full_name: 'Racer One', password: PASSWORD }),
    submit(link, { full_name: 'Racer Two', password: PASSWORD }),
  ]);
  expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
  expect(await t.sql(`SELECT full_name FROM users WHERE email = $1`, [email])).toHaveLength(1);
  // Through a reusable link, the same address twice at once: one account, the other "already in use".
  const multi = (await t.post('invites/multiuse', { form: { stream_ids: [] } })).body.invite_link as string;
  const other = fresh();
  const both = await Promise.all([1, 2].map((i) => submit(multi, { email: other, full_name: `Racer ${i}`, password: PASSWORD })));
  expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
  expect(await t.sql(`SELECT id FROM users WHERE email = $1`, [other])).toHaveLength(1);
});

describe('rate limit (RATE_LIMITING on)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await TestApp.start({ RATE_LIMITING: 'true' });
  }, 60_000);
  afterAll(() => limited?.close());

  it('allows 100 sign-up attempts a minute per client address (API_BY_IP), then a 429 page', async () => {
    const dead = `/accounts/do_confirm/${'a'.repeat(24)}`;
    const form = { full_name: 'Guesser', password: PASSWORD };
    for (let i = 0; i < 100; i++) expect((await limited.post(dead, { as: null, form })).status).toBe(404);
    const refused = await limited.post(`/join/${'b'.repeat(24)}/`, { as: null, form: { ...form, email: 'g@example.com' } });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.text).toContain('too many sign-up attempts');
    // The form itself (GET) is not counted; a minute later, posts are answered again.
    expect((await limited.get(dead, { as: null })).status).toBe(404);
    limited.clock.advance(61);
    expect((await limited.post(dead, { as: null, form })).status).toBe(404);
  });
});
