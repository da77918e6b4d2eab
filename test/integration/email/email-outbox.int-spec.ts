import { DataSource } from 'typeorm';
import { type ClaimedEmail, EmailOutbox } from '../../../src/email/application/email-delivery.ports.js';
import { TypeOrmEmailOutbox } from '../../../src/email/persistence/typeorm-email-outbox.js';
import { TestApp } from '../../support/test-app.js';
import { whileRowLocked } from '../../support/adapter-suite.js';

// Without SMTP_URL no delivery worker runs: the test is the only one claiming rows.
let t: TestApp;
let ds: DataSource;
let outbox: EmailOutbox;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  outbox = t.app.get(EmailOutbox);
});
afterAll(() => t.close());
beforeEach(() => ds.query(`DELETE FROM email_outbox`));

const now = new Date('2025-03-04T05:06:07Z');
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);

interface OutboxRow {
  id: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  claimed_at: Date | null;
  sent_at: Date | null;
  last_error: string | null;
}

async function queued(o: { to?: string; due?: Date; status?: string; attempts?: number; claimedAt?: Date | null; html?: string | null } = {}): Promise<string> {
  const [row]: { id: string }[] = await ds.query(
    `INSERT INTO email_outbox (kind, to_address, subject, body, html_body, created_at, next_attempt_at, status, attempts, claimed_at)
     VALUES ('test', $1, 'Subject', 'Body', $2, $3, $4, $5, $6, $7) RETURNING id`,
    [o.to ?? 'a@example.com', o.html ?? null, minutes(-60), o.due ?? minutes(-1), o.status ?? 'pending', o.attempts ?? 0, o.claimedAt ?? null],
  );
  return row.id;
}

async function stored(id: string): Promise<OutboxRow> {
  const [row]: OutboxRow[] = await ds.query(
    `SELECT id, status, attempts, next_attempt_at, claimed_at, sent_at, last_error FROM email_outbox WHERE id = $1`,
    [id],
  );
  return row;
}

async function claim(): Promise<ClaimedEmail> {
  const email = await outbox.claimNext(now);
  if (email === null) throw new Error('nothing to claim');
  return email;
}

describe('TypeOrmEmailOutbox', () => {
  it('is the outbox the server uses', () => {
    expect(outbox).toBeInstanceOf(TypeOrmEmailOutbox);
  });

  it('claims the row due first (then the lowest id) and marks it sending with one more attempt', async () => {
    await queued({ to: 'later@example.com', due: minutes(5) });
    await queued({ to: 'sent@example.com', status: 'sent', due: minutes(-30) });
    const second = await queued({ to: 'second@example.com', due: minutes(-10) });
    const first = await queued({ to: 'first@example.com', due: minutes(-20), attempts: 2, html: '<p>Body</p>' });
    const third = await queued({ to: 'third@example.com', due: minutes(-10) });

    expect(await outbox.claimNext(now)).toEqual({ id: first, to: 'first@example.com', subject: 'Subject', body: 'Body', html: '<p>Body</p>', attempt: 3 });
    expect(await stored(first)).toMatchObject({ status: 'sending', attempts: 3, claimed_at: now });
    expect(await outbox.claimNext(now)).toEqual({ id: second, to: 'second@example.com', subject: 'Subject', body: 'Body', html: null, attempt: 1 });
    expect((await outbox.claimNext(now))?.id).toBe(third);
    expect(await outbox.claimNext(now)).toBeNull();
    expect(Number(third)).toBeGreaterThan(Number(second));
  });

  it('skips a row another transaction holds locked', async () => {
    const locked = await queued({ due: minutes(-20) });
    const free = await queued({ due: minutes(-10) });
    await whileRowLocked(t, 'email_outbox', locked, async () => {
      expect((await outbox.claimNext(now))?.id).toBe(free);
    });
    expect((await outbox.claimNext(now))?.id).toBe(locked);
  });

  it('records a success of the current attempt only, also over an interrupted verdict', async () => {
    await queued();
    const email = await claim();
    await outbox.markSent({ ...email, attempt: email.attempt + 1 }, minutes(1));
    expect(await stored(email.id)).toMatchObject({ status: 'sending', sent_at: null });
    await ds.query(`UPDATE email_outbox SET status = 'failed', last_error = 'interrupted' WHERE id = $1`, [email.id]);
    await outbox.markSent(email, minutes(1));
    expect(await stored(email.id)).toEqual({
      id: email.id,
      status: 'sent',
      attempts: 1,
      next_attempt_at: minutes(-1),
      claimed_at: now,
      sent_at: minutes(1),
      last_error: null,
    });
  });

  it('puts a temporary failure back in the queue, due later, with the server’s answer cut to 2000 characters', async () => {
    await queued();
    const email = await claim();
    await outbox.retryLater(email, `421 ${'x'.repeat(3000)}`, minutes(10));
    const row = await stored(email.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: minutes(10), claimed_at: null, sent_at: null });
    expect(row.last_error).toBe(`421 ${'x'.repeat(1996)}`);
    expect(await outbox.claimNext(minutes(9))).toBeNull();
    expect(await outbox.claimNext(minutes(10))).toMatchObject({ id: email.id, attempt: 2 });
    // A stale attempt's verdict changes nothing.
    await outbox.retryLater(email, 'late', minutes(20));
    expect(await stored(email.id)).toMatchObject({ status: 'sending', attempts: 2, last_error: row.last_error });
  });

  it('fails a row permanently, for the current attempt only', async () => {
    await queued();
    const email = await claim();
    await outbox.markFailed({ ...email, attempt: 7 }, 'stale');
    expect(await stored(email.id)).toMatchObject({ status: 'sending', last_error: null });
    await outbox.markFailed(email, `550 ${'y'.repeat(2500)}`);
    const row = await stored(email.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row.last_error).toHaveLength(2000);
    expect(await outbox.claimNext(minutes(60))).toBeNull();
  });

  it('fails the rows left sending by a claim older than the cut-off, and counts them', async () => {
    const stale = await queued({ status: 'sending', attempts: 1, claimedAt: minutes(-30) });
    const staler = await queued({ status: 'sending', attempts: 2, claimedAt: minutes(-40) });
    const fresh = await queued({ status: 'sending', attempts: 1, claimedAt: minutes(-1) });
    const waiting = await queued({ status: 'pending' });
    expect(await outbox.failInterrupted(minutes(-5), 'interrupted')).toBe(2);
    for (const id of [stale, staler]) expect(await stored(id)).toMatchObject({ status: 'failed', last_error: 'interrupted' });
    expect(await stored(fresh)).toMatchObject({ status: 'sending', last_error: null });
    expect(await stored(waiting)).toMatchObject({ status: 'pending' });
    expect(await outbox.failInterrupted(minutes(-5), 'interrupted')).toBe(0);
  });
});
