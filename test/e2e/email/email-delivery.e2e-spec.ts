import { EmailDelivery, INTERRUPTED_ERROR } from '../../../src/email/index.js';
import { SmtpTestServer } from '../../support/smtp-test-server.js';
import { TestApp } from '../../support/test-app.js';

/**
 * Issue 16 §1: the outbox delivered over SMTP to a real SMTP server in this process. Delivery
 * passes are run by the test (EMAIL_POLL_INTERVAL_MS=0), with the test clock for back-off.
 */
let t: TestApp;
let smtp: SmtpTestServer;
let n = 0;

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  t = await TestApp.start({
    SMTP_URL: smtp.url('mailer', 'mail-secret'),
    EMAIL_FROM: 'Chat <noreply@chat.example.com>',
    EMAIL_POLL_INTERVAL_MS: '0',
    EMAIL_RETRY_BASE_MS: '60000',
    EMAIL_MAX_ATTEMPTS: '3',
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

const delivery = () => t.app.get(EmailDelivery);
const row = async (to: string) => (await t.sql(`SELECT * FROM email_outbox WHERE to_address = $1`, [to]))[0];

/** Invites a new address (which queues the invitation email) and returns it. */
async function invite(): Promise<string> {
  n += 1;
  const to = `invitee${n}@example.com`;
  const res = await t.post('invites', { form: { invitee_emails: to, stream_ids: [] } });
  expect(res.body).toMatchObject({ result: 'success' });
  return to;
}

it('delivers an invitation over SMTP: the server receives it once, the row says sent', async () => {
  const to = await invite();
  expect(await row(to)).toMatchObject({ status: 'pending', attempts: 0, sent_at: null });

  expect(await delivery().deliverDue()).toBe(1);
  const [mail] = smtp.to(to);
  const queued = await row(to);
  expect(mail.from).toBe('noreply@chat.example.com');
  expect(mail.user).toBe('mailer'); // logged in with SMTP_URL's credentials
  expect(mail.headers.from).toBe('Chat <noreply@chat.example.com>');
  expect(mail.headers.to).toBe(to);
  expect(mail.headers.subject).toBe(queued.subject);
  expect(mail.headers['message-id']).toBe(`<outbox-${queued.id}@chat.example.com>`);
  expect(mail.text).toContain('http://chat.example.com/accounts/do_confirm/');
  expect(mail.text.trim()).toBe(queued.body.trim());
  expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);
  expect(mail.html!.trim()).toBe(queued.html_body.trim());
  const link = /<a href="(http:\/\/chat\.example\.com\/accounts\/do_confirm\/[a-z0-9]+)">Join Demo Organization<\/a>/.exec(mail.html!);
  expect(mail.text).toContain(`<${link![1]}>`); // the same link in both parts
  expect(queued).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  expect(queued.sent_at).toEqual(t.clock.now());

  // Nothing is due any more: a second pass sends nothing.
  expect(await delivery().deliverDue()).toBe(0);
  expect(smtp.to(to)).toHaveLength(1);
});

it('retries a 451 after the back-off and delivers the email once', async () => {
  smtp.replies.push({ code: 451, message: 'Greylisted, try again later' });
  const to = await invite();
  expect(await delivery().deliverDue()).toBe(1);
  expect(smtp.to(to)).toHaveLength(0);
  const waiting = await row(to);
  expect(waiting).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
  expect(waiting.last_error).toContain('451 Greylisted, try again later');
  expect(waiting.next_attempt_at).toEqual(new Date(t.clock.now().getTime() + 60_000));

  expect(await delivery().deliverDue()).toBe(0); // not due yet
  t.clock.advance(60);
  expect(await delivery().deliverDue()).toBe(1);
  expect(smtp.to(to)).toHaveLength(1);
  expect(smtp.attempts.filter((a) => a.to.includes(to)).map((a) => a.code)).toEqual([451, 250]);
  expect(await row(to)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  t.clock.advance(3600);
  expect(await delivery().deliverDue()).toBe(0);
  expect(smtp.to(to)).toHaveLength(1);
});

it('fails the row at once on a 550, with the server’s answer, and never tries again', async () => {
  smtp.replies.push({ code: 550, message: 'No such user here' });
  const to = await invite();
  expect(await delivery().deliverDue()).toBe(1);
  const failed = await row(to);
  expect(failed).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
  expect(failed.last_error).toContain('550 No such user here');
  t.clock.advance(86_400);
  expect(await delivery().deliverDue()).toBe(0);
  expect(smtp.attempts.filter((a) => a.to.includes(to)).map((a) => a.code)).toEqual([550]);
  expect(smtp.to(to)).toHaveLength(0);
});

it('gives up after EMAIL_MAX_ATTEMPTS temporary failures, waiting twice as long each time', async () => {
  smtp.replies.push(...[1, 2, 3].map(() => ({ code: 421, message: 'Service not available, closing channel' })));
  const to = await invite();
  expect(await delivery().deliverDue()).toBe(1);
  expect((await row(to)).next_attempt_at).toEqual(new Date(t.clock.now().getTime() + 60_000));
  t.clock.advance(60);
  expect(await delivery().deliverDue()).toBe(1);
  expect((await row(to)).next_attempt_at).toEqual(new Date(t.clock.now().getTime() + 120_000));
  t.clock.advance(120);
  expect(await delivery().deliverDue()).toBe(1);
  const failed = await row(to);
  expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
  expect(failed.last_error).toContain('421 Service not available');
  t.clock.advance(86_400);
  expect(await delivery().deliverDue()).toBe(0);
  expect(smtp.attempts.filter((a) => a.to.includes(to))).toHaveLength(3);
});

it('retries when the SMTP server cannot be reached', async () => {
  const to = await invite();
  const port = smtp.port;
  await smtp.stop();
  try {
    expect(await delivery().deliverDue()).toBe(1);
  } finally {
    await restart(port);
  }
  const waiting = await row(to);
  expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
  expect(waiting.last_error).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/);
  t.clock.advance(60);
  expect(await delivery().deliverDue()).toBe(1);
  expect(smtp.to(to)).toHaveLength(1);
  expect(await row(to)).toMatchObject({ status: 'sent', attempts: 2 });
});

it('never resends a row a dead process left mid-send: it is marked failed once its claim is stale', async () => {
  const to = await invite();
  const claimedAt = new Date(t.clock.now().getTime() - delivery().interruptedAfterMs + 1000);
  await t.sql(`UPDATE email_outbox SET status = 'sending', attempts = 1, claimed_at = $2 WHERE to_address = $1`, [to, claimedAt]);
  expect(await delivery().deliverDue()).toBe(0); // still within the time a send may take
  expect(await row(to)).toMatchObject({ status: 'sending' });
  t.clock.advance(2);
  expect(await delivery().deliverDue()).toBe(0);
  expect(await row(to)).toMatchObject({ status: 'failed', attempts: 1, last_error: INTERRUPTED_ERROR });
  t.clock.advance(86_400);
  expect(await delivery().deliverDue()).toBe(0);
  expect(smtp.attempts.filter((a) => a.to.includes(to))).toHaveLength(0);
});

/** A new SMTP server on the same port (the app's SMTP_URL names it). */
async function restart(port: number): Promise<void> {
  smtp = await SmtpTestServer.start(port);
}
