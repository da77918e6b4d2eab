import { EmailDelivery } from '../../../src/email/index.js';
import { SmtpTestServer } from '../../support/smtp-test-server.js';
import { OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/**
 * Issue 16 §1: the emails Zulip sends about accounts, delivered through a real SMTP server in
 * this process: "new login" after a password login (fetch_api_key), and "your new account
 * details" to a user an administrator created (POST /users).
 */
let t: TestApp;
let smtp: SmtpTestServer;

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  t = await TestApp.start({ SMTP_URL: smtp.url(), EMAIL_FROM: 'Chat <noreply@chat.example.com>', EMAIL_POLL_INTERVAL_MS: '0' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const deliver = () => t.app.get(EmailDelivery).deliverDue();
const outbox = (to: string, kind: string) => t.sql(`SELECT * FROM email_outbox WHERE to_address = $1 AND kind = $2 ORDER BY id`, [to, kind]);
const login = (email: string, password: string, userAgent = FIREFOX_ON_LINUX) =>
  t.post('fetch_api_key', { as: null, form: { username: email, password } }).set('User-Agent', userAgent);

describe('account created by an administrator', () => {
  it('emails the new user the organization URL and their login email, in text and HTML', async () => {
    const res = await t.post('users', { form: { email: 'newbie@example.com', password: 'Newbie-correct-horse-battery', full_name: 'New Bie' } });
    expect(res.body).toMatchObject({ result: 'success' });
    while ((await deliver()) > 0);
    const [mail] = smtp.to('newbie@example.com');
    expect(mail.headers.subject).toBe('Demo Organization: Your new account details');
    expect(mail.headers.from).toBe('Chat <noreply@chat.example.com>');
    expect(mail.text).toContain("You've joined the organization Demo Organization.");
    expect(mail.text).toContain('* Organization URL: http://chat.example.com');
    expect(mail.text).toContain('* Your account email: newbie@example.com');
    expect(mail.text).not.toContain('Newbie-correct-horse-battery'); // never the password
    expect(mail.html).toContain('<a href="http://chat.example.com">http://chat.example.com</a>');
    expect(mail.html).toContain('Your account email: newbie@example.com');
  });

  it('sends nothing when the creation fails', async () => {
    const res = await t.post('users', { form: { email: 'weak@example.com', password: 'abc', full_name: 'Weak' } });
    expect(res.body).toMatchObject({ result: 'error', msg: 'The password is too weak.' });
    expect(await outbox('weak@example.com', 'account_registered')).toEqual([]);
  });
});

describe('new login', () => {
  it('sends nothing in the account’s first minute (Zulip’s JUST_CREATED_THRESHOLD)', async () => {
    await t.post('users', { form: { email: 'fresh@example.com', password: 'Fresh-correct-horse-battery', full_name: 'Fresh' } });
    expect((await login('fresh@example.com', 'Fresh-correct-horse-battery')).status).toBe(200);
    expect(await outbox('fresh@example.com', 'new_login')).toEqual([]);
  });

  it('emails the user after a password login: server, account, time, device and address', async () => {
    t.clock.current = new Date('2027-03-04T14:07:00Z');
    expect((await login(OWNER_EMAIL, OWNER_PASSWORD)).status).toBe(200);
    while ((await deliver()) > 0);
    const [mail] = smtp.to(OWNER_EMAIL);
    expect(mail.headers.subject).toBe('New login from Firefox on Linux');
    expect(mail.text).toContain('This is a notification that a new login to your account has just occurred.');
    expect(mail.text).toContain('Server: http://chat.example.com\n');
    expect(mail.text).toContain(`Account: ${OWNER_EMAIL}\n`);
    expect(mail.text).toContain('Time: Thursday, March 04, 2027 at 02:07PM UTC\n');
    expect(mail.text).toContain('Device: Firefox on Linux.\n');
    expect(mail.text).toMatch(/IP Address: (::ffff:)?127\.0\.0\.1\n/);
    expect(mail.html).toContain('<a href="http://chat.example.com">http://chat.example.com</a>');
    expect(mail.html).toContain('Device: Firefox on Linux.');
  });

  it('follows the user’s time zone and 24-hour setting; an unknown client is named so', async () => {
    await t.patch('settings', { form: { timezone: 'Europe/Paris', twenty_four_hour_time: true } });
    t.clock.current = new Date('2027-03-04T20:30:00Z');
    expect((await login(OWNER_EMAIL, OWNER_PASSWORD, 'curl/8.5.0')).status).toBe(200);
    const [row] = (await outbox(OWNER_EMAIL, 'new_login')).slice(-1);
    expect(row.subject).toBe('New login from an unknown browser on an unknown operating system');
    expect(row.body).toContain('Time: Thursday, March 04, 2027 at 21:30 GMT+1\n');
    await t.patch('settings', { form: { timezone: '', twenty_four_hour_time: false } });
  });

  it('sends nothing after a failed login, or when the user turned enable_login_emails off', async () => {
    const before = (await outbox(OWNER_EMAIL, 'new_login')).length;
    expect((await login(OWNER_EMAIL, 'wrong-password')).status).toBe(401);
    expect(await outbox(OWNER_EMAIL, 'new_login')).toHaveLength(before);
    expect((await t.patch('settings', { form: { enable_login_emails: false } })).body).toMatchObject({ result: 'success' });
    expect((await login(OWNER_EMAIL, OWNER_PASSWORD)).status).toBe(200);
    expect(await outbox(OWNER_EMAIL, 'new_login')).toHaveLength(before);
    await t.patch('settings', { form: { enable_login_emails: true } });
    expect((await login(OWNER_EMAIL, OWNER_PASSWORD)).status).toBe(200);
    expect(await outbox(OWNER_EMAIL, 'new_login')).toHaveLength(before + 1);
  });
});
