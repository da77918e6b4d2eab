import { createHash } from 'node:crypto';
import { deliverAllEmail, SmtpTestServer } from '../../support/smtp-test-server.js';
import { type Account, TestApp } from '../../support/test-app.js';

/**
 * Issue 16 §6: Zulip's password reset by email, through a real SMTP server in this process:
 * the form, the emailed link, the new password, then a login with it.
 */
let t: TestApp;
let smtp: SmtpTestServer;
let n = 0;

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  t = await TestApp.start({ SMTP_URL: smtp.url(), EMAIL_POLL_INTERVAL_MS: '0' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const deliverAll = () => deliverAllEmail(t.app);
const resetsTo = (to: string) => t.sql(`SELECT * FROM email_outbox WHERE to_address = $1 AND kind = 'password_reset' ORDER BY id`, [to]);
const ask = (email: string, o: { as?: TestApp } = {}) => (o.as ?? t).post('/accounts/password/reset/', { as: null, form: { email } });
const setPassword = (link: string, p1: string, p2 = p1) => t.post(new URL(link).pathname, { as: null, form: { new_password1: p1, new_password2: p2 } });
const openLink = (link: string) => t.get(new URL(link).pathname, { as: null });

/** A member with a known password. */
async function member(): Promise<{ email: string; password: string; account: Account }> {
  n += 1;
  const email = `reset${n}@example.com`;
  const password = `Old-${n}-correct-horse-battery`;
  const res = await t.post('users', { form: { email, password, full_name: `Reset ${n}` } });
  expect(res.body).toMatchObject({ result: 'success' });
  return { email, password, account: await t.login(email, password) };
}

/** Asks for a reset of `email`, delivers, and returns the link of the last email it received. */
async function resetLink(email: string): Promise<string> {
  const res = await ask(email);
  expect(res.status).toBe(200);
  await deliverAll();
  const mails = smtp.to(email).filter((m) => /^Password reset request/.test(m.headers.subject));
  const link = /http:\/\/chat\.example\.com\/accounts\/password\/reset\/[0-9a-f]{64}\//.exec(mails.at(-1)!.text)?.[0];
  expect(link).toBeDefined();
  return link!;
}

it('resets a password through the emailed link; the new one logs in, the old one no more, API keys keep working', async () => {
  const u = await member();
  const form = await t.get('/accounts/password/reset/', { as: null });
  expect(form.status).toBe(200);
  expect(form.text).toContain('<input type="email" name="email"');

  const link = await resetLink(u.email);
  const [mail] = smtp.to(u.email).filter((m) => /^Password reset request/.test(m.headers.subject));
  expect(mail.headers.subject).toBe('Password reset request for Demo Organization');
  expect(mail.text).toContain(`Word on the street is that you need a new password, ${u.email}.`);
  expect(mail.html).toContain(`<a href="${link}">Reset password</a>`);

  const page = await openLink(link);
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  expect(page.text).toContain('name="new_password1"');
  const done = await setPassword(link, 'New-battery-staple-horse-correct');
  expect(done.status).toBe(200);
  expect(done.text).toContain('Password reset complete');

  const again = await t.post('fetch_api_key', { as: null, form: { username: u.email, password: 'New-battery-staple-horse-correct' } });
  expect(again.body).toMatchObject({ result: 'success', api_key: u.account.apiKey, user_id: u.account.id });
  const old = await t.post('fetch_api_key', { as: null, form: { username: u.email, password: u.password } });
  expect(old.body).toMatchObject({ result: 'error', code: 'AUTHENTICATION_FAILED' });
  expect((await t.get('users/me', { as: u.account })).body).toMatchObject({ result: 'success', email: u.email });
});

it('stores only the token’s SHA-256, and a link works once', async () => {
  const u = await member();
  const link = await resetLink(u.email);
  const token = /([0-9a-f]{64})\/$/.exec(link)![1];
  const [row] = await t.sql(`SELECT token_sha256 FROM password_reset_tokens WHERE user_id = $1`, [u.account.id]);
  expect(row.token_sha256).toBe(createHash('sha256').update(token).digest('hex'));
  expect(JSON.stringify(await t.sql(`SELECT * FROM password_reset_tokens`))).not.toContain(token);

  expect((await setPassword(link, 'First-battery-staple-horse-correct')).status).toBe(200);
  const reused = await setPassword(link, 'Second-battery-staple-horse-correct');
  expect(reused.status).toBe(404);
  expect(reused.text).toContain('The password reset link was invalid');
  expect((await openLink(link)).status).toBe(404);
  expect((await t.post('fetch_api_key', { as: null, form: { username: u.email, password: 'First-battery-staple-horse-correct' } })).status).toBe(200);
});

it('a reset ends the user’s other links', async () => {
  const u = await member();
  const first = await resetLink(u.email);
  const second = await resetLink(u.email);
  expect(first).not.toBe(second);
  expect((await setPassword(second, 'Second-battery-staple-horse-correct')).status).toBe(200);
  expect((await setPassword(first, 'First-battery-staple-horse-correct')).status).toBe(404);
});

it('answers an unknown, deactivated or bot address exactly as a known one, and emails nobody', async () => {
  const k = await member();
  const known = await ask(k.email);
  const unknown = await ask('nobody-here@example.com');
  expect(unknown.status).toBe(known.status);
  expect(unknown.text.replace('nobody-here@example.com', 'X')).toBe(known.text.replace(k.email, 'X'));
  const gone = await member();
  expect((await t.delete(`users/${gone.account.id}`)).body).toMatchObject({ result: 'success' });
  expect((await ask(gone.email)).status).toBe(200);
  const bot = await t.createBot(t.owner, 'resetbot');
  expect((await ask(bot.email)).status).toBe(200);
  await deliverAll();
  for (const to of ['nobody-here@example.com', gone.email, bot.email]) {
    expect(await resetsTo(to)).toEqual([]);
    expect(smtp.to(to).filter((m) => m.headers.subject.startsWith('Password reset'))).toEqual([]);
  }
});

it('refuses an expired link (after 72 hours) and keeps the password', async () => {
  const u = await member();
  const link = await resetLink(u.email);
  t.clock.advance(72 * 3600 + 1);
  expect((await openLink(link)).status).toBe(404);
  expect((await setPassword(link, 'Late-battery-staple-horse-correct')).status).toBe(404);
  expect((await t.post('fetch_api_key', { as: null, form: { username: u.email, password: u.password } })).status).toBe(200);
});

it('refuses a weak or mismatched password with the form again, and the link still works', async () => {
  const u = await member();
  const link = await resetLink(u.email);
  const weak = await setPassword(link, 'abc123');
  expect(weak.status).toBe(400);
  expect(weak.text).toContain('The password is too weak.');
  expect(weak.text).toContain('name="new_password1"');
  const mismatch = await setPassword(link, 'New-battery-staple-horse-correct', 'Other-battery-staple-horse-correct');
  expect(mismatch.status).toBe(400);
  expect(mismatch.text).toContain('The two password fields didn’t match.');
  expect((await setPassword(link, 'New-battery-staple-horse-correct')).status).toBe(200);
});

it('answers bad input with an error, never a 500', async () => {
  const bad = await ask('not-an-address');
  expect(bad.status).toBe(400);
  expect(bad.text).toContain('Enter a valid email address.');
  expect((await t.post('/accounts/password/reset/', { as: null, form: {} })).body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: 'Missing \'email\' argument' });
  expect((await openLink('http://chat.example.com/accounts/password/reset/not-a-token/')).status).toBe(404);
  expect((await setPassword(`http://chat.example.com/accounts/password/reset/${'0'.repeat(64)}/`, 'New-battery-staple-horse-correct')).status).toBe(404);
  const missing = await t.post(`/accounts/password/reset/${'0'.repeat(64)}/`, { as: null, form: { new_password1: 'x' } });
  expect(missing.body).toMatchObject({ result: 'error', msg: 'Missing \'new_password2\' argument' });
});

describe('rate limits (RATE_LIMITING on)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await TestApp.start({ RATE_LIMITING: 'true' });
  }, 60_000);
  afterAll(() => limited?.close());

  it('allows 2 requests an hour per address (known or not), and 5 emails a day per client address', async () => {
    expect((await ask('someone@example.com', { as: limited })).status).toBe(200);
    expect((await ask('SOMEONE@example.com', { as: limited })).status).toBe(200);
    const third = await ask('someone@example.com', { as: limited });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect(third.text).toContain('too many password reset requests');
    limited.clock.advance(3600);
    for (const who of ['a', 'b', 'c']) expect((await ask(`${who}@example.com`, { as: limited })).status).toBe(200);
    expect((await ask('d@example.com', { as: limited })).status).toBe(429); // the client's sixth in a day
  });

  it('a reset clears the address’s failed logins (Zulip’s do_change_password)', async () => {
    const email = 'locked-out@example.com';
    const password = 'Locked-out-correct-horse-battery';
    expect((await limited.post('users', { form: { email, password, full_name: 'Locked Out' } })).status).toBe(200);
    const tryLogin = (pw: string) => limited.post('fetch_api_key', { as: null, form: { username: email, password: pw } });
    limited.clock.advance(86_400); // the client's daily email allowance is back
    expect((await ask(email, { as: limited })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await tryLogin('wrong')).status).toBe(401);
    expect((await tryLogin(password)).status).toBe(429);
    const [row] = await limited.sql(`SELECT body FROM email_outbox WHERE to_address = $1 AND kind = 'password_reset'`, [email]);
    const path = /\/accounts\/password\/reset\/[0-9a-f]{64}\//.exec(row.body)![0];
    const form = { new_password1: 'Fresh-battery-staple-horse-correct', new_password2: 'Fresh-battery-staple-horse-correct' };
    expect((await limited.post(path, { as: null, form })).status).toBe(200);
    expect((await tryLogin('Fresh-battery-staple-horse-correct')).status).toBe(200);
  });
});
