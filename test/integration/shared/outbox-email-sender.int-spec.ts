import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { OutboxEmailSender } from '../../../src/shared/persistence/outbox-email-sender.js';
import { TestApp } from '../../support/test-app.js';

/** OutboxEmailSender: emails are rows of `email_outbox`, written (or not) with the caller's transaction. */
let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let realmId: number;
beforeAll(async () => {
  t = await TestApp.start({ EMAIL_POLL_INTERVAL_MS: '0' }); // no delivery worker claims the rows meanwhile
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
});
afterAll(() => t.close());

const now = new Date('2025-06-07T08:09:10Z');
const outbox = (kind: string) => ds.query(`SELECT * FROM email_outbox WHERE kind = $1 ORDER BY id`, [kind]);

describe('OutboxEmailSender', () => {
  it('is the transaction’s email sender', async () => {
    expect(await uow.run(async (tx) => tx.emails)).toBeInstanceOf(OutboxEmailSender);
  });

  it('queues an email as a pending row, due at once, with its HTML part', async () => {
    await uow.run((tx) => tx.emails.send({ realmId, kind: 'test-html', to: 'a@example.com', subject: 'Hi', body: 'text', html: '<p>text</p>' }, now));
    expect(await outbox('test-html')).toEqual([
      {
        id: expect.any(String), // bigserial
        realm_id: realmId,
        kind: 'test-html',
        to_address: 'a@example.com',
        subject: 'Hi',
        body: 'text',
        html_body: '<p>text</p>',
        created_at: now,
        next_attempt_at: now,
        sent_at: null,
        status: 'pending',
        attempts: 0,
        claimed_at: null,
        last_error: null,
      },
    ]);
  });

  it('queues server-wide and plain-text emails (no organization, no HTML part)', async () => {
    await uow.run((tx) => tx.emails.send({ realmId: null, kind: 'test-plain', to: 'b@example.com', subject: 'S', body: 'only text' }, now));
    expect(await outbox('test-plain')).toEqual([expect.objectContaining({ realm_id: null, html_body: null, body: 'only text', status: 'pending' })]);
  });

  it('sends nothing when the transaction rolls back', async () => {
    await expect(
      uow.run(async (tx) => {
        await tx.emails.send({ realmId, kind: 'test-rollback', to: 'c@example.com', subject: 'S', body: 'B' }, now);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await outbox('test-rollback')).toEqual([]);
  });
});
